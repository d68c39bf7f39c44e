"""Kami and Goita events (ludoteca/games/kami/events.py): every move narrated, each viewer told
no more than its view allows, every sentence in English and Spanish."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from kami_helpers import PASS, play, position

from ludoteca.engine.events import Event, for_viewer
from ludoteca.engine.i18n import ENGINE_LOCALE, Catalog, Voice
from ludoteca.engine.rng import Rng
from ludoteca.games.kami import events as events_module
from ludoteca.games.kami.components import NAMES, SOLDIER
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME
from ludoteca.games.kami.state import DECIDE, DECLARE, OVER, PLAY, KamiState

PRIVATE_FIELDS = {"defense", "hand", "card"}
"""The only fields an owner's form of an event may add to the public one."""


def narrated(game: Any, players: int, seed: int, options: dict[str, Any] | None = None,
             limit: int = 100_000) -> Iterator[tuple[KamiState, int, Any, KamiState, list[Event]]]:
    """(before, seat, action, after, events) for each move of a random game, narrated as the
    match driver does it."""
    rng = Rng(seed)
    s = game.setup(options, players, seed=seed)
    for _ in range(limit):
        if game.is_over(s):
            return
        seat = next(iter(game.to_act(s)))
        acts = game.legal_actions(s, seat)
        action = acts[rng.below(len(acts))]
        before = game.clone(s)
        game.apply(s, seat, action)
        yield before, seat, action, s, game.narrate(before, seat, action, s)


def check_events(game: Any, before: KamiState, seat: int, after: KamiState,
                 events: list[Event]) -> None:
    """DESIGN.md §2: each viewer's events say no more than its views before and after allow.

    A hidden value (a lead's face-down card, a dealt hand, a looked-at card) is named only in
    its owner's form, and matches what that owner's view shows; public card fields match the
    public parts of the views (lines, mercenary tops, history, revealed Soldiers)."""
    n = after.cfg.players
    ended = len(after.history) > len(before.history)
    for e in events:
        assert e.public is None or next(iter(e.public)) == "type"
        for owner, form in (e.private or {}).items():
            assert e.public is not None and form["type"] == e.public["type"]
            extra = {k for k in form if form[k] != e.public.get(k)}
            assert extra <= PRIVATE_FIELDS, extra
            assert owner == form.get("seat", owner) or form["type"] == "deal"
    for viewer in (None, *range(n)):
        got = for_viewer(events, viewer)
        assert json.loads(json.dumps(got)) == got
        vb, va = game.view(before, viewer), game.view(after, viewer)
        deals = [i for i, e in enumerate(got) if e["type"] == "deal"]
        for i, e in enumerate(got):
            kind = e["type"]
            if kind == "lead":
                if e["defense_stack"] is None and not e["no_defense"]:  # A4.1: face down
                    if viewer == e["seat"]:
                        assert e["defense"] in vb["hand"]
                    else:
                        assert e["defense"] is None
                if not ended:
                    shown = va["defense"][e["seat"]][-1]["card"] if not e["no_defense"] else None
                    assert e["defense"] == shown
                    assert va["attack_lines"][e["seat"]][-1]["card"] == e["attack"]
            elif kind == "counter" and not ended:
                assert va["defense"][e["seat"]][-1] == {
                    "card": e["defense"], "face_up": True,
                    "mercenary": e["defense_stack"] is not None}
                assert va["attack_lines"][e["seat"]][-1]["card"] == e["attack"]
                assert vb["attack"] == e["against"]
            elif kind == "deal":
                last = i == deals[-1]
                assert ("hand" in e) == (viewer is not None and last)
                if last:  # A3: the deal now on the table
                    assert (e["round"], e["first"]) == (va["round"], va["first"])
                    if "hand" in e:
                        assert e["hand"] == va["hand"]
            elif kind == "look":  # A3: only the seat that looked sees the card
                assert e["card"] == (va["looked"] if viewer == e["seat"] else None)
            elif kind == "mercenary_turned":
                assert va["mercenaries"][e["stack"]]["top"] == e["card"]
            elif kind == "mercenaries":
                assert e["tops"] == [m["top"] for m in va["mercenaries"]]
            elif kind == "unlocked":
                assert va["empress_unlocked"] and not vb["empress_unlocked"]
            elif kind in ("score", "out"):  # A5, B4-B5: public in the round history
                entry = next(h for h in reversed(va["history"])
                             if h["round"] == e.get("round", h["round"])
                             and h["seat"] == e["seat"] and h["card"] == e["card"]
                             and h["kind"] != "redeal")
                if kind == "score":
                    assert (entry["points"], entry["after"]) == (e["points"], e["after"])
                else:
                    assert entry["master_strike"] == e["master_strike"]
            elif kind == "reveal":
                assert va["revealed"][e["seat"]] == e["soldiers"] >= 5
            elif kind == "game_over":
                result = game.outcome(after)
                assert e["winners"] == list(result.winners) and va["phase"] == "over"


