"""Royal Wedding at full tables: 7-8 players alone (rules/queendomino.md §7.5, ruling 17) and
teams of 2 at 6 or 8 players (§7.6, §8.10-8.16): setup, shared kingdoms and treasuries, the
Queen and the Dragon per team, the outcome, options, events, views and whole random games."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.events import for_viewer
from ludoteca.engine.game import ranks_from_keys
from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.grid import DELTA, OCC
from ludoteca.games.queendomino.actions import Build, Dragon, Knight, Place
from ludoteca.games.queendomino.components import QUEENDOMINO_BOX, START_COINS, START_KNIGHTS
from ludoteca.games.queendomino.rules import GAME, build_price, final_outcome, gain_towers
from ludoteca.games.queendomino.state import DRAFT, OVER, TAX, QueendominoState

game = GAME
TEAMS = {"teams": True}
NEW_MODES: list[tuple[int, dict[str, Any]]] = [(7, {}), (8, {}), (6, TEAMS), (8, TEAMS)]
MODE_IDS = ["7p", "8p", "6p-teams", "8p-teams"]


def partner_of(s: QueendominoState, seat: int) -> int:
    (other,) = [p for p in s.cfg.partners(s.cfg.side_of[seat]) if p != seat]
    return other


def random_game(players: int, options: dict[str, Any], seed: int):
    """(before, seat, action, after, events) for every action of one random game."""
    s = game.setup(options, players, seed)
    rng = Rng(seed)
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        action = legal[rng.below(len(legal))]
        before = game.clone(s)
        game.apply(s, seat, action)
        yield before, seat, action, s, game.narrate(before, seat, action, s)


# ---- setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [7, 8])
def test_seven_and_eight_players_alone(q, players: int) -> None:
    """rules/queendomino.md §7.5 and ruling 17: 5×5 kingdoms, lines of 8 from both boxes
    alternating (Queendomino first), 12 rounds, 7 coins and 1 knight each, Royal Wedding on by
    default; with 7 players the unclaimed domino of each line is discarded, with 8 none is."""
    s = game.setup({}, players, 3)
    cfg = s.cfg
    assert cfg.royal_wedding and not cfg.teams
    assert (cfg.frame, cfg.line_size, cfg.rounds, cfg.sides) == (5, 8, 12, players)
    assert cfg.side_of == tuple(range(players))
    assert sorted(s.deck) == list(range(1, 97))
    for i in range(12):
        assert all((n <= QUEENDOMINO_BOX) == (i % 2 == 0) for n in s.deck[8 * i : 8 * i + 8])
    assert len(s.kingdoms) == players and s.coins == [START_COINS] * players
    assert s.knights == [START_KNIGHTS] * players
    assert sorted(s.draft_order) == list(range(players))
    with pytest.raises(OptionError, match=f"{players} players need both boxes"):
        game.validate({"royal_wedding": False}, players)
    s = q.started(players, seed=2)
    assert sorted(o for o in s.cur_owner if o >= 0) == list(range(players))
    assert len(s.discarded) == 8 - players  # the first line's leftovers
    q.finish_round(s)
    assert len(s.discarded) == 2 * (8 - players)  # and the second's


@pytest.mark.parametrize("players", [6, 8])
def test_team_setup(players: int) -> None:
    """rules/queendomino.md §7.6 and ruling 10: partners are seats s and s + n/2 (Kami's
    convention); one 7×7 kingdom, 7 coins and 1 knight per team; lines of 8, 12 rounds, both
    boxes; every player keeps their own king (n kings in the first draft, one per seat)."""
    s = game.setup(TEAMS, players, 5)
    cfg = s.cfg
    half = players // 2
    assert cfg.teams and cfg.royal_wedding and cfg.sides == half
    assert cfg.side_of == tuple(seat % half for seat in range(players))
    assert [cfg.partners(side) for side in range(half)] == [[t, t + half] for t in range(half)]
    assert (cfg.frame, cfg.line_size, cfg.rounds, cfg.kings_per_player) == (7, 8, 12, 1)
    assert len(s.kingdoms) == half and len(s.placed) == half
    assert s.coins == [START_COINS] * half and s.knights == [START_KNIGHTS] * half
    assert s.towers == [0] * half and s.queen == -1
    assert sorted(s.draft_order) == list(range(players)) and len(s.deck) == 96
    v = game.view(s, 0)
    assert v["sides"] == list(cfg.side_of) and len(v["kingdoms"]) == half
    assert v["frame"] == 7 and v["options"]["teams"] is True
    assert game.spec.teams and game.spec.max_players == 8


# ---- options --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "players", "words"),
    [
        ({"teams": True}, 7, "team play is for 6 or 8 players in teams of 2, not 7"),
        ({"teams": True}, 4, "team play is for 6 or 8 players in teams of 2, not 4"),
        ({"teams": "yes", "royal_wedding": True}, 5, "not 5"),
        ({"teams": True, "royal_wedding": False}, 6, "team play is a Royal Wedding variant"),
        ({"teams": True, "royal_wedding": "no"}, 8, "team play is a Royal Wedding variant"),
        ({"teams": "maybe"}, 6, "takes true or false"),
        ({"royal_wedding": False}, 7, "7 players need both boxes"),
        ({}, 9, "2-8 players"),
    ],
)
def test_option_errors(options: dict[str, Any], players: int, words: str) -> None:
    """rules/queendomino.md §7.6 and ruling 10: team play needs Royal Wedding and 6 or 8
    players; every refusal says why."""
    with pytest.raises(OptionError) as err:
        game.setup(options, players, 1)
    assert words in str(err.value)


def test_team_option_values() -> None:
    """Ruling 10: ``teams`` turns Royal Wedding on at 6 and 8 and shows in the validated options;
    left off it is not in them, so individual matches keep their options and records."""
    assert game.validate({"teams": "true"}, 6) == {
        "royal_wedding": True, "tax_bonus": "per_knight", "buildings": "inferred", "teams": True}
    assert game.validate({"teams": True, "royal_wedding": True}, 8)["teams"] is True
    assert "teams" not in game.validate({}, 6) and "teams" not in game.validate({}, 2)
    assert "teams" not in game.validate({"teams": False}, 4)
    assert game.validate(game.validate(TEAMS, 6), 6) == game.validate(TEAMS, 6)


# ---- shared kingdom, own kings --------------------------------------------------------------
def test_partners_place_into_one_kingdom_with_their_own_kings(q) -> None:
    """rules/queendomino.md §7.6 and ruling 15: each player has a king on the line and takes a
    full turn with it; both partners place their dominoes in the team's one kingdom, whose
    squares the partner's legal placements already see as taken."""
    s = q.started(6, seed=1, **TEAMS)
    assert sorted(o for o in s.cur_owner if o >= 0) == list(range(6))
    seat = q.seat_of(s)
    side, partner = s.cfg.side_of[seat], partner_of(s, seat)
    q.set_domino(s, 46)  # town-town
    game.apply(s, seat, Place(1, 0, "E"))
    q.end_turn(s)
    while q.seat_of(s) != partner:
        q.end_turn(s)
    q.set_domino(s, 47)
    taken = s.kingdoms[side][OCC]
    places = [a for a in game.legal_actions(s, partner) if isinstance(a, Place)]
    assert places and all(
        not taken >> a.cell & 1 and not taken >> (a.cell + DELTA[a.d]) & 1 for a in places)
    game.apply(s, partner, Place(0, 1, "E"))
    assert [n for n, _, _ in s.placed[side]] == [46, 47]
    assert game.view(s, seat)["kingdoms"][side] == game.view(s, partner)["kingdoms"][side]


