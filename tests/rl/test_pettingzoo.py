"""The PettingZoo adapter's own promises (docs/rl.md): rewards, seeding, illegal actions,
Buttons' simultaneous answers, rendering, view-only encoding, and no numpy in ``ludoteca``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from ludoteca.engine.errors import IllegalAction, OptionError  # noqa: E402
from ludoteca.engine.game import Outcome  # noqa: E402
from ludoteca.engine.rng import Rng  # noqa: E402
from ludoteca.games import entry, game_names, get_game  # noqa: E402
from ludoteca.rl.encode import encoder, observation, observation_from_view  # noqa: E402
from ludoteca.rl.pettingzoo import LudotecaEnv, env, parallel_env  # noqa: E402
from ludoteca.rl.rewards import final_rewards  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES  # noqa: E402


def play(aec: LudotecaEnv, seed: int) -> dict[str, float]:
    """A random legal episode; each agent's total reward."""
    aec.reset(seed=seed)
    pick = random.Random(seed)
    total: dict[str, float] = {}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        total[agent] = total.get(agent, 0.0) + reward
        if terminated or truncated:
            aec.step(None)
            continue
        space = aec.observation_space(agent)
        assert space.contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(legal[pick.randrange(len(legal))]))
    return total


def test_rewards_rank_sides() -> None:
    def out(ranks: tuple[int, ...], teams: tuple[tuple[int, ...], ...] = ()) -> Outcome:
        return Outcome(scores=(0,) * len(ranks), ranks=ranks, teams=teams)

    assert final_rewards(out((1, 2))) == [1.0, -1.0]
    assert final_rewards(out((1, 1))) == [0.0, 0.0]
    assert final_rewards(out((2, 1, 3))) == [0.0, 1.0, -1.0]
    # partners (seats 0 and 2, 1 and 3: the outcome's teams) share their side's rank and reward
    assert final_rewards(out((2, 1, 2, 1), ((0, 2), (1, 3)))) == [-1.0, 1.0, -1.0, 1.0]


def test_partners_share_the_final_reward() -> None:
    total = play(env("kami", players=4), seed=3)
    assert total["player_0"] == total["player_2"] == -total["player_1"] == -total["player_3"]
    assert abs(total["player_0"]) == 1.0


@pytest.mark.parametrize("name", [n for n in game_names() if entry(n).rl_observation])
def test_an_episode_ends_with_the_outcome_rewards(name: str) -> None:
    players = get_game(name).spec.min_players
    aec = env(name, players=players)
    total = play(aec, seed=5)
    match = aec.table.match
    assert match is not None and match.is_over()
    outcome = match.outcome
    assert outcome is not None
    assert [total[a] for a in aec.possible_agents] == final_rewards(outcome)
    assert aec.agents == []


def test_reset_with_a_seed_is_the_engine_deal() -> None:
    a, b = env("kami", players=3), env("kami", players=3)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.table.match is not None and b.table.match is not None
    assert a.table.match.state == b.table.match.state
    assert a.table.match.state == get_game("kami").setup({}, 3, 11)
    assert np.array_equal(a.observe("player_0")["observation"],
                          b.observe("player_0")["observation"])
    b.reset(seed=12)
    assert not np.array_equal(a.observe("player_0")["observation"],
                              b.observe("player_0")["observation"])
    # unseeded resets continue from the last seed: reproducible too
    a.reset()
    b.reset(seed=11)
    b.reset()
    assert a.table.match.state == b.table.match.state


