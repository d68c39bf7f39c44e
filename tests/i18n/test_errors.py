"""Every error a person can cause can be said in Spanish, as the arena server sends it.

An error carries a message id (the English sentence with ``{fields}``) and its fields, and
``error.say(voice)`` says it in the voice's language. These tests say errors of every kind —
illegal actions of each game, bad options, bad player counts, unreadable actions — in Spanish
through a catalog that records every message it lacks, and require Spanish that differs from the
English, has every field filled in, and needed no message the catalogs lack. The last test walks
random games and tries random refused actions, so a game whose ``_why_illegal`` gives a reason
that cannot be translated fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ludoteca.engine.errors import (
    IllegalAction,
    LudotecaError,
    MalformedAction,
    OptionError,
    Reason,
    because,
)
from ludoteca.engine.game import Game
from ludoteca.engine.i18n import ENGINE_LOCALE, N_, Catalog, Voice, check_language
from ludoteca.engine.options import parse_option_pairs
from ludoteca.engine.rng import Rng
from ludoteca.games import all_games, game_names, get_game

GAMES = game_names()


def strict_voice(game: Game[Any, Any] | None, lang: str = "es") -> Voice:
    """The game's voice with a catalog of its own, whose ``missing`` set is this test's."""
    folders: tuple[Path, ...] = ()
    if game is not None and game.locale is not None:
        folders = (game.locale,) if isinstance(game.locale, Path) else game.locale
    return Voice(lang, (), folders, Catalog(lang, (ENGINE_LOCALE, *folders)))


def said(error: LudotecaError, game: Game[Any, Any] | None = None) -> str:
    """The error in Spanish, checked: translated, every field filled in, nothing missing."""
    assert error.msgid is not None, f"no message id, so it cannot be translated: {error}"
    voice = strict_voice(game)
    spanish = error.say(voice)
    assert not voice.catalog.missing, f"no Spanish for {sorted(voice.catalog.missing)}"
    assert spanish != str(error), f"said in English: {spanish!r}"
    assert "{" not in spanish and "}" not in spanish, spanish
    assert error.say(strict_voice(game, "en")) == str(error)
    return spanish


def refused(game: Game[Any, Any], state: Any, seat: int, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.apply(state, seat, action)
    return info.value


def first_illegal(game: Game[Any, Any], state: Any) -> tuple[int, Any]:
    """A seat to act and the first action by index it may not take now."""
    seat = min(game.to_act(state))
    legal = set(game.legal_actions(state, seat))
    for index in range(game.spec.num_actions):
        try:
            action = game.action_from_index(index)
        except MalformedAction:
            continue
        if action not in legal:
            return seat, action
    raise AssertionError("every action is legal")


# ---- illegal actions -------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_of_each_game_is_said_in_spanish(name: str) -> None:
    game = get_game(name)
    players = game.spec.max_players if name in ("kami", "goita") else 2
    state = game.setup({}, players, seed=3)
    rng = Rng(3)
    while True:
        try:
            seat, action = first_illegal(game, state)
            break
        except AssertionError:  # every action legal now (Nim's start): play on
            seat = min(game.to_act(state))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    spanish = said(refused(game, state, seat, action), game)
    assert spanish[0].islower() or spanish[0] in "(«¡¿"


def test_a_kingdomino_refusal_in_spanish() -> None:
    game = get_game("kingdomino")
    state = game.setup({}, 2, seed=1)
    seat = min(game.to_act(state))
    error = refused(game, state, seat, game.action_from_json({"type": "claim", "domino": 48}))
    assert str(error) == "domino 48 is not in the next line"
    assert said(error, game) == "el dominó 48 no está en la línea siguiente"


def test_card_names_inside_a_reason_are_said_in_the_same_language() -> None:
    """Kami names its cards in Spanish in the reasons too (the events' own words)."""
    game = get_game("kami")
    state = game.setup({}, 2, seed=5)
    seat = min(game.to_act(state))
    hand = game.view(state, seat)["hand"]
    missing = next(c for c in ("empress", "spear", "fool", "tower") if c not in hand)
    action = game.action_from_json({"type": "play", "defense": missing, "attack": missing})
    error = refused(game, state, seat, action)
    english, spanish = str(error), said(error, game)
    title = {"empress": "Empress", "spear": "Spear", "fool": "Fool", "tower": "Tower"}[missing]
    assert english == f"you do not hold two {title} cards"
    word = {"empress": "Emperatriz", "spear": "Lanza", "fool": "Loco", "tower": "Torre"}[missing]
    assert spanish == f"no tienes dos cartas de {word}"


def test_a_reason_says_nested_reasons_in_the_voices_language() -> None:
    reason = because(N_("{action} is not legal now"), action=because(N_("keep quiet")))
    assert str(reason) == "keep quiet is not legal now"
    voice = strict_voice(get_game("kami"))
    assert reason.say(voice) == "«no mostrar nada» no está permitido ahora"
    assert not voice.catalog.missing
    assert reason.say(object()) == str(reason)  # no voice: English


# ---- options and player counts ---------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_option_errors_are_said_in_spanish(name: str) -> None:
    game = get_game(name)
    players = game.spec.min_players
    errors = []
    for options, count in [
        ({"no_such_option": 1}, players),
        ({}, game.spec.max_players + 1),
        ({}, "two"),
        ({game.spec.options[0].name: [1]}, players),
    ]:
        with pytest.raises(OptionError) as info:
            game.validate(options, count)  # type: ignore[arg-type]
        errors.append(info.value)
    for error in errors:
        said(error, game)
    assert said(errors[0], game).startswith("opción desconocida 'no_such_option'")
    assert f"{game.spec.title} es para" in said(errors[1], game)


def test_bad_option_values_are_said_in_spanish() -> None:
    kingdomino, kami, buttons = get_game("kingdomino"), get_game("kami"), get_game("buttons")
    cases: list[tuple[Game[Any, Any], dict[str, Any], int]] = [
        (kingdomino, {"harmony": "maybe"}, 2),
        (kingdomino, {"mighty_duel": True}, 3),
        (kami, {"target": "ten"}, 2),
        (kami, {"target": 99}, 2),
        (kami, {"target": 1}, 2),
        (kami, {"end_mode": "sudden"}, 2),
        (buttons, {"winner": 5}, 2),
    ]
    seen = set()
    for game, options, players in cases:
        with pytest.raises(OptionError) as info:
            game.validate(options, players)
        said(info.value, game)
        seen.add(info.value.msgid)
    assert len(seen) == len(cases)
    # checks the schemas' choices keep from being reached through ``validate`` today
    for game, options, players in [
        (kingdomino, {"mighty_duel": True}, 3),
        (buttons, {"layouts": "nowhere"}, 2),
        (kami, {"end_mode": "lord", "target": 5}, 2),
    ]:
        with pytest.raises(OptionError) as info:
            game._check_options(options, players)
        said(info.value, game)
    with pytest.raises(OptionError) as info:
        parse_option_pairs(["harmony"])
    assert said(info.value) == "las opciones se escriben nombre=valor, no 'harmony'"
    with pytest.raises(OptionError) as info:
        check_language("fr")
    assert said(info.value) == "idioma desconocido 'fr'; idiomas disponibles: en, es"


def test_queendomino_team_options_are_said_in_spanish() -> None:
    game = get_game("queendomino")
    for options, players in [
        ({"teams": True}, 4),
        ({"teams": True, "royal_wedding": False}, 6),
        ({"royal_wedding": False}, 6),
    ]:
        with pytest.raises(OptionError) as info:
            game.validate(options, players)
        said(info.value, game)


# ---- unreadable actions ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_malformed_actions_are_said_in_spanish(name: str) -> None:
    game = get_game(name)
    bad: list[object] = [
        "claim 3",
        {"type": "fly"},
        {"type": "claim", "domino": "three"},
        {"type": "place", "x": 1, "y": 1.5, "dir": "E"},
        {"type": "place", "row": True, "col": 1},
    ]
    errors = []
    for data in bad:
        try:
            game.action_from_json(data)
        except MalformedAction as exc:
            errors.append(exc)
    for index in (-1, game.spec.num_actions, True):
        with pytest.raises(MalformedAction) as info:
            game.action_from_index(index)  # type: ignore[arg-type]
        errors.append(info.value)
    assert len(errors) >= 5
    for error in errors:
        said(error, game)
    assert said(errors[0], game) == "una jugada debe ser un objeto JSON, no str"


def test_game_specific_malformed_actions_are_said_in_spanish() -> None:
    cases: list[tuple[str, object]] = [
        ("kingdomino", {"type": "place", "x": 9, "y": 0, "dir": "E"}),
        ("kingdomino", {"type": "place", "x": 0, "y": 0, "dir": "up"}),
        ("kingdomino", {"type": "place", "x": 0, "y": 0, "dir": 3}),
        ("kingdomino", {"type": "claim", "domino": 99}),
        ("queendomino", {"type": "dragon", "space": 9}),
        ("queendomino", {"type": "knight", "x": 0, "y": 9}),
        ("buttons", {"type": "place", "row": 7, "col": 1}),
        ("kami", {"type": "play", "defense": "king", "attack": "spear"}),
        ("kami", {"type": "declare", "reveal": "yes"}),
    ]
    for name, data in cases:
        game = get_game(name)
        with pytest.raises(MalformedAction) as info:
            game.action_from_json(data)
        said(info.value, game)
    with pytest.raises(MalformedAction) as info:
        get_game("kingdomino").action_from_index(52)  # a square of the guard column
    said(info.value, get_game("kingdomino"))


# ---- no reason left untranslatable -----------------------------------------------------------

TRIES = 24
"""Random actions tried at each step of the random games below."""


def _cases() -> list[tuple[Game[Any, Any], int, dict[str, Any]]]:
    out = []
    for game in all_games():
        out.append((game, game.spec.min_players, {}))
        if game.spec.max_players != game.spec.min_players:
            out.append((game, game.spec.max_players, {}))
    queendomino = get_game("queendomino")
    out.append((queendomino, 6, {"royal_wedding": True, "teams": True}))
    return out


CASES = _cases()


@pytest.mark.parametrize(
    ("game", "players", "options"),
    CASES,
    ids=[f"{g.spec.name}-{n}p" + ("-teams" if o else "") for g, n, o in CASES],
)
def test_every_refusal_has_a_translated_reason(
    game: Game[Any, Any], players: int, options: dict[str, Any]
) -> None:
    """Random games; at each step random actions by index that are not legal now are refused
    with a message id, said in Spanish from the catalogs, never a plain English string."""
    rng = Rng(players * 7919 + len(options))
    voice = strict_voice(game)
    reasons: set[str] = set()
    for seed in range(2):
        state = game.setup(options, players, seed=seed)
        for _ in range(400 if game.spec.name in ("kami", "goita") else 150):
            if game.is_over(state):
                break
            seats = sorted(game.to_act(state))
            for _ in range(TRIES):
                seat = seats[rng.below(len(seats))]
                try:
                    action = game.action_from_index(rng.below(game.spec.num_actions))
                except MalformedAction:
                    continue
                if action in game.legal_actions(state, seat):
                    continue
                with pytest.raises(IllegalAction) as info:
                    game.apply(state, seat, action)
                error = info.value
                assert error.msgid is not None, f"{game.spec.name}: plain reason {error}"
                reason = game._why_illegal(state, seat, action)
                assert isinstance(reason, Reason), reason
                spanish = error.say(voice)
                assert "{" not in spanish and spanish != str(error), spanish
                reasons.add(error.msgid)
            seat = seats[rng.below(len(seats))]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert not voice.catalog.missing, f"no Spanish for {sorted(voice.catalog.missing)}"
    assert len(reasons) >= min(3, game.spec.num_actions - 2), reasons  # Nim: one way to err