def test_team_treasury_and_knights(q) -> None:
    """Rulings 11 and 12: the tax goes into the team's treasury, the partner spends it on their
    own turn, and knights a building brings are the team's, usable on the partner's turn
    later in the same round."""
    s = q.started(6, seed=1, **TEAMS)
    seat = q.seat_of(s)
    side, partner = s.cfg.side_of[seat], partner_of(s, seat)
    q.set_domino(s, 46)
    game.apply(s, seat, Place(1, 0, "E"))
    game.apply(s, seat, Knight(1, 0))  # town territory of 2 squares
    assert s.coins[side] == START_COINS + 2 and s.knights[side] == 0
    s.board[3] = 20  # Small Tavern: 2 knights
    game.apply(s, seat, Build(3, 2, 0))
    assert s.coins[side] == START_COINS + 2 - 3 and s.knights[side] == 2
    assert all(c == START_COINS for i, c in enumerate(s.coins) if i != side)
    q.end_turn(s)
    while q.seat_of(s) != partner:
        q.end_turn(s)
    q.set_domino(s, 47)
    game.apply(s, partner, Place(0, 1, "E"))
    assert Knight(0, 1) in game.legal_actions(s, partner)
    game.apply(s, partner, Knight(0, 1))  # the town is now 4 squares
    assert s.coins[side] == 6 + 4 and s.knights[side] == 1
    assert bin(s.knight_cells[side]).count("1") == 2
    v = game.view(s, partner)["kingdoms"][side]
    assert v["coins"] == 10 and v["knights"] == 1 and len(v["buildings"]) == 1


