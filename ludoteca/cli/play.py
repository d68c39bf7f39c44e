"""``ludoteca play`` and ``ludoteca replay``: a game in the terminal, and a saved one again."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from ludoteca.cli.common import (
    INTERRUPTED,
    Lang,
    OptionList,
    Players,
    Seed,
    bot_levels,
    fail,
    new_seed,
    out,
    person_errors,
    read_line,
    voice_language,
)
from ludoteca.engine.errors import LudotecaError, OptionError
from ludoteca.engine.options import parse_option_pairs


def play(
    game: Annotated[str, typer.Argument(help="Game to play, e.g. kingdomino.")],
    players: Players = None,
    option: OptionList = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bot levels for the other seats, e.g. hard (every seat) or random,greedy "
            "(in turn) \\[greedy]."
        ),
    ] = None,
    seat: Annotated[int, typer.Option(help="Your seat: 0 is the first player (P1).")] = 0,
    seed: Seed = None,
    save: Annotated[
        Path | None, typer.Option(help="Where to save the match (default ./matches/).")
    ] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots in every seat; you watch.")] = False,
    delay: Annotated[
        float, typer.Option(help="Seconds between moves when watching.", min=0.0)
    ] = 0.5,
    lang: Lang = None,
) -> None:
    """Play a game in the terminal against bots (or --watch bots play)."""
    from ludoteca.bots import check_bot, make_bot, parse_bot_list
    from ludoteca.engine.i18n import speaking
    from ludoteca.engine.match import Match
    from ludoteca.games import get_game
    from ludoteca.terminal.session import (
        PlaySession,
        Quit,
        load_renderer,
        save_record,
        seat_names,
    )

    with person_errors():
        language = voice_language(lang)
        g = get_game(game)
        ui = load_renderer(game)
        options = parse_option_pairs(option or [])
        named = parse_bot_list(bots) if bots is not None else []
        if players is None:
            players = max(g.spec.min_players, len(named) + (0 if watch else 1))
        g.validate(options, players)
        if not watch and not 0 <= seat < players:
            raise OptionError(f"--seat must be 0-{players - 1} for {players} players, not {seat}")
        bot_seats = list(range(players)) if watch else [s for s in range(players) if s != seat]
        if len(named) > len(bot_seats):
            raise OptionError(f"{len(named)} bots named but only {len(bot_seats)} bot seats")
        levels = bot_levels(named, len(bot_seats))
        for level in set(levels):
            check_bot(level, g.spec.name)
        seed = new_seed(seed)
        plain = g.voice(language)
        controllers: list[Any] = [None] * players
        names = [plain.t("you")] * players
        for i, (s, level) in enumerate(zip(bot_seats, levels, strict=True)):
            controllers[s] = make_bot(level, g.spec.name, seed + 1 + i)
            names[s] = plain.t("{level} bot", level=level)
        match = Match.new(g, options, players, seed, names=names, controllers=controllers)
    humans = [s for s in range(players) if s not in bot_seats]
    voice = g.voice(language, seat_names(names, humans, plain))
    console = out()
    console.print(
        voice.t("{game}, {players} players, seed {seed}. Type `help` for help.",
                game=g.spec.title, players=players, seed=seed)
    )
    session = PlaySession(match, ui, console, read_line, voice, delay=delay if watch else 0.0)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = save or Path("matches") / f"{g.spec.name}-{stamp}.json"
    try:
        with speaking(voice):  # the game's board, hints and help in the person's language
            session.run()
    except LudotecaError as exc:  # a bot's mistake, never the person's: say it, keep the moves
        match.close()
        saved = save_record(match.record, path)
        fail(f"the match stopped: {exc} (moves so far in {saved})", 1)
    except (EOFError, Quit, KeyboardInterrupt) as exc:
        console.print()
        session.flush_log()
        ended = (
            voice.t("Input ended; the match was not finished.")
            if isinstance(exc, EOFError)
            else voice.t("You left; the match was not finished.")
        )
        message = ended
        if save is not None:
            saved = save_record(match.record, path)
            message += " " + voice.t("The moves so far are saved in {path}.", path=saved)
        console.print(message)
        match.close()
        raise typer.Exit(INTERRUPTED if isinstance(exc, KeyboardInterrupt) else 0) from None
    match.end()
    try:
        console.print(voice.t("Match saved to {path}", path=save_record(match.record, path)))
    except OSError as exc:
        fail(f"cannot save the match to {path}: {exc}", 1)


def replay(
    file: Annotated[Path, typer.Argument(help="A match record saved by `ludoteca play`.")],
    seat: Annotated[
        int | None, typer.Option(help="See the match as this seat saw it (default: spectator).")
    ] = None,
    to_end: Annotated[
        bool, typer.Option("--to-end", help="Show only the final position and scores.")
    ] = False,
    lang: Lang = None,
) -> None:
    """Step through a saved match: Enter next, b back, e end, q quit."""
    from ludoteca.engine.i18n import speaking
    from ludoteca.engine.record import MatchRecord
    from ludoteca.games import get_game
    from ludoteca.terminal.session import load_renderer, run_replay

    with person_errors():
        language = voice_language(lang)
        record = MatchRecord.load(file)
        g = get_game(record.game)
        ui = load_renderer(record.game)
        if seat is not None and not 0 <= seat < record.players:
            raise OptionError(f"--seat must be 0-{record.players - 1}, not {seat}")
        names = [str(s.get("name", "")) or f"P{i + 1}" for i, s in enumerate(record.seats)]
        names += [f"P{i + 1}" for i in range(len(names), record.players)]
        voice = g.voice(language, [f"P{i + 1} ({n})" for i, n in enumerate(names)])
        try:
            with speaking(voice):
                run_replay(record, g, ui, out(), read_line, voice, seat, to_end)
        except KeyboardInterrupt:
            raise typer.Exit(INTERRUPTED) from None
