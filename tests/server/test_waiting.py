"""Tables waiting for a person, over real HTTP (SQLite and PostgreSQL): ``your_turn`` in
``GET /api/me/tables``, the ``waiting`` event a person's stream opens with and the ``turn`` and
``turn_over`` events that keep it current, and a rated table refusing bots with no ladder
rating (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.client import Player
from tests.server.conftest import Server
from tests.server.test_lobby import refused
from tests.server.test_notifications import after_move, events, my_move

KAMI = {"options": {"target": 10}}


def waiting(player: Player) -> dict[str, bool]:
    """The person's tables and whether each waits for their move."""
    return {t["id"]: t["your_turn"] for t in player.ok(player.http.get("/api/me/tables"))}


def test_a_rated_table_takes_no_bot_without_a_ladder(
    server: Server, people: Callable[..., Player]
) -> None:
    """A bot with no rating on the game's ladder (Kami ships none) cannot make a match rated:
    asking for one at a rated table is refused before play, in the person's language, and
    changes nothing (it used to be accepted and quietly left unrated)."""
    ana = people("Rated_nobot", lang="es")
    before = waiting(ana)
    message = refused(ana.http.post("/api/tables", json={
        "game": "kami", "players": 2, **KAMI, "rated": True, "bots": ["random"]}),
        400, "no_ladder")
    assert "puntuar" in message and "random" in message and "Kami" in message
    assert waiting(ana) == before  # no table was made
    # a seat left for a person is no bot: that rated table opens
    table = ana.create("kami", 2, **KAMI, rated=True, bots=[None])
    assert table["rated"] is True and table["status"] == "open"
    # and no bot may be seated at it later
    refused(ana.http.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}),
            409, "rated_bots")
    again = ana.ok(ana.http.get(f"/api/tables/{table['id']}"))
    assert again["status"] == "open" and again["seats"][1]["bot"] is None
    # an unrated table takes bots as before
    assert ana.create("kami", 2, **KAMI, bots=["random"])["status"] == "playing"


def test_your_turn_and_the_events_that_keep_it(
    server: Server, people: Callable[..., Player]
) -> None:
    """``your_turn`` says whose move a table waits for; when a decision ends its person hears
    ``turn_over`` and the next one ``turn``, so a client's count follows without asking."""
    ana, ben = people("Wait_ana"), people("Wait_ben")
    with events(ana.http) as ana_events, events(ben.http) as ben_events:
        # a person's stream opens with the tables waiting for them: none yet
        for stream in (ana_events, ben_events):
            assert stream.next() == ("waiting", {"type": "waiting", "tables": []})
        table = ana.create("kami", 2, **KAMI, mode="turn", turn_hours=24)
        tid = table["id"]
        assert waiting(ana) == {tid: False}  # open: nobody's move yet
        ben.join(tid)
        socks = {0: ana.socket(tid), 1: ben.socket(tid)}
        people_at = {0: ana, 1: ben}
        streams = {0: ana_events, 1: ben_events}
        (seat,) = socks[0].state["to_act"]
        other = 1 - seat
        streams[seat].until(lambda kind, data: kind == "turn" and data["table"] == tid)
        assert waiting(people_at[seat])[tid] is True
        assert waiting(people_at[other])[tid] is False

        # play until the move changes hands
        moves = 0
        while True:
            state = my_move(socks[seat])
            socks[seat].act(state["legal"][moves % len(state["legal"])])
            moves += 1
            after = socks[seat].until(after_move(state["seq"]))
            if after["to_act"] != [seat]:
                break
        over = streams[seat].until(lambda kind, _: kind == "turn_over")
        assert over == {"type": "turn_over", "table": tid}
        streams[other].until(lambda kind, data: kind == "turn" and data["table"] == tid)
        assert waiting(people_at[seat])[tid] is False
        assert waiting(people_at[other])[tid] is True
        # a stream opened now starts from the same list
        with events(people_at[other].http) as again:
            assert again.next() == ("waiting", {"type": "waiting", "tables": [tid]})
        with events(people_at[seat].http) as again:
            assert again.next() == ("waiting", {"type": "waiting", "tables": []})
        # the player who did not act heard no turn_over
        assert not [d for kind, d in streams[other].seen if kind == "turn_over"]

        # leaving hands the seat to a bot: its decision is over for the person who left
        people_at[other].ok(people_at[other].http.post(f"/api/tables/{tid}/leave"))
        assert streams[other].until(lambda kind, _: kind == "turn_over") == {
            "type": "turn_over", "table": tid}
        assert waiting(people_at[other]).get(tid) in (None, False)
        for sock in socks.values():
            sock.close()
