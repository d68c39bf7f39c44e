"""The match driver on the native core (issue 37: "through the Match driver at least 3x"):
``Match.play_policy`` plays the match whole inside the game (``Game.playout``), so on the
native core a match without a log is played there and read back into the Python state. The
same seed plays the same match on either core: the final view, outcome and generator agree,
the native side really played it, and with a log the actions kept replay to the same end."""

from __future__ import annotations

import json

import pytest
from native_core import require_native

from ludoteca.engine.match import Match
from ludoteca.engine.playout import GAME, RANDOM, Policy
from ludoteca.engine.rng import Rng
from ludoteca.games import entry, game_names, get_game

require_native("buttons")

NATIVE = [(name, players) for name in game_names() if entry(name).native is not None
          for players in sorted({get_game(name).spec.min_players, get_game(name).spec.max_players})]


def played(name: str, players: int, seed: int, policy: Policy, log: bool) -> tuple[Match, str]:
    """The match played out from seed ``seed``, and what its generator ended on."""
    match = Match.new(get_game(name), None, players, seed, narrate=False)
    rng = Rng(seed ^ 0x5EED)
    match.play_policy(policy, rng, log=log)
    return match, repr(rng.state)


def summary(match: Match, rng: str) -> str:
    outcome = match.outcome
    assert outcome is not None, "played to the end"
    return json.dumps([match.view(None), outcome.ranks, outcome.scores, rng], sort_keys=True,
                      default=str)


@pytest.mark.parametrize(("name", "players"), NATIVE, ids=[f"{n}-{p}p" for n, p in NATIVE])
@pytest.mark.parametrize("policy", [RANDOM, GAME], ids=["random", "game"])
def test_the_same_seed_plays_the_same_match_on_either_core(
        monkeypatch: pytest.MonkeyPatch, name: str, players: int, policy: Policy) -> None:
    for seed in range(3):
        monkeypatch.setenv("LUDOTECA_CORE", "python")
        python = played(name, players, seed, policy, log=False)
        monkeypatch.setenv("LUDOTECA_CORE", "native")
        native = played(name, players, seed, policy, log=False)
        assert summary(*native) == summary(*python), (name, players, seed)


def test_the_native_core_plays_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the Python engine's moves out of reach, the match still ends on the native core:
    the driver did not play it step by step in Python."""
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    game = get_game("kingdomino")

    def refused(*_: object) -> None:
        raise AssertionError("a Python step")

    match = Match.new(game, None, 4, 1, narrate=False)
    monkeypatch.setattr(type(game), "apply_legal", refused)
    match.play_policy(RANDOM, Rng(1), log=False)
    assert match.outcome is not None


@pytest.mark.parametrize("policy", [RANDOM, GAME], ids=["random", "game"])
def test_with_a_log_the_record_replays_to_the_same_end(monkeypatch: pytest.MonkeyPatch,
                                                       policy: Policy) -> None:
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    for name, players in NATIVE:
        logged, after = played(name, players, 5, policy, log=True)
        assert summary(logged, after) == summary(*played(name, players, 5, policy, log=False))
        replayed = Match.from_record(get_game(name), logged.record)
        assert replayed.outcome is not None and replayed.view(None) == logged.view(None), name
