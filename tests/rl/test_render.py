"""Rendering (issue 26): PettingZoo's own ``render_test`` on every case, through the AEC env
and the Parallel env; pictures that change when the position does; and pictures that show only
what is public (a Kami position's picture does not change when the hands hidden from a seat
are re-dealt)."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import render_test
from pettingzoo.utils.conversions import parallel_to_aec

from ludoteca.engine.errors import OptionError
from ludoteca.engine.rng import Rng
from ludoteca.games import entry, get_game
from ludoteca.rl.pettingzoo import env, parallel_env
from ludoteca.rl.render import picture

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id

PICTURED = [c for c in CASES if entry(c[0]).rl_picture]
"""The cases of games with a picture (``rgb_array``); the others render text only."""


@pytest.fixture
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No display: ``human`` prints the text (as on this machine and in CI)."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_render_test(case: tuple[str, int, dict[str, Any]], headless: None) -> None:
    name, players, options = case
    render_test(lambda render_mode=None: env(name, render_mode, players=players, **options))
    render_test(lambda render_mode=None: parallel_to_aec(
        parallel_env(name, render_mode, players=players, **options)))


def play(aec: Any, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for agent in aec.agent_iter(steps):
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent


@pytest.mark.parametrize("case", PICTURED, ids=[case_id(c) for c in PICTURED])
def test_the_picture_changes_after_a_move_and_keeps_its_size(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    name, players, options = case
    aec = env(name, "rgb_array", players=players, **options)
    aec.reset(seed=11)
    before = aec.render()
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    changed = 0
    for step in range(30):
        play(aec, 1, seed=step)
        if not aec.agents:
            break
        after = aec.render()
        assert after.shape == before.shape  # one size for the whole match
        changed += not np.array_equal(after, before)
        before = after
    # Some moves change nothing public: a Buttons seat's answer stays hidden until every
    # deciding seat has answered, so its picture waits too.
    assert changed >= (10 if name == "buttons" else 20)


@pytest.mark.parametrize("name,players", [("kami", 2), ("kami", 3), ("kami", 4), ("goita", 4)])
def test_a_kami_picture_does_not_depend_on_hidden_hands(name: str, players: int) -> None:
    """Re-deal everything hidden from each seat (its view's ``determinize``): the picture of
    the re-dealt world is the same, though the hands differ."""
    game = get_game(name)
    rng = random.Random(3)
    redeal = Rng(3)
    state = game.setup({}, players, 3)
    checked = differ = 0
    while (seats := game.to_act(state)) and checked < 40:
        shown = picture(game, game.view(state, None))
        for seat in range(players):
            world = game.determinize(game.view(state, seat), seat, redeal)
            differ += world.hands != state.hands
            assert np.array_equal(picture(game, game.view(world, None)), shown)
        checked += 1
        seat = min(seats)
        game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked == 40 and differ > 20  # the hidden hands really were re-dealt


def test_human_prints_the_text_without_a_display(
    headless: None, capsys: pytest.CaptureFixture[str],
) -> None:
    aec = env("buttons", "human", players=2)
    aec.reset(seed=1)
    assert aec.render() is None
    printed = capsys.readouterr().out
    text = env("buttons", "ansi", players=2)
    text.reset(seed=1)
    assert printed.strip() == text.render().strip() != ""


def test_human_prints_the_text_when_no_window_can_open(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """A display is named, but none answers (nor is there a window toolkit here): matplotlib
    falls back to its file backend, and the text is printed, with no warning (pytest runs
    with warnings as errors)."""
    monkeypatch.setenv("DISPLAY", ":99")
    aec = env("kami", "human", players=2)
    aec.reset(seed=1)
    assert aec.render() is None
    text = env("kami", "ansi", players=2)
    text.reset(seed=1)
    assert capsys.readouterr().out.strip() == text.render().strip() != ""
    aec.close()


def test_render_modes() -> None:
    assert env("kami").metadata["render_modes"] == ["ansi", "rgb_array", "human"]
    assert env("kami").render() is None  # no render mode
    with pytest.raises(OptionError, match="render_mode"):
        env("kami", "rgb")


@pytest.mark.parametrize("case", PICTURED, ids=[case_id(c) for c in PICTURED])
def test_a_whole_match_renders_at_one_size(case: tuple[str, int, dict[str, Any]]) -> None:
    """Every phase draws, to the end (lines run out, dice leave the table, a deal ends)."""
    name, players, options = case
    aec = env(name, "rgb_array", players=players, **options)
    aec.reset(seed=0)
    rng = random.Random(0)
    shapes = set()
    for step, agent in enumerate(aec.agent_iter()):
        obs, _, terminated, truncated, _ = aec.last()
        if step % 5 == 0 or terminated or truncated:
            image = aec.render()
            assert image.dtype == np.uint8
            shapes.add(image.shape)
        aec.step(None if terminated or truncated
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent
    assert len(shapes) == 1 and aec.agents == []
