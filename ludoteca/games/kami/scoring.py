"""Round scoring (A5.2-A5.3, B4-B5), the end modes (A8) and the final outcome."""

from __future__ import annotations

from ludoteca.engine.game import JSON, Outcome, ranks_from_keys
from ludoteca.engine.i18n import N_
from ludoteca.engine.parts import Part, TieBreak, msg, seat_arg, teams_of
from ludoteca.games.kami.components import GOITA_NAMES, KAMI_THE, NAMES
from ludoteca.games.kami.state import Config, KamiState


def add_points(mode: str, target: int, old: int, gain: int) -> tuple[int, bool]:
    """The new total and whether it wins, for end mode ``mode`` (A8).

    soldier: reach ``target`` or more. lord: exactly ``target``; the excess is taken off the
    target (15 - (old + gain - 15)). kami: exactly ``target``; overshooting resets to 0.
    """
    total = old + gain
    if mode == "soldier":
        return total, total >= target
    if total <= target:
        return total, total == target
    if mode == "lord":
        return target - (total - target), False
    return 0, False


def rule_text(cfg: Config, kind: str, master: bool) -> str:
    """Which rule produced a history entry, for the breakdown."""
    if kind == "out":
        if cfg.goita:
            return "B4 (doubled)" if master else "B4"
        return "A5.3 Master Strike" if master else "A5.2"
    return {
        "shi6": "B5 six Shi", "shi7": "B5 seven Shi", "shi8": "B5 eight Shi",
        "shi5x2": "B5 both partners hold five Shi", "redeal": "A6 redeal" if not cfg.goita
        else "B5 redeal",
    }[kind]


def history_json(cfg: Config, entry: tuple[int, int, str, int, bool, int, int, int]) -> JSON:
    rnd, seat, kind, card, master, gain, before, after = entry
    return {
        "round": rnd,
        "seat": seat,
        "side": cfg.side_of[seat] if seat >= 0 else None,
        "kind": kind,
        "card": NAMES[card] if card >= 0 else None,
        "master_strike": master,
        "points": gain,
        "before": before,
        "after": after,
        "rule": rule_text(cfg, kind, master),
    }


DEAL = N_("Deal {round}, {player}: {why}")
DEAL_PAST = N_("Deal {round}, {player}: {why}; {tally}")
WON = N_("won the game by reaching {target} points")
NOT_WON = N_("did not win the game")


def _why(cfg: Config, seat: int, kind: str, card: int, master: bool, gain: int) -> JSON:
    """Why a deal scored, as a nested message (the clauses the events say, A5.2-A5.3, B4-B5)."""
    the = msg(GOITA_NAMES[card] if cfg.goita else KAMI_THE[card])
    doubled = master or (kind in ("shi6", "shi7") and gain == 2 * cfg.values[card])
    if kind == "out":
        if not master:
            return msg(N_("last attack: {card}"), card=the)
        if cfg.goita:
            return msg(N_("{card} doubled"), card=the)
        return msg(N_("{card} doubled by the Master Strike"), card=the)
    if kind == "shi6":
        if doubled:
            return msg(N_("{player} was dealt six Shi and a pair of {card}: doubled"),
                       player=seat_arg(seat), card=the)
        return msg(N_("{player} was dealt six Shi; the best other piece is {card}"),
                   player=seat_arg(seat), card=the)
    if kind == "shi7":
        return msg(N_("{player} was dealt seven Shi; the other piece, {card}, counts double"),
                   player=seat_arg(seat), card=the)
    if kind == "shi8":
        return msg(N_("{player} was dealt eight Shi"), player=seat_arg(seat))
    return msg(N_("both partners were dealt five Shi: their team wins outright"))


def side_parts(cfg: Config, history: list[tuple[int, int, str, int, bool, int, int, int]],
               side: int) -> tuple[Part, ...]:
    """A side's score as parts: one per deal it scored, worth what its total gained (so the
    parts add up to the total in every end mode, A8: in Lord or Kami mode a deal past the
    target gives a negative part)."""
    out = []
    for rnd, seat, kind, card, master, gain, before, after in history:
        if seat < 0 or kind == "redeal" or cfg.side_of[seat] != side:
            continue
        args: JSON = {"round": rnd, "player": seat_arg(seat),
                      "why": _why(cfg, seat, kind, card, master, gain)}
        text = DEAL
        if after != before + gain and kind != "shi5x2":
            text = DEAL_PAST
            args["tally"] = (
                msg(N_("that passes {target}, so the excess comes off: total {total}"),
                    target=cfg.target, total=after)
                if cfg.end_mode == "lord"
                else msg(N_("that passes {target}, so the total falls back to 0"),
                         target=cfg.target)
            )
        out.append(Part(kind, text, after - before, args))
    return tuple(out)


def final_outcome(s: KamiState) -> Outcome:
    """Scores per seat are its side's total; the winning side ranks first, then by total."""
    cfg = s.cfg
    keys = [(int(cfg.side_of[seat] == s.winner), s.scores[cfg.side_of[seat]])
            for seat in range(cfg.players)]
    breakdown = []
    for seat in range(cfg.players):
        side = cfg.side_of[seat]
        rounds = [history_json(cfg, e) for e in s.history
                  if e[1] >= 0 and cfg.side_of[e[1]] == side and e[2] != "redeal"]
        breakdown.append({
            "side": side,
            "partners": [p for p in range(cfg.players) if cfg.side_of[p] == side],
            "rounds": rounds,
            "total": s.scores[side],
            "won": side == s.winner,
            "end_mode": cfg.end_mode,
            "target": cfg.target,
        })
    parts = [side_parts(cfg, s.history, side) for side in range(cfg.sides)]
    return Outcome(
        scores=tuple(k[1] for k in keys),
        ranks=ranks_from_keys(keys),
        breakdown=tuple(breakdown),
        tiebreaks=tuple((k[0],) for k in keys),
        teams=teams_of(cfg.side_of),
        parts=tuple(parts[side] for side in cfg.side_of),
        tiebreak=tuple(
            (TieBreak("won", WON, 1, {"target": cfg.target}) if k[0]
             else TieBreak("won", NOT_WON, 0),)
            for k in keys
        ),
    )


def scores_now(s: KamiState) -> tuple[tuple[int, ...], float]:
    """Each seat's score now (partners share their side's) and the scale the RL rewards
    measure it against (the target): the outcome's scores once the match is over
    (``GameEntry.rl_score``; ``ludoteca/rl/rewards.py``)."""
    cfg = s.cfg
    return tuple(s.scores[side] for side in cfg.side_of), float(cfg.target)
