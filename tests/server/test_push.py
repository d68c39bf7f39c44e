"""Web Push end to end: a ``ludoteca serve`` process (no SMTP server: push needs none) posts to
a push service this test runs on loopback (tests/support/push_service.py), on SQLite and on
PostgreSQL. Each message is checked as a push service and a browser would: the VAPID JWT is
verified with the arena's public key and the aes128gcm body decrypted with the
subscription's private key by an implementation of the test's own.

- A turn at a turn-based table: one push in the player's language that names the game and
  the table's page and nothing else; none while a socket of theirs shows the table; none for
  the same table within the interval; a digest for several; none in quiet hours.
- A push service's 500 leaves the message in the outbox for a later try (backoff); a 410
  removes the subscription; the device list and its removal are one's
  own; strict bodies (bad keys, a private or non-https endpoint).
- A finished match (when chosen), a tournament table ready and a rematch offer, in the
  player's language, with the player's choices per channel.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from push_service import Browser, PushService, verify_vapid
from sqlalchemy import create_engine, text

from ludoteca.server.db import sync_url
from tests.server.client import CLIENT, JSON, Player, in_parallel
from tests.server.conftest import Server
from tests.server.test_email import my_turn_table


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    found = PushService()
    yield found
    found.close()


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("server"),
                   LUDOTECA_TURN_EMAIL_DELAY="1", LUDOTECA_TURN_EMAIL_MINUTES="60",
                   LUDOTECA_WEBHOOK_TEST_NETWORKS="127.0.0.1/32",
                   LUDOTECA_PUSH_CONTACT="mailto:admin@ludoteca.test")
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def people(server: Server) -> Iterator[Callable[..., Player]]:
    made: list[Player] = []

    def make(name: str, lang: str = "en") -> Player:
        player = Player(server.base, name, lang)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()


def subscribed(player: Player, service: PushService, name: str) -> Browser:
    browser = service.browser(name)
    device = player.ok(player.http.post("/api/push/devices", json=browser.subscription()))
    assert device["label"] == "Test browser"
    assert device["endpoint_host"] == f"127.0.0.1:{service.port}"
    return browser


def opened(service: PushService, browser: Browser, public_key: str) -> dict[str, Any]:
    """The next push, which must be to ``browser``: checked and decrypted."""
    got = service.next()
    assert got.path == browser.endpoint.removeprefix(service.base)
    assert got.headers["content-encoding"] == "aes128gcm"
    assert int(got.headers["ttl"]) > 0
    claims = verify_vapid(got.headers["authorization"], public_key, service.base)
    assert claims["sub"] == "mailto:admin@ludoteca.test"
    return browser.decrypt(got.body)


def test_turn_pushes_language_watching_interval_digest_and_quiet_hours(
    server: Server, service: PushService, people: Callable[..., Player]
) -> None:
    ana = people("Push_ana", "es")
    state = ana.ok(ana.http.get("/api/push"))
    assert state["enabled"] is True and len(state["public_key"]) == 87  # 65 bytes, base64url
    key = state["public_key"]
    assert ana.ok(ana.http.get("/api/push")) == state  # made once, kept
    browser = subscribed(ana, service, "ana")
    first = my_turn_table(ana)
    message = opened(service, browser, key)
    assert message == {"title": "Tu jugada en Kami", "body": "Tu mesa de Kami espera tu jugada.",
                       "url": f"/#/table/{first}", "tag": f"turn-{first}", "lang": "es"}

    # the same table's next turn, within the interval: no second push
    sock = ana.socket(first)
    seen = sock.state if sock.state.get("legal") else sock.until(
        lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    sock.act(seen["legal"][0])
    sock.until(lambda m: m["type"] == "update" and m["seq"] > seen["seq"]
               and bool(m.get("legal")))
    sock.close()
    service.nothing(2.5)

    # a table she is looking at: nothing while her socket shows it
    watched: JSON = ana.create("kami", 2, options={"target": 10}, mode="turn", turn_hours=24)
    looking = ana.socket(watched["id"])
    ana.ok(ana.http.post(f"/api/tables/{watched['id']}/bots", json={"level": "random"}))
    looking.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    service.nothing(2.5)
    looking.close()

    # two tables at once: one digest
    two = [my_turn_table(ana), my_turn_table(ana)]
    digest = opened(service, browser, key)
    assert digest["title"] == "2 mesas esperan tu jugada" and digest["url"] == "/#/"
    assert digest["tag"] == "turns" and set(digest) == {"title", "body", "url", "tag", "lang"}
    assert all(t not in str(digest) for t in two)  # the games named, not the tables
    service.nothing(1.5)

    # quiet hours in her zone: nothing now
    zone = "Asia/Tokyo"
    local = datetime.now(ZoneInfo(zone))
    ana.ok(ana.http.put("/api/notifications", json={
        "time_zone": zone, "quiet_start": (local - timedelta(hours=1)).strftime("%H:%M"),
        "quiet_end": (local + timedelta(hours=1)).strftime("%H:%M")}))
    my_turn_table(ana)
    service.nothing(3)
    ana.ok(ana.http.put("/api/notifications", json={"quiet_start": None, "quiet_end": None}))

    # push turned off for turns: nothing
    prefs = ana.ok(ana.http.put("/api/notifications", json={"events": {"turn": {"push": False}}}))
    assert prefs["channels"] == ["page", "email", "push", "webhook"]
    assert prefs["prefs"]["turn"] == {"page": True, "email": True, "push": False,
                                      "webhook": True}
    my_turn_table(ana)
    service.nothing(2.5)


def test_a_gone_subscription_is_removed_and_devices_are_ones_own(
    server: Server, service: PushService, people: Callable[..., Player], database_url: str
) -> None:
    leo = people("Push_leo")
    other = people("Push_other")
    key = leo.ok(leo.http.get("/api/push"))["public_key"]
    kept = subscribed(leo, service, "leo-kept")
    gone = subscribed(leo, service, "leo-gone")
    devices = leo.ok(leo.http.get("/api/push/devices"))["devices"]
    assert len(devices) == 2
    # someone else's device: not theirs to remove, nor to see
    assert other.ok(other.http.get("/api/push/devices")) == {"devices": []}
    refused = other.http.delete(f"/api/push/devices/{devices[0]['id']}")
    assert refused.status_code == 404 and refused.json()["code"] == "no_such_device"
    # strict bodies
    bad = kept.subscription()
    for broken in (
        {**bad, "keys": {"p256dh": "AAAA", "auth": bad["keys"]["auth"]}},
        {**bad, "keys": {"p256dh": bad["keys"]["p256dh"], "auth": "short"}},
        {**bad, "endpoint": "https://10.1.2.3/push/x"},  # a private address
        {**bad, "endpoint": "ftp://push.example/x"},
        {**bad, "extra": 1},
        {**bad, "endpoint": "https://push.example/" + "x" * 1100},
    ):
        answer = leo.http.post("/api/push/devices", json=broken)
        assert answer.status_code == 422, (broken, answer.text)
    with httpx.Client(base_url=server.base, headers=CLIENT) as nobody:
        assert nobody.get("/api/push/devices").status_code == 401
        assert nobody.post("/api/push/devices", json=bad).status_code == 401
    # another site's page cannot add a device to a signed-in player (the Origin rule)
    foreign = leo.http.post("/api/push/devices", json=bad, headers={
        "Origin": "https://evil.example", "X-Ludoteca-Client": ""})
    assert foreign.status_code == 403 and foreign.json()["code"] == "bad_origin"
    # the push service says 410 for one: it is forgotten, the other still gets its push
    service.answer[gone.endpoint.removeprefix(service.base)] = 410
    table = my_turn_table(leo)
    got = [service.next(), service.next()]
    by_path = {g.path: g for g in got}
    kept_got = by_path[kept.endpoint.removeprefix(service.base)]
    verify_vapid(kept_got.headers["authorization"], key, service.base)
    assert kept.decrypt(kept_got.body)["url"] == f"/#/table/{table}"
    for _ in range(50):
        left = leo.ok(leo.http.get("/api/push/devices"))["devices"]
        if len(left) == 1:
            break
        time.sleep(0.1)
    assert [d["id"] for d in left] == [devices[0]["id"]]
    # removing one's own
    assert leo.ok(leo.http.delete(f"/api/push/devices/{left[0]['id']}")) == {"ok": True}
    assert leo.ok(leo.http.get("/api/push/devices")) == {"devices": []}
    my_turn_table(leo)
    service.nothing(2.5)
    # a deleted account's browsers are forgotten with it
    subscribed(leo, service, "leo-again")
    leo.ok(leo.http.request("DELETE", "/api/me", json={"password": "correct horse"}))
    engine = create_engine(sync_url(database_url))
    try:
        with engine.connect() as db:
            assert db.execute(text("SELECT COUNT(*) FROM push_subscriptions WHERE endpoint = :e"),
                              {"e": f"{service.base}/push/leo-again"}).scalar() == 0
    finally:
        engine.dispose()


def test_a_failed_push_is_kept_and_tried_again_later(
    server: Server, service: PushService, people: Callable[..., Player], database_url: str
) -> None:
    """A push service's 500: the outbox row stays, with its error and the next try 30 s on."""
    mia = people("Push_mia")
    browser = subscribed(mia, service, "mia-busy")
    path = browser.endpoint.removeprefix(service.base)
    service.answer[path] = 500
    my_turn_table(mia)
    assert service.next().path == path
    engine = create_engine(sync_url(database_url))
    try:
        for _ in range(50):
            with engine.connect() as db:
                rows = db.execute(text(
                    "SELECT o.attempts, o.error, o.sent_at, o.failed_at, o.next_at, o.created_at "
                    "FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id "
                    "WHERE s.endpoint = :e"), {"e": browser.endpoint}).all()
            if rows and rows[0][0] == 1:
                break
            time.sleep(0.1)
    finally:
        engine.dispose()
    assert len(rows) == 1
    attempts, error, sent_at, failed_at, next_at, created_at = rows[0]
    assert (attempts, sent_at, failed_at) == (1, None, None)
    assert "500" in error
    gap = (_at(next_at) - _at(created_at)).total_seconds()
    assert 25 < gap < 40, gap
    service.nothing(2)
    # removing the device takes its waiting messages with it: no retry reaches anyone
    device = mia.ok(mia.http.get("/api/push/devices"))["devices"][0]
    mia.ok(mia.http.delete(f"/api/push/devices/{device['id']}"))