def test_knights_are_the_teams_to_lack(q) -> None:
    """Ruling 11: with the team's one knight used by a partner, the other has none to place."""
    s = q.started(6, seed=1, **TEAMS)
    seat = q.seat_of(s)
    side, partner = s.cfg.side_of[seat], partner_of(s, seat)
    q.set_domino(s, 46)
    game.apply(s, seat, Place(1, 0, "E"))
    game.apply(s, seat, Knight(1, 0))
    q.end_turn(s)
    while q.seat_of(s) != partner:
        q.end_turn(s)
    q.set_domino(s, 47)
    game.apply(s, partner, Place(0, 1, "E"))
    assert s.step == TAX and not any(
        isinstance(a, Knight) for a in game.legal_actions(s, partner))
    with pytest.raises(IllegalAction, match="no unplaced knight"):
        game.apply(s, partner, Knight(0, 1))
    assert s.knights[side] == 0


def test_queen_and_dragon_per_team(q) -> None:
    """Rulings 13 and 14: team towers race for the Queen, the hosting team's partners both build
    for 1 less, and neither may use the Dragon."""
    s = q.started(6, seed=1, **TEAMS)  # teams: 0+3, 1+4, 2+5
    gain_towers(s, 0, 1)
    assert s.queen == 0
    gain_towers(s, 4, 1)  # ties team 0: team 1 takes her
    assert s.queen == 1
    gain_towers(s, 1, 1)  # the partner adds to the same team total
    assert s.towers == [1, 2, 0] and s.queen == 1
    gain_towers(s, 2, 1)
    assert s.queen == 1
    assert [build_price(s, p, 3) for p in range(6)] == [3, 2, 3, 3, 2, 3]
    seat = q.seat_of(s)
    game.apply(s, seat, game.legal_actions(s, seat)[0])
    s.queen = s.cfg.side_of[seat]
    assert not any(isinstance(a, Dragon) for a in game.legal_actions(s, seat))
    with pytest.raises(IllegalAction, match="your team hosts the Queen"):
        game.apply(s, seat, Dragon(5))
    s.queen = (s.cfg.side_of[seat] + 1) % 3
    assert Dragon(5) in game.legal_actions(s, seat)


def test_build_bringing_the_queen_tells_the_team(q) -> None:
    """Ruling 13 and docs/queendomino.md Events: the Queen moving to a team is a
    ``team_queen`` event naming who built and both teams, in English and Spanish."""
    s = q.started(6, seed=1, **TEAMS)
    seat = q.seat_of(s)
    side, partner = s.cfg.side_of[seat], partner_of(s, seat)
    gain_towers(s, (seat + 1) % 3, 1)  # another team hosts her first
    before_side = s.queen
    q.set_domino(s, 46)
    game.apply(s, seat, Place(1, 0, "E"))
    s.board[3] = 18  # Guardtower: 2 towers
    before = game.clone(s)
    game.apply(s, seat, Build(3, 2, 0))
    build, queen = for_viewer(game.narrate(before, seat, Build(3, 2, 0), s), None)
    assert build["type"] == "build" and build["cost"] == 3
    assert queen == {"type": "team_queen", "seat": seat, "team": sorted([seat, partner]),
                     "previous": s.cfg.partners(before_side), "towers": 2}
    assert s.queen == side
    names = [f"N{p}" for p in range(6)]
    a, b = sorted([seat, partner])
    p1, p2 = s.cfg.partners(before_side)
    assert game.render_event(queen, game.voice("en", names)) == (
        f"The Queen leaves the kingdom of N{p1} and N{p2} for that of N{a} and N{b} "
        "(2 towers).")
    assert game.render_event(queen, game.voice("es", names)) == (
        f"La Reina deja el reino de N{p1} y N{p2} por el de N{a} y N{b} (2 torres).")