CASES = [(GAME, 2, {"end_mode": "soldier"}), (GAME, 2, {"end_mode": "lord"}),
         (GAME, 3, {"end_mode": "kami"}), (GAME, 3, {}), (GAME, 4, {}),
         (GAME, 4, {"demoralized": False, "end_mode": "lord"}), (GOITA, 4, {}),
         (GOITA, 4, {"target": 100})]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), case=st.sampled_from(CASES))
@example(seed=32624, case=CASES[-1])  # B5: seven Shi end the game right after a deal
@example(seed=1051638, case=CASES[6])  # B5: both partners' five Shi end the game after a deal
def test_events_never_say_more_than_the_views(seed: int, case: Any) -> None:
    """DESIGN.md §2, rules/kami.md A3, A4.1, A5.4, A6, B5: random whole games at every player
    count and main option; every action is narrated and each viewer's events are checked
    against that viewer's views."""
    game, players, options = case
    for before, seat, action, after, events in narrated(game, players, seed, options):
        assert events, action
        check_events(game, before, seat, after, events)


def render_all(game: Any, events: list[Event], players: int, voice: Voice) -> list[str]:
    return [game.render_event(d, voice) for viewer in (None, *range(players))
            for d in for_viewer(events, viewer)]


def spanish(game: Any) -> Voice:
    """A Spanish voice with a catalog of its own, so ``missing`` is this test's alone."""
    return Voice("es", (), catalog_=Catalog("es", (ENGINE_LOCALE, game.locale)))


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_every_event_renders_in_english_and_spanish(game: Any, players: int,
                                                    options: dict[str, Any]) -> None:
    """Every event of whole games renders to one sentence in both languages, and the Spanish
    catalog has every message asked for."""
    es, en = spanish(game), game.voice("en", ["Ana", "Bea", "Carla", "Dani"][:players])
    for seed in range(3):
        for _, _, _, _, events in narrated(game, players, seed, options):
            for text in render_all(game, events, players, en) + render_all(game, events,
                                                                           players, es):
                assert text and "{" not in text and "\n" not in text, text
    assert es.catalog.missing == set()


def test_spanish_catalog_covers_every_message() -> None:
    """Every message events.py can ask for, its card words in components.py included (found as
    ``pybabel extract -k t -k nt:1,2 -k N_`` finds them), has a Spanish translation with the
    same fields."""
    path = Path(events_module.__file__)
    catalog = Catalog("es", (ENGINE_LOCALE, GAME.locale))
    found = [
        m for source in (path, path.with_name("components.py"))
        for m in extract_from_file("python", str(source), keywords={"t": None, "nt": (1, 2),
                                                                     "N_": None})
    ]
    assert len(found) > 60
    for _, message, _, _ in found:
        msgid = message[0] if isinstance(message, tuple) else message
        text = catalog.messages.get(msgid)
        assert text, msgid
        for form in (text,) if isinstance(text, str) else text:
            fields = {f.split("}")[0] for f in msgid.split("{")[1:]}
            assert {f.split("}")[0] for f in form.split("{")[1:]} == fields, msgid


def forms(events: list[Event], kind: str, viewer: int | None) -> list[dict[str, Any]]:
    return [e for e in for_viewer(events, viewer) if e["type"] == kind]


def narrate(game: Any, s: KamiState, seat: int, data: dict[str, Any]) -> list[Event]:
    before = game.clone(s)
    action = game.action_from_json(data)
    game.apply(s, seat, action)
    events = game.narrate(before, seat, action, s)
    check_events(game, before, seat, s, events)
    return events


