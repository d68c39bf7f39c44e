"""Round scoring (A5.2-A5.3, B4-B5), the end modes (A8) and the final outcome."""

from __future__ import annotations

from ludoteca.engine.game import JSON, Outcome, ranks_from_keys
from ludoteca.games.kami.components import NAMES
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
    return Outcome(
        scores=tuple(k[1] for k in keys),
        ranks=ranks_from_keys(keys),
        breakdown=tuple(breakdown),
        tiebreaks=tuple((k[0],) for k in keys),
    )