# ---- outcome --------------------------------------------------------------------------------
def test_team_outcome_ranks_like_kami(q, kingdom) -> None:
    """Ruling 16 and rules/queendomino.md §6.4: a team kingdom is scored once; both partners get
    its total; teams rank by total, then largest territory, with competition ranks over seats as
    Kami ranks its teams; each breakdown names its side and partners."""
    s = q.started(6, seed=1, **TEAMS)
    s.kingdoms = [kingdom("C w w w"), kingdom("C w"), kingdom("C w w")]
    s.coins = [7, 7, 7]  # 2 points each, no crowns: all tied at 2
    out = final_outcome(s)
    assert out.scores == (2,) * 6
    assert out.tiebreaks == ((3,), (1,), (2,), (3,), (1,), (2,))
    assert out.ranks == (1, 5, 3, 1, 5, 3) == ranks_from_keys([(2, 3), (2, 1), (2, 2)] * 2)
    assert out.winners == (0, 3)
    assert [b["partners"] for b in out.breakdown] == [[0, 3], [1, 4], [2, 5]] * 2
    assert [b["side"] for b in out.breakdown] == [0, 1, 2, 0, 1, 2]
    s.kingdoms[1] = kingdom("C w w w")  # teams 0 and 1 now share first place
    out = final_outcome(s)
    assert out.ranks == (1, 1, 5, 1, 1, 5) and out.winners == (0, 1, 3, 4)
    s.coins = [7, 10, 7]
    assert final_outcome(s).ranks == (3, 1, 5, 3, 1, 5)


def test_team_game_over_sentences() -> None:
    """Ruling 16: the end names the winning team, or the tied teams."""
    names = ["Ana", "Bea", "Carlos", "Dani", "Eva", "Fran"]
    sides = [0, 1, 2, 0, 1, 2]
    won = {"type": "game_over", "scores": [9, 5, 4, 9, 5, 4], "ranks": [1, 3, 5, 1, 3, 5],
           "winners": [0, 3], "sides": sides}
    tie = {**won, "scores": [9, 9, 4] * 2, "ranks": [1, 1, 5] * 2, "winners": [0, 1, 3, 4]}
    en, es = game.voice("en", names), game.voice("es", names)
    assert game.render_event(won, en) == "Ana and Dani win with 9 points."
    assert game.render_event(won, es) == "Ana y Dani ganan con 9 puntos."
    assert game.render_event(tie, en) == (
        "Tie for the victory with 9 points: the team of Ana and Dani and the team of Bea and Eva.")
    assert game.render_event(tie, es) == (
        "Empate a 9 puntos por la victoria: el equipo de Ana y Dani y el equipo de Bea y Eva.")
    teams = game.opening(game.setup(TEAMS, 6, 1))
    assert teams[0].public == {"type": "teams", "teams": [[0, 3], [1, 4], [2, 5]]}
    assert [e.public["type"] for e in teams[1:] if e.public] == ["start", "line", "board"]
    assert game.render_event(teams[0].public, es) == (
        "Equipos: Ana y Dani; Bea y Eva; Carlos y Fran.")
    alone = game.opening(game.setup({"royal_wedding": True}, 6, 1))
    assert "teams" not in [e.public["type"] for e in alone if e.public]


# ---- events in the new modes ----------------------------------------------------------------
@pytest.mark.parametrize(("players", "options"), NEW_MODES, ids=MODE_IDS)
def test_events_render_and_match_the_outcome(players: int, options: dict[str, Any]) -> None:
    """docs/queendomino.md Events: every event of a whole game in each new mode is JSON, the same
    for every viewer, one sentence in English and Spanish with no Spanish missing; the final
    scores (one per team in team play) agree with the outcome."""
    en, es = game.voice("en"), game.voice("es", [f"J{p}" for p in range(players)])
    es.catalog.missing.clear()
    told: list[dict[str, Any]] = []
    final = None
    for _, _, _, after, events in random_game(players, options, 11):
        assert all(e.private is None for e in events)
        for data in for_viewer(events, None):
            assert json.loads(json.dumps(data)) == data and next(iter(data)) == "type"
            for voice in (en, es):
                text = game.render_event(data, voice)
                assert text and "{" not in text and "\n" not in text
            told.append(data)
        final = after
    assert not es.catalog.missing
    assert final is not None
    out = final_outcome(final)
    teams = bool(options.get("teams"))
    scores = [e for e in told if e["type"] == ("team_score" if teams else "score")]
    assert not [e for e in told if e["type"] == ("score" if teams else "team_score")]
    assert len(scores) == final.cfg.sides
    for e in scores:
        first = e["team"][0] if teams else e["seat"]
        assert e["total"] == out.scores[first] == e["territories"] + e["buildings"] + e["wealth"]
    last = told[-1]
    assert last["type"] == "game_over" and last["winners"] == list(out.winners)
    assert ("sides" in last) == teams