def test_an_illegal_action_loses_or_raises() -> None:
    aec = env("kami", players=4)
    aec.reset(seed=1)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    aec.step(bad)
    assert all(aec.terminations.values())
    seat = aec.table.seat_of[agent]
    partner = aec.table.agent_names[(seat + 2) % 4]
    assert aec.rewards[agent] == aec.rewards[partner] == -1.0
    assert sum(aec.rewards.values()) == -2.0
    assert aec.infos[agent] == {"illegal_action": bad}

    strict = env("kami", players=4, illegal="raise")
    strict.reset(seed=1)
    assert strict.table.match is not None
    before = strict.table.match.state.clone()
    with pytest.raises(IllegalAction):
        strict.step(bad)
    assert strict.table.match.state == before
    assert not any(strict.terminations.values())


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(OptionError):
        env("kami", players=7)
    with pytest.raises(OptionError):
        env("kingdomino", harmony="perhaps")
    with pytest.raises(OptionError):
        env("buttons", illegal="ignore")
    with pytest.raises(OptionError):
        env("buttons", render_mode="video")


def simultaneous_step(aec: LudotecaEnv) -> bool:
    """Play random legal moves until several Buttons seats must answer at once."""
    pick = random.Random(0)
    for _ in range(2000):
        match = aec.table.match
        assert match is not None
        if len(match.to_act()) > 1:
            return True
        obs = aec.observe(aec.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(legal[pick.randrange(len(legal))]))
    return False


def test_buttons_simultaneous_answers_take_turns_in_aec() -> None:
    aec = env("buttons", players=3)
    aec.reset(seed=2)
    assert simultaneous_step(aec)
    match = aec.table.match
    assert match is not None
    deciding = sorted(match.to_act())
    seq = match.seq
    shown = {s: aec.observe(aec.table.agent_names[s])["observation"].copy() for s in deciding}
    first = aec.agent_selection
    assert first == aec.table.agent_names[deciding[0]]
    aec.step(int(np.flatnonzero(aec.observe(first)["action_mask"])[0]))
    assert match.seq == seq + 1
    later = aec.agent_selection
    assert later == aec.table.agent_names[deciding[1]]
    # the others' observations do not change while one seat answers (it stays hidden)
    assert np.array_equal(aec.observe(later)["observation"], shown[deciding[1]])
    # and the later seat answers the decision it was shown, accepted by the match
    assert match.decision(deciding[1]) == seq
    aec.step(int(np.flatnonzero(aec.observe(later)["action_mask"])[0]))
    assert match.seq == seq + 2


def test_buttons_parallel_step_takes_every_answer_at_once() -> None:
    par = parallel_env("buttons", players=3)
    obs, _ = par.reset(seed=2)
    pick = random.Random(0)
    table = par.table
    for _ in range(2000):
        match = table.match
        assert match is not None
        deciding = sorted(match.to_act())
        actions = {}
        for agent in par.agents:
            legal = np.flatnonzero(obs[agent]["action_mask"])
            assert bool(len(legal)) == (table.seat_of[agent] in deciding)
            # seats not to act send anything: it is ignored
            actions[agent] = int(legal[pick.randrange(len(legal))]) if len(legal) else 0
        before = match.seq
        obs, _, terminations, _, infos = par.step(actions)
        assert not any(infos.values())
        assert match.seq == before + len(deciding)
        if len(deciding) > 1:
            return
        assert not any(terminations.values())
    pytest.fail("no simultaneous step in 2000 steps")


def test_ansi_render_draws_the_spectator_view() -> None:
    aec = env("kami", render_mode="ansi", players=2)
    aec.reset(seed=4)
    text = aec.render()
    assert isinstance(text, str) and "P1" in text and "P2" in text
    assert "Your hand" not in text  # the spectator's view: nobody's hand
    quiet = env("kami", players=2)
    quiet.reset(seed=4)
    assert quiet.render() is None
    par = parallel_env("buttons", render_mode="ansi")
    par.reset(seed=4)
    assert isinstance(par.render(), str)