def test_a_face_down_lead_is_named_only_to_its_owner() -> None:
    """rules/kami.md A4.1: the lead's defense card is face down; its attack is public."""
    s = position(hands={0: "gold silver soldier soldier"})
    events = narrate(GAME, s, 0, play("gold", "silver"))
    assert forms(events, "lead", 0)[0]["defense"] == "gold"
    for viewer in (None, 1, 2, 3):
        (lead,) = forms(events, "lead", viewer)
        assert lead["defense"] is None and lead["attack"] == "silver"
    en = GAME.voice("en")
    assert GAME.render_event(forms(events, "lead", 1)[0], en) == \
        "P1 leads a face-down card and attacks with the Silver Dragon."
    assert GAME.render_event(forms(events, "lead", 0)[0], spanish(GAME)) == \
        "P1 sale con el Dragón de Oro boca abajo y ataca con el Dragón de Plata."


def test_counters_passes_and_everyone_passing() -> None:
    """rules/kami.md A4.2-A4.4: a counter names the card that blocked; when everyone has
    passed, the attacker leads again."""
    s = position(hands={0: "gold silver soldier soldier", 1: "silver tower spear spear"})
    narrate(GAME, s, 0, play("gold", "silver"))
    events = narrate(GAME, s, 1, play("silver", "tower"))
    (counter,) = forms(events, "counter", None)
    assert (counter["against"], counter["defense"], counter["attack"]) == (
        "silver", "silver", "tower")
    assert GAME.render_event(counter, GAME.voice("en")) == \
        "P2 counters the Silver Dragon with the Silver Dragon and attacks with the Tower."
    assert [e["type"] for e in for_viewer(narrate(GAME, s, 2, PASS), None)] == ["pass"]
    narrate(GAME, s, 3, PASS)
    events = narrate(GAME, s, 0, PASS)
    assert [e["type"] for e in for_viewer(events, 3)] == ["pass", "all_passed"]
    assert forms(events, "all_passed", None)[0]["seat"] == 1


def test_an_empress_counter_unlocks_the_other() -> None:
    """rules/kami.md A4.5, C2: an Empress face up on a defense line lets the other attack."""
    s = position(hands={0: "gold silver soldier soldier", 1: "empress tower spear spear"})
    narrate(GAME, s, 0, play("gold", "silver"))
    events = narrate(GAME, s, 1, play("empress", "tower"))
    assert forms(events, "unlocked", None) == [{"type": "unlocked", "seat": 1}]
    g = position(goita=True, hands={0: "gold silver empress soldier"})
    g.unlocked = False
    events = narrate(GOITA, g, 0, play("gold", "silver"))
    assert not forms(events, "unlocked", None)


def test_going_out_with_a_master_strike_scores_double() -> None:
    """rules/kami.md A5.1-A5.3: a lead whose hidden defense matches the final attack doubles;
    the score event says how many points for which side and why."""
    s = position(hands={0: "tower tower"}, scores=[3, 0])
    events = narrate(GAME, s, 0, play("tower", "tower"))
    kinds = [e["type"] for e in for_viewer(events, 1)]
    assert kinds[:4] == ["lead", "out", "score", "deal"]
    (out,) = forms(events, "out", 2)
    assert out == {"type": "out", "seat": 0, "card": "tower", "master_strike": True}
    (score,) = forms(events, "score", None)
    assert (score["points"], score["before"], score["after"], score["partners"]) == (
        8, 3, 11, [0, 2])
    en, es = GAME.voice("en"), spanish(GAME)
    assert GAME.render_event(out, en) == \
        "P1 goes out with a Master Strike: the Tower, the same as the face-down card."
    assert GAME.render_event(score, en) == \
        "8 points for P1 and P3 (the Tower doubled by the Master Strike); total 11."
    assert GAME.render_event(score, es) == \
        "8 puntos para P1 y P3 (la Torre, doble por el Golpe maestro); total 11."
    assert es.catalog.missing == set()