@pytest.mark.parametrize(("players", "options"), NEW_MODES[1:], ids=MODE_IDS[1:])
def test_events_name_only_what_the_views_show(players: int, options: dict[str, Any]) -> None:
    """DESIGN.md §2 per-viewer rule in the new modes: each domino id an event names is in the
    viewer's view before or after the action, and a differently shuffled future (both piles
    and the RNG) changes no event."""
    rng = Rng(3)
    for before, seat, action, after, events in random_game(players, options, 2):
        other = before.clone()
        tail = before.deck[after.deck_pos :]
        queen = [n for n in tail if n <= QUEENDOMINO_BOX]
        king = [n for n in tail if n > QUEENDOMINO_BOX]
        rng.shuffle(queen)
        rng.shuffle(king)
        other.deck = before.deck[: after.deck_pos] + [
            queen.pop() if n <= QUEENDOMINO_BOX else king.pop() for n in tail]
        pile = before.pile[after.pile_pos :]
        rng.shuffle(pile)
        other.pile = before.pile[: after.pile_pos] + pile
        other.rng = Rng(rng.next64())
        other_after = other.clone()
        game.apply(other_after, seat, action)
        again = game.narrate(other, seat, action, other_after)
        assert for_viewer(again, None) == for_viewer(events, None)
        mine = for_viewer(events, seat)
        shown = json.dumps([game.view(before, seat), game.view(after, seat)])
        for data in mine:
            if "domino" in data:
                assert f'"id": {data["domino"]},' in shown


# ---- whole random games ---------------------------------------------------------------------
@st.composite
def new_modes(draw: st.DrawFn) -> tuple[int, dict[str, Any], int]:
    players, options = draw(st.sampled_from(NEW_MODES))
    options = {**options, "tax_bonus": draw(st.sampled_from(["per_knight", "per_turn"])),
               "buildings": draw(st.sampled_from(["inferred", "verified"]))}
    return players, options, draw(st.integers(0, 2**40))


@settings(max_examples=examples(15), deadline=None)
@given(setup=new_modes())
def test_new_modes_replay_from_a_record(setup: tuple[int, dict[str, Any], int]) -> None:
    """rules/queendomino.md §7.5-7.6 and DESIGN.md §2: a whole random game in each new mode ends
    after 12 rounds, and its JSON record replays to the same final state and outcome; partners
    share score and rank (ruling 16)."""
    players, options, seed = setup
    match = Match.new(game, options, players, seed, narrate=False)
    rng = Rng(seed)
    while not game.is_over(match.state):
        (seat,) = game.to_act(match.state)
        legal = game.legal_actions(match.state, seat)
        match.step(seat, legal[rng.below(len(legal))])
    record = MatchRecord.from_json(json.loads(json.dumps(match.record.to_json())))
    final = replay(game, record)
    assert final == match.state and final.phase == OVER and final.round == 12
    out = match.outcome
    assert out is not None and game.outcome(final) == out and min(out.ranks) == 1
    cfg = final.cfg
    for seat in range(players):
        mate = cfg.partners(cfg.side_of[seat])
        assert {out.scores[p] for p in mate} == {out.scores[seat]}
        assert {out.ranks[p] for p in mate} == {out.ranks[seat]}
    squares = cfg.frame * cfg.frame - 1
    for side in range(cfg.sides):
        assert 2 * len(final.placed[side]) <= squares


@settings(max_examples=examples(10), deadline=None)
@given(setup=new_modes(), data=st.data())
def test_new_modes_views_and_determinizer(setup: tuple[int, dict[str, Any], int],
                                          data: st.DataObject) -> None:
    """Engine contract in the new modes: views hide both piles' order, determinize(view)
    rebuilds a state with the same view and legal actions, and the prepared ``determinizer``
    draws exactly what ``determinize`` draws, for every seat and the spectator."""
    players, options, seed = setup
    s = game.setup(options, players, seed)
    rng = Rng(seed)
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        if s.phase != DRAFT and data.draw(st.integers(0, 40)) == 0:
            other = s.clone()
            other.deck = s.deck[: s.deck_pos] + s.deck[s.deck_pos :][::-1]
            other.pile = s.pile[: s.pile_pos] + s.pile[s.pile_pos :][::-1]
            viewer = data.draw(st.sampled_from([None, *range(players)]))
            v = json.loads(json.dumps(game.view(s, viewer)))
            assert game.view(other, viewer) == v
            rebuilt = game.determinize(v, viewer, Rng(seed))
            assert game.view(rebuilt, viewer) == v
            if viewer == seat:
                assert game.legal_actions(rebuilt, seat) == game.legal_actions(s, seat)
            sample = game.determinizer(v, viewer)
            r1, r2 = Rng(seed ^ 5), Rng(seed ^ 5)
            for _ in range(2):
                fast, slow = sample(r1), game.determinize(v, viewer, r2)
                assert fast == slow and r1.state == r2.state
        legal = game.legal_actions(s, seat)
        game.apply(s, seat, legal[rng.below(len(legal))])