def _at(value: Any) -> datetime:
    """A stored time as an aware datetime (SQLite hands back text)."""
    found = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return found if found.tzinfo else found.replace(tzinfo=ZoneInfo("UTC"))


def test_a_finished_match_by_push_when_chosen(
    server: Server, service: PushService, people: Callable[..., Player]
) -> None:
    tom = people("Push_tom", "en")
    key = tom.ok(tom.http.get("/api/push"))["public_key"]
    browser = subscribed(tom, service, "tom")
    tom.ok(tom.http.put("/api/notifications", json={
        "events": {"finished": {"push": True}, "turn": {"push": False}}}))
    table = tom.create("kami", 2, options={"target": 10}, bots=["random"])
    sock = tom.socket(table["id"])
    sock.play(random.Random(36))
    sock.close()
    message = opened(service, browser, key)
    assert message == {"title": "Your Kami match is over",
                       "body": "Your Kami match is over: see the result and the replay.",
                       "url": f"/#/table/{table['id']}", "tag": f"finished-{table['id']}",
                       "lang": "en"}


def test_a_tournament_table_ready_by_push_in_spanish(
    server: Server, service: PushService, people: Callable[..., Player]
) -> None:
    tea = people("PushTour_tea", "es")
    key = tea.ok(tea.http.get("/api/push"))["public_key"]
    browser = subscribed(tea, service, "tea")
    made = tea.ok(tea.http.post("/api/tournaments", json={
        "name": "Copa push", "game": "kami", "players": 2, "format": "swiss", "rounds": 1,
        "max_entrants": 2, "bank_seconds": 600, "options": {"target": 10}}))
    tea.ok(tea.http.post(f"/api/tournaments/{made['id']}/register", json={}))
    tea.ok(tea.http.post(f"/api/tournaments/{made['id']}/bots", json={"level": "random"}))
    message = opened(service, browser, key)
    assert message["title"] == "Tu mesa de la ronda 1 está lista"
    assert message["url"].startswith("/#/table/") and message["tag"].startswith("tournament-")
    assert message["lang"] == "es"