def test_a_counter_that_goes_out_is_not_doubled() -> None:
    """rules/kami.md A5.3: a face-up counter plus an identical final attack is not doubled."""
    s = position(hands={0: "gold silver soldier soldier", 1: "silver silver"}, players=4)
    narrate(GAME, s, 0, play("gold", "silver"))
    events = narrate(GAME, s, 1, play("silver", "silver"))
    (score,) = forms(events, "score", 3)
    assert score["points"] == 3 and not score["doubled"]
    assert GAME.render_event(score, GAME.voice("en")) == \
        "3 points for P2 and P4 (last attack: the Silver Dragon); total 3."


@pytest.mark.parametrize(("mode", "old", "text"), [
    ("lord", 13, "4 points for P1 (last attack: the Tower); that passes 15, so the excess "
                 "comes off: total 13."),
    ("kami", 13, "4 points for P1 (last attack: the Tower); that passes 15, so the total "
                 "falls back to 0."),
])
def test_scores_explain_the_end_modes(mode: str, old: int, text: str) -> None:
    """rules/kami.md A8: Lord takes the excess off 15; Kami mode resets an overshoot to 0."""
    s = position(players=2, hands={0: "tower soldier"}, options={"end_mode": mode},
                 scores=[old, 0], mercs=[(None, None)] * 8)
    events = narrate(GAME, s, 0, play("soldier", "tower"))
    (score,) = forms(events, "score", None)
    assert GAME.render_event(score, GAME.voice("en")) == text


def test_the_winning_round_ends_the_game() -> None:
    """rules/kami.md A8: reaching the target ends the game; ranks and winners are told."""
    s = position(players=3, hands={1: "fool fool"}, first=1, scores=[0, 12, 3])
    events = narrate(GAME, s, 1, play("fool", "fool"))
    assert [e["type"] for e in for_viewer(events, None)][-1] == "game_over"
    (over,) = forms(events, "game_over", 0)
    assert over["winners"] == [1] and over["scores"] == [0, 20, 3]
    assert GAME.render_event(over, GAME.voice("en", ["Ana", "Bea", "Carla"])) == \
        "Game over: Bea wins with 20 points (Ana 0, Carla 3)."
    assert GAME.render_event(over, spanish(GAME)) == \
        "Fin de la partida: gana P2 con 20 puntos (P1 0, P3 3)."


def test_a_new_deal_tells_each_seat_its_own_hand() -> None:
    """rules/kami.md A3, A7: after a round each seat learns its new hand; the table learns who
    leads and the hand size; with 3 players the 2nd and 3rd players each look at one
    set-aside card, named only to them."""
    s = position(players=3, hands={0: "gold gold"})
    events = narrate(GAME, s, 0, play("gold", "gold"))
    (public,) = forms(events, "deal", None)
    assert "hand" not in public and public["first"] == 0 and public["size"] == 10
    for seat in range(3):
        (mine,) = forms(events, "deal", seat)
        assert mine["hand"] == GAME.view(s, seat)["hand"]
    looks = {seat: forms(events, "look", seat) for seat in (None, 0, 1, 2)}
    assert [e["seat"] for e in looks[None]] == [1, 2]
    assert all(e["card"] is None for e in looks[None] + looks[0])
    assert [e["card"] for e in looks[1] if e["seat"] == 1] == [NAMES[s.unused[s.looked[1]]]]
    text = GAME.render_event(forms(events, "deal", 1)[0], GAME.voice("en"))
    assert text.startswith("Round 2: P1 leads; your cards: ")


def test_two_players_see_the_mercenaries_and_the_cards_turned_up() -> None:
    """rules/kami.md A3, A5.4: a used mercenary is played at once and the card beneath is
    turned face up; a new deal shows the eight stacks."""
    s = position(players=2, hands={0: "gold silver soldier"},
                 mercs=[("tower", "fool")] + [(None, None)] * 7)
    events = narrate(GAME, s, 0, play("merc:0", "silver"))
    (lead,) = forms(events, "lead", 1)
    assert (lead["defense"], lead["defense_stack"]) == ("tower", 0)  # it was face up
    assert forms(events, "mercenary_turned", None) == [
        {"type": "mercenary_turned", "stack": 0, "card": "fool"}]
    assert GAME.render_event(lead, GAME.voice("en")) == \
        "P1 leads the Tower (mercenary M1) face down and attacks with the Silver Dragon."
    s = position(players=2, hands={0: "gold gold"})
    events = narrate(GAME, s, 0, play("gold", "gold"))
    (tops,) = forms(events, "mercenaries", None)
    assert len(tops["tops"]) == 8