@pytest.mark.parametrize("name", [n for n in game_names() if entry(n).rl_observation])
def test_the_same_vector_from_a_view_alone(name: str) -> None:
    game = get_game(name)
    players = game.spec.min_players
    state = game.setup({}, players, 9)
    pick = random.Random(9)
    for _ in range(25):
        seats = sorted(game.to_act(state))
        if not seats:  # a short game (Nim) may end first
            break
        legal = game.legal_actions(state, seats[0])
        game.apply(state, seats[0], legal[pick.randrange(len(legal))])
    enc = encoder(game, {}, players)
    for seat in range(players):
        view = json.loads(json.dumps(game.view(state, seat)))
        vec = enc.encode(state, seat)
        assert vec.dtype == np.float32 and vec.shape == enc.shape
        assert vec.min() >= 0.0 and vec.max() <= 1.0
        assert np.array_equal(observation(game, state, seat), vec)
        assert np.array_equal(observation_from_view(game, view, seat), vec)
        assert np.array_equal(enc.encode(game.determinize(view, seat, Rng(seat)), seat), vec)


def test_layouts_cover_the_vector() -> None:
    for name, players, options in CASES:  # every game with an encoder (tests/rl/cases.py)
        layout = encoder(name, options, players).layout
        assert layout.fields[0].start == 0
        for a, b in zip(layout.fields, layout.fields[1:], strict=False):
            assert a.stop == b.start
        assert layout.fields[-1].stop == layout.size
        assert "| total |" in layout.markdown()


def test_ludoteca_imports_no_numpy_without_the_rl_package() -> None:
    code = (
        "import sys\n"
        "import ludoteca.cli, ludoteca.terminal.session\n"
        "from ludoteca.games import all_games, registry\n"
        "all_games()\n"
        "bad = [m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def check_obs_space(aec: LudotecaEnv) -> dict[str, Any]:
    space = aec.observation_space("player_0")
    return {"obs": space["observation"].shape, "mask": space["action_mask"].shape}


def test_spaces_are_fixed_per_game_players_and_options() -> None:
    small = check_obs_space(env("kingdomino", players=2))
    duel = check_obs_space(env("kingdomino", players=2, mighty_duel=True))
    assert small["mask"] == duel["mask"] == (777,)
    assert small["obs"] != duel["obs"]


@pytest.mark.parametrize("name", [
    n for n in game_names() if entry(n).rl_observation
    and get_game(n).spec.min_players <= 3 <= get_game(n).spec.max_players])
def test_the_trusted_path_keeps_the_match_as_step_does(name: str) -> None:
    """Applying after the mask check (default) or through ``Match.step`` (``checked=True``)
    plays the same episode, and its record replays with every check."""
    from ludoteca.engine.match import Match

    trusted, checked = env(name, players=3), env(name, players=3, checked=True)
    play(trusted, seed=8)
    play(checked, seed=8)
    a, b = trusted.table.match, checked.table.match
    assert a is not None and b is not None
    assert a.record.actions == b.record.actions and a.state == b.state
    replayed = Match.from_record(get_game(name), a.record, narrate=False)
    assert replayed.state == a.state


def test_a_game_without_an_encoder_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registry entry that names no ``rl_observation`` (here the test suite's Nim, its rules
    alone) has no environment, and says why."""
    from pathlib import Path

    import ludoteca.games as games
    from ludoteca.engine.registry import GameEntry, Registry

    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "fifth_game"))
    bare = Registry([GameEntry(name="nim", game="nim.rules:GAME")])
    monkeypatch.setattr(games, "registry", lambda: bare)
    try:
        with pytest.raises(OptionError, match="no RL observation encoder"):
            env("nim", players=2)
    finally:
        for module in ("nim", "nim.rules"):
            sys.modules.pop(module, None)


def test_actions_are_integers_numpy_or_not() -> None:
    aec = env("buttons", players=2)
    aec.reset(seed=3)
    agent = aec.agent_selection
    legal = np.flatnonzero(aec.observe(agent)["action_mask"])
    aec.step(np.int64(legal[0]))  # a numpy integer is an index like any other
    assert not any(aec.terminations.values())
    aec.reset(seed=3)
    aec.step(float(legal[0]))  # a float is not an action index: illegal
    assert aec.rewards[agent] == -1.0 and all(aec.terminations.values())