def test_a_rematch_offer_by_push(
    server: Server, service: PushService, people: Callable[..., Player]
) -> None:
    ines, jon = people("PushAgain_ines", "es"), people("PushAgain_jon", "en")
    key = ines.ok(ines.http.get("/api/push"))["public_key"]
    browser = subscribed(ines, service, "ines")
    table = ines.create("kami", 2, options={"target": 10})
    jon.join(table["id"])
    socks = [ines.socket(table["id"]), jon.socket(table["id"])]
    in_parallel(lambda: socks[0].play(random.Random(1)), lambda: socks[1].play(random.Random(2)))
    socks[1].send({"type": "rematch"})
    message = opened(service, browser, key)
    assert message == {"title": "PushAgain_jon propone la revancha de Kami",
                       "body": message["body"], "url": f"/#/table/{table['id']}",
                       "tag": f"rematch-{table['id']}", "lang": "es"}
    assert "PushAgain_jon" in message["body"]
    for sock in socks:
        sock.close()


def test_a_challenge_received_by_push_in_spanish_and_not_when_off(
    server: Server, service: PushService, people: Callable[..., Player]
) -> None:
    """The challenged person's browser is told, in their language, with their own page to
    open (challenges are answered there); once a challenge's life long from the same
    challenger; nothing once push is off for challenges."""
    rosa, teo, uma = (people("PushReto_rosa", "es"), people("PushReto_teo", "en"),
                      people("PushReto_uma", "en"))
    key = rosa.ok(rosa.http.get("/api/push"))["public_key"]
    browser = subscribed(rosa, service, "rosa")
    body = {"game": "kami", "options": {"target": 10}}
    made = teo.ok(teo.http.post(f"/api/users/{rosa.name}/challenge", json=body))
    message = opened(service, browser, key)
    assert message["title"] == "PushReto_teo te desafía a Kami"
    assert message["body"].startswith("PushReto_teo te desafía a una partida de Kami.")
    assert message["url"] == f"/#/player/{rosa.name}"
    assert message["tag"] == f"challenge-{made['id']}" and message["lang"] == "es"
    assert made["table"] not in str(message)  # the page to answer it, not the private table
    teo.ok(teo.http.post(f"/api/challenges/{made['id']}/decline"))  # withdrawn, and again:
    teo.ok(teo.http.post(f"/api/users/{rosa.name}/challenge", json=body))
    service.nothing(1.5)

    rosa.ok(rosa.http.put("/api/notifications", json={"events": {"challenge": {"push": False}}}))
    uma.ok(uma.http.post(f"/api/users/{rosa.name}/challenge", json=body))
    service.nothing(2)