def test_a_lone_last_card_attacks_without_defense() -> None:
    """rules/kami.md C1: one card, no mercenary left: an attack with no defense card."""
    s = position(players=2, hands={0: "empress"}, mercs=[(None, None)] * 8)
    events = narrate(GAME, s, 0, play(None, "empress"))
    (lead,) = forms(events, "lead", 1)
    assert lead["no_defense"] and lead["defense"] is None
    assert GAME.render_event(lead, GAME.voice("en")) == \
        "P1 has no card left to defend with and attacks with the Empress."


def demoralized_deal() -> KamiState:
    for seed in range(3000):
        s = GAME.setup({}, 4, seed=seed)
        if (s.hands[s.asked] >> (4 * SOLDIER)) & 15 >= 5:
            return s
    raise AssertionError("no deal with a demoralized first player")


def test_demoralized_declarations_decision_and_redeal() -> None:
    """rules/kami.md A6, C4: each seat says reveal or quiet in turn; a reveal shows the
    Soldiers, the partner decides; a redeal keeps the first player and deals new hands."""
    s = demoralized_deal()
    holder, first = s.asked, s.first
    events = narrate(GAME, s, holder, {"type": "declare", "reveal": True})
    (reveal,) = forms(events, "reveal", None)
    assert reveal["soldiers"] == s.revealed[holder] >= 5 and reveal["partner"] == (holder + 2) % 4
    assert GAME.render_event(reveal, GAME.voice("en")).startswith(
        f"P{holder + 1} reveals {reveal['soldiers']} Soldiers and asks the partner")
    events = narrate(GAME, s, (holder + 2) % 4, {"type": "decide", "redeal": True})
    kinds = [e["type"] for e in for_viewer(events, 1)]
    assert kinds == ["decide", "redeal", "deal"]
    (redeal,) = forms(events, "redeal", None)
    assert redeal["reason"] == "partner" and redeal["first"] == first == s.first
    assert GAME.render_event(redeal, GAME.voice("en")) == (
        f"The round is cancelled: the cards are dealt again and P{first + 1} is still the "
        "first player.")
    assert s.phase == DECLARE
    events = narrate(GAME, s, s.asked, {"type": "declare", "reveal": False})
    assert for_viewer(events, None) == [{"type": "quiet", "seat": first}]


def test_goita_five_shi_shown_after_a_deal_and_the_partner_decides() -> None:
    """rules/kami.md B5: five Shi are shown right after the deal; the partner decides."""
    s = position(goita=True, hands={0: "gold gold"})
    rng_seed = next(seed for seed in range(5000) if _five_shi_after_deal(seed))
    s.rng = Rng(rng_seed)
    events = narrate(GOITA, s, 0, play("gold", "gold"))
    assert s.phase == DECIDE
    kinds = [e["type"] for e in for_viewer(events, None)]
    assert kinds == ["lead", "out", "score", "deal", "reveal"]
    (reveal,) = forms(events, "reveal", 3)
    assert GOITA.render_event(reveal, GOITA.voice("en")) == (
        f"P{reveal['seat'] + 1} shows 5 Shi; the partner P{reveal['partner'] + 1} decides "
        "whether to redeal.")
    (score,) = forms(events, "score", 1)
    assert GOITA.render_event(score, GOITA.voice("en")) == \
        "60 points for P1 and P3 (Kin doubled); total 60."
    events = narrate(GOITA, s, reveal["partner"], {"type": "decide", "redeal": False})
    assert GOITA.render_event(for_viewer(events, None)[0], spanish(GOITA)) == \
        f"P{reveal['partner'] + 1} decide jugar la mano."


def _five_shi_after_deal(seed: int) -> bool:
    s = position(goita=True, hands={0: "gold gold"})
    s.rng = Rng(seed)
    GOITA.apply(s, 0, GOITA.action_from_json(play("gold", "gold")))
    return s.phase == DECIDE and s.round == 2


def test_goita_special_hands_chain_deals_in_one_action() -> None:
    """rules/kami.md B5: six or more Shi win the hand at once, so one action can score a hand,
    deal, score the special hand and deal again; only the last deal (the one on the table)
    tells the seats their pieces."""
    for seed in range(20_000):
        s = position(goita=True, hands={0: "gold gold"})
        s.rng = Rng(seed)
        if _special_after_deal(s):
            break
    else:
        raise AssertionError("no seed gives a special Shi hand after the deal")
    s = position(goita=True, hands={0: "gold gold"})
    s.rng = Rng(seed)
    events = narrate(GOITA, s, 0, play("gold", "gold"))
    public = for_viewer(events, None)
    assert [e["type"] for e in public][:4] == ["lead", "out", "score", "deal"]
    special = [e for e in public if e["type"] == "score" and e["kind"].startswith("shi")]
    assert special and "hand" not in public[3]
    assert public[3]["round"] == 2 and public[3]["first"] == 0
    text = GOITA.render_event(special[0], GOITA.voice("en"))
    assert "Shi" in text and f"P{special[0]['seat'] + 1} was dealt" in text
    assert GOITA.render_event(special[0], spanish(GOITA)).startswith(
        f"{special[0]['points']} puntos para")
    hands = [e for e in for_viewer(events, 1) if e["type"] == "deal" and "hand" in e]
    assert len(hands) == (0 if s.phase == OVER else 1)


def _special_after_deal(s: KamiState) -> bool:
    GOITA.apply(s, 0, GOITA.action_from_json(play("gold", "gold")))
    return any(h[2].startswith("shi") and h[2] != "shi5x2" for h in s.history)


def test_goita_sentences_use_goita_pieces() -> None:
    """rules/kami.md B1: Goita's pieces keep their names (Shi, Gon, ... Ou) in both
    languages; Kami's card names never appear in Goita's sentences."""
    kami_words = {"Soldier", "Spear", "Horseman", "Dragon", "Tower", "Fool", "Empress",
                  "Soldado", "Lanza", "Jinete", "Dragón", "Torre", "Loco", "Emperatriz"}
    for seed in range(4):
        for _, _, _, _, events in narrated(GOITA, 4, seed):
            for voice in (GOITA.voice("en"), spanish(GOITA)):
                for text in render_all(GOITA, events, 4, voice):
                    assert not kami_words & set(text.replace(".", " ").replace(",", " ")
                                                .replace(":", " ").split()), text


def test_phases_are_all_narrated() -> None:
    """Every phase's action yields at least one event (nothing is narrated as "acted")."""
    seen: set[str] = set()
    for game, players in ((GAME, 4), (GOITA, 4), (GAME, 2), (GAME, 3)):
        for seed in range(3):
            for before, _, _, _, events in narrated(game, players, seed):
                assert before.phase in (PLAY, DECLARE, DECIDE)
                for e in for_viewer(events, None):
                    seen.add(e["type"])
                    assert game.render_event(e, game.voice("en")) != "P1 acted."
    assert {"lead", "counter", "pass", "all_passed", "out", "score", "deal", "quiet",
            "mercenaries", "mercenary_turned", "look", "unlocked", "game_over"} <= seen
    assert OVER == 3


@pytest.mark.parametrize(("game", "players"), [(GAME, 2), (GAME, 3), (GAME, 4), (GOITA, 4)])
def test_opening_tells_the_first_deal(game: Any, players: int) -> None:
    """rules/kami.md A3: ``events.opening`` narrates the deal made by setup, each seat's own
    hand only to it (for a driver that narrates the start of a match)."""
    for seed in range(5):
        s = game.setup({}, players, seed=seed)
        events = events_module.opening(s)
        for viewer in (None, *range(players)):
            got = for_viewer(events, viewer)
            view = game.view(s, viewer)
            for e in got:
                if e["type"] == "deal":
                    assert e.get("hand") == view["hand"]
                    assert (e["round"], e["first"]) == (view["round"], view["first"])
                if e["type"] == "look":
                    assert e["card"] == (view["looked"] if viewer == e["seat"] else None)
                game.render_event(e, game.voice("en"))
