"""Email over real SMTP: a ``ludoteca serve`` process sends through an aiosmtpd server that
this test runs on loopback, on SQLite and on PostgreSQL.

- An address is the account's once the emailed link is opened (once; no sign-in needed).
- A password reset: the same answer whether or not the address has an account, and the same
  timing (the two answers' time distributions compared with a Mann-Whitney U test); the link
  works once and expires; every session ends; rate limits per address and per asker.
- Turn emails: in the player's language, never while a socket of theirs shows the table, at
  most one per table per interval, a digest when several tables wait, none in quiet hours;
  the one-click unsubscribe (RFC 8058) works without signing in.
- A finished match's email in English for an English player who turned it on; a tournament
  table ready and a rematch offer, in Spanish.
- With no SMTP server set, the API says email is off and its routes answer ``email_off``.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
from mail_sink import Sink

from tests.server.client import CLIENT, JSON, Player, in_parallel
from tests.server.conftest import Server

RESET_MINUTES = 0.15
"""Reset links last 9 seconds here, so the test sees one expire."""
_forwarded = itertools.count(1)


@pytest.fixture(scope="module")
def sink() -> Iterator[Sink]:
    found = Sink()
    yield found
    found.close()


@pytest.fixture(scope="module")
def server(database_url: str, sink: Sink, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("server"),
                   LUDOTECA_SMTP_URL=f"smtp://127.0.0.1:{sink.port}",
                   LUDOTECA_MAIL_FROM="arena@ludoteca.test",
                   LUDOTECA_TURN_EMAIL_DELAY="1", LUDOTECA_TURN_EMAIL_MINUTES="60",
                   LUDOTECA_RESET_MINUTES=str(RESET_MINUTES), LUDOTECA_RESET_RATE="3",
                   LUDOTECA_MAIL_ASK_RATE="5", LUDOTECA_TRUSTED_PROXIES="127.0.0.1")
    found.env["LUDOTECA_PUBLIC_URL"] = found.base
    found.start()
    try:
        yield found
    finally:
        found.stop()


def asker() -> dict[str, str]:
    """A client address of its own (the server believes ``X-Forwarded-For`` from loopback
    here), so the per-asker limit of one part of the test does not reach another's."""
    n = next(_forwarded)
    return {"x-forwarded-for": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"}


@pytest.fixture
def people(server: Server) -> Iterator[Callable[..., Player]]:
    made: list[Player] = []

    def make(name: str, lang: str = "en") -> Player:
        player = Player(server.base, name, lang)
        player.http.headers.update(asker())
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()


def anonymous(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.base, headers={**CLIENT, **asker()}, timeout=30)


def link_in(message: EmailMessage, pattern: str) -> str:
    text = message.get_body(("plain",))
    assert text is not None
    found = re.search(pattern, text.get_content())
    assert found is not None, text.get_content()
    return found[0]


def token_of(link: str) -> str:
    return link.split("token=", 1)[1]


def with_email(player: Player, sink: Sink, address: str) -> EmailMessage:
    """Add and confirm ``address`` for ``player``; the confirmation message."""
    answer = player.http.post("/api/email", json={"email": address})
    assert answer.status_code == 202, answer.text
    assert answer.json() == {"ok": True, "pending": address}
    message = sink.to(address)
    link = link_in(message, r"http://\S+#/email/confirm\?token=\S+")
    confirmed = player.http.post("/api/email/confirm", json={"token": token_of(link)})
    assert confirmed.json() == {"ok": True, "email": address}, confirmed.text
    return message


# ---- addresses -------------------------------------------------------------------------------
def test_an_address_is_confirmed_by_its_link_once(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    eva = people("Mail_eva", "es")
    assert eva.ok(eva.http.get("/api/email")) == {"enabled": True}
    refused = eva.http.post("/api/email", json={"email": "eva@x.test\r\nBcc: all@x.test"})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_email"
    assert eva.http.post("/api/email", json={"email": "Eva <eva@x.test>"}).status_code == 422
    eva.ok(eva.http.post("/api/email", json={"email": "eva@x.test"}))
    message = sink.to("eva@x.test")
    assert message["From"] == "arena@ludoteca.test"
    assert message["Subject"] == "Confirma tu dirección de correo en Ludoteca"
    assert message.get_body(("html",)) is not None
    link = link_in(message, r"http://\S+#/email/confirm\?token=\S+")
    assert link.startswith(server.base + "/#/email/confirm?token=")
    # not yet the account's
    assert eva.ok(eva.http.get("/api/notifications"))["email"] is None
    with anonymous(server) as someone:  # the link is the proof: no session needed
        answer = someone.post("/api/email/confirm", json={"token": token_of(link)})
        assert answer.json() == {"ok": True, "email": "eva@x.test"}
        again = someone.post("/api/email/confirm", json={"token": token_of(link)})
        assert again.status_code == 410 and again.json()["code"] == "bad_link"
        forged = someone.post("/api/email/confirm", json={"token": token_of(link)[:-2] + "xx"})
        assert forged.status_code == 410
    assert eva.ok(eva.http.get("/api/notifications"))["email"] == "eva@x.test"
    # another account confirming the same address is told it is taken
    other = people("Mail_other")
    other.ok(other.http.post("/api/email", json={"email": "EVA@x.test"}))
    second = link_in(sink.to("EVA@x.test"), r"http://\S+#/email/confirm\?token=\S+")
    taken = other.http.post("/api/email/confirm", json={"token": token_of(second)})
    assert taken.status_code == 409 and taken.json()["code"] == "email_taken"
    # a deleted account lets its address go
    eva.ok(eva.http.request("DELETE", "/api/me", json={"password": "correct horse"}))
    other.ok(other.http.post("/api/email", json={"email": "eva@x.test"}))
    third = link_in(sink.to("eva@x.test"), r"http://\S+#/email/confirm\?token=\S+")
    assert other.ok(other.http.post("/api/email/confirm", json={"token": token_of(third)}))
    # the preferences are one's own: none without a session
    with anonymous(server) as someone:
        assert someone.get("/api/notifications").status_code == 401
        assert someone.put("/api/notifications", json={"time_zone": "UTC"}).status_code == 401
    # guests keep their account first
    with httpx.Client(base_url=server.base, headers={**CLIENT, **asker()}) as guest:
        guest.post("/api/guest").raise_for_status()
        answer = guest.post("/api/email", json={"email": "guest@x.test"})
        assert answer.status_code == 409 and answer.json()["code"] == "guest"


# ---- password reset --------------------------------------------------------------------------
def test_a_password_reset_by_email(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    rosa = people("Reset_rosa")
    with_email(rosa, sink, "rosa@x.test")
    elsewhere = Player(server.base, None)  # stands in for another browser of hers
    elsewhere.http.cookies.clear()
    elsewhere.http.headers.update(asker())
    signin = elsewhere.http.post("/api/signin", json={"name": "Reset_rosa",
                                                      "password": "correct horse"})
    assert signin.status_code == 200
    with anonymous(server) as someone:
        known = someone.post("/api/password/forgot", json={"email": "rosa@x.test"})
        unknown = someone.post("/api/password/forgot", json={"email": "nobody@x.test"})
        assert known.status_code == unknown.status_code == 202
        assert known.json() == unknown.json() == {"ok": True}
        message = sink.to("rosa@x.test")
        assert message["Subject"] == "Reset your Ludoteca password"
        sink.nothing(1.5)  # nothing for the address no account has
        token = token_of(link_in(message, r"http://\S+#/reset\?token=\S+"))
        short = someone.post("/api/password/reset", json={"token": token, "password": "short"})
        assert short.status_code == 400 and short.json()["code"] == "bad_password"
        done = someone.post("/api/password/reset", json={"token": token,
                                                         "password": "a new password"})
        assert done.json() == {"ok": True, "name": "Reset_rosa"}, done.text
        again = someone.post("/api/password/reset", json={"token": token,
                                                          "password": "another one!"})
        assert again.status_code == 410
        # every session ended
        assert rosa.http.get("/api/me").status_code == 401
        assert elsewhere.http.get("/api/me").status_code == 401
        assert someone.post("/api/signin", json={"name": "Reset_rosa",
                                                 "password": "a new password"}).status_code == 200
        # a link that expired works no more
        someone.post("/api/password/forgot", json={"email": "rosa@x.test"}).raise_for_status()
        late = token_of(link_in(sink.to("rosa@x.test"), r"http://\S+#/reset\?token=\S+"))
        time.sleep(RESET_MINUTES * 60 + 1)
        expired = someone.post("/api/password/reset", json={"token": late,
                                                            "password": "too late now"})
        assert expired.status_code == 410 and expired.json()["code"] == "bad_link"
    # per address: 3 an hour (counted whether or not an account has it), from any asker
    for _ in range(3):
        with anonymous(server) as someone:
            assert someone.post("/api/password/forgot",
                                json={"email": "busy@x.test"}).status_code == 202
    with anonymous(server) as someone:
        limited = someone.post("/api/password/forgot", json={"email": "busy@x.test"})
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    # per asker: 5 an hour from one client address, whatever the addresses asked
    with anonymous(server) as flood:
        codes = [flood.post("/api/password/forgot", json={"email": f"f{i}@x.test"}).status_code
                 for i in range(6)]
        assert codes == [202] * 5 + [429]
    elsewhere.close()


def mann_whitney_p(a: list[float], b: list[float]) -> float:
    """The two-sided p-value of the Mann-Whitney U test (normal approximation with the tie
    correction): how likely samples this different are if both come from one distribution."""
    ranked = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(ranked)
    ties = 0.0
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    n1, n2 = len(a), len(b)
    r1 = sum(r for r, (_, group) in zip(ranks, ranked, strict=True) if group == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    z = (u - n1 * n2 / 2) / sigma
    return math.erfc(abs(z) / math.sqrt(2))


def test_a_reset_answer_takes_the_same_time_with_or_without_an_account(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    """Timing must not tell whether an address has an account: the two answers' time
    distributions are compared (Mann-Whitney U, two-sided), asked in a shuffled order with a
    pause after each so the email of one answer does not slow the next."""
    known = []
    for i in range(12):
        player = people(f"Timing_{i}")
        with_email(player, sink, f"timing{i}@x.test")
        known.append(f"timing{i}@x.test")
    asks = [(True, a) for a in known * 2] + [(False, f"none{i}@x.test") for i in range(24)]
    random.Random(36).shuffle(asks)
    times: dict[bool, list[float]] = {True: [], False: []}
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as client:
        for exists, address in asks:
            client.headers.update(asker())
            started = time.perf_counter()
            answer = client.post("/api/password/forgot", json={"email": address})
            times[exists].append(time.perf_counter() - started)
            assert answer.status_code == 202 and answer.json() == {"ok": True}
            time.sleep(0.08)
    for _ in range(len(known) * 2):  # every known address got its email, no other one did
        assert sink.next()["To"] in known
    sink.nothing(1)
    p = mann_whitney_p(times[True], times[False])
    medians = statistics.median(times[True]), statistics.median(times[False])
    assert p > 0.001, (p, medians)
    assert abs(medians[0] - medians[1]) < 0.02, medians


# ---- turn emails -----------------------------------------------------------------------------
def my_turn_table(player: Player) -> str:
    """A turn-based Kami table against a bot; its id. (The bot answers at once, so the
    player's decision begins at once or right after the bot's first move.)"""
    table: JSON = player.create("kami", 2, options={"target": 10}, mode="turn",
                                turn_hours=24, bots=["random"])
    return str(table["id"])


def test_turn_emails_interval_watching_digest_quiet_and_unsubscribe(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    lola = people("Turn_lola", "es")
    with_email(lola, sink, "lola@x.test")
    first = my_turn_table(lola)
    message = sink.to("lola@x.test")
    assert message["Subject"] == "Tu jugada en Kami"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = message["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(server.base + "/api/unsubscribe?token=")
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    assert text is not None and html is not None
    assert f"{server.base}/#/table/{first}" in text.get_content()
    assert f"{server.base}/#/settings" in text.get_content()
    assert f'href="{server.base}/#/table/{first}"' in html.get_content()

    # the same table's next turn, within the interval: no second email
    sock = lola.socket(first)
    state = sock.state if sock.state.get("legal") else sock.until(
        lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    sock.act(state["legal"][0])
    sock.until(lambda m: m["type"] == "update" and m["seq"] > state["seq"]
               and bool(m.get("legal")))
    sock.close()
    sink.nothing(2.5)

    # a table she is looking at: no email while the socket shows it
    watched: JSON = lola.create("kami", 2, options={"target": 10}, mode="turn",
                                turn_hours=24)
    looking = lola.socket(watched["id"])
    lola.ok(lola.http.post(f"/api/tables/{watched['id']}/bots", json={"level": "random"}))
    looking.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    sink.nothing(2.5)
    looking.close()

    # two tables waiting at once: one digest naming both
    two = [my_turn_table(lola), my_turn_table(lola)]
    digest = sink.to("lola@x.test")
    assert digest["Subject"] == "2 mesas esperan tu jugada"
    body = digest.get_body(("plain",))
    assert body is not None
    assert all(f"/#/table/{t}" in body.get_content() for t in two)
    assert first not in body.get_content()
    sink.nothing(1.5)

    # quiet hours in her zone: nothing now
    zone = "America/Mexico_City"
    local = datetime.now(ZoneInfo(zone))
    start, end = local - timedelta(hours=1), local + timedelta(hours=1)
    prefs = lola.ok(lola.http.put("/api/notifications", json={
        "time_zone": zone, "quiet_start": start.strftime("%H:%M"),
        "quiet_end": end.strftime("%H:%M")}))
    assert prefs["time_zone"] == zone and prefs["quiet_start"] == start.strftime("%H:%M")
    my_turn_table(lola)
    sink.nothing(3)
    lola.ok(lola.http.put("/api/notifications", json={"quiet_start": None, "quiet_end": None}))

    # one click, no session, no Origin (as a mail client posts it): turn emails stop
    with httpx.Client(timeout=30) as mail_client:
        page = mail_client.get(unsubscribe)
        assert page.status_code == 200 and "<form" in page.text
        done = mail_client.post(unsubscribe, content=b"List-Unsubscribe=One-Click",
                                headers={"content-type": "application/x-www-form-urlencoded"})
        assert done.status_code == 200, done.text
        bad = mail_client.post(unsubscribe[:-3] + "abc")
        assert bad.status_code == 404
    prefs = lola.ok(lola.http.get("/api/notifications"))
    assert prefs["prefs"]["turn"]["email"] is False
    assert prefs["prefs"]["turn"]["page"] is True
    my_turn_table(lola)
    sink.nothing(2.5)


def test_a_finished_match_email_in_english_when_chosen(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    tom = people("Finish_tom", "en")
    with_email(tom, sink, "tom@x.test")
    bad = tom.http.put("/api/notifications", json={"events": {"finished": {"pigeon": True}}})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_notification"
    zone = tom.http.put("/api/notifications", json={"time_zone": "Mars/Olympus"})
    assert zone.status_code == 422 and zone.json()["code"] == "bad_time_zone"
    prefs = tom.ok(tom.http.put("/api/notifications", json={
        "events": {"finished": {"email": True}, "turn": {"email": False}}}))
    assert prefs["prefs"]["finished"] == {"page": True, "email": True, "push": False,
                                          "webhook": False}
    table = tom.create("kami", 2, options={"target": 10}, bots=["random"])
    sock = tom.socket(table["id"])
    sock.play(random.Random(36))
    sock.close()
    message = sink.to("tom@x.test")
    assert message["Subject"] == "Your Kami match is over"
    assert f"/#/table/{table['id']}" in link_in(message, r"http://\S+#/table/\S+")


# ---- no mail server --------------------------------------------------------------------------
def test_without_a_mail_server_email_is_off(tmp_path: Path) -> None:
    plain = Server(f"sqlite:///{tmp_path / 'arena.sqlite3'}", tmp_path)
    plain.start()
    try:
        player = Player(plain.base, "Plain_pia")
        assert player.ok(player.http.get("/api/email")) == {"enabled": False}
        prefs = player.ok(player.http.get("/api/notifications"))
        assert prefs["email_enabled"] is False and prefs["email"] is None
        for path, body in [("/api/email", {"email": "pia@x.test"}),
                           ("/api/password/forgot", {"email": "pia@x.test"}),
                           ("/api/password/reset", {"token": "x", "password": "whatever1"})]:
            answer = player.http.post(path, json=body)
            assert answer.status_code == 404 and answer.json()["code"] == "email_off", path
        assert player.http.post("/api/unsubscribe?token=1.turn.x").status_code == 404
        player.close()
    finally:
        plain.stop()


def test_a_tournament_table_ready_email_in_the_players_language(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    """The director opens a round's table: its people hear it through the one notification
    service, by email too (on by default)."""
    tea = people("Tour_tea", "es")
    with_email(tea, sink, "tea@x.test")
    made = tea.ok(tea.http.post("/api/tournaments", json={
        "name": "Copa", "game": "kami", "players": 2, "format": "swiss", "rounds": 1,
        "max_entrants": 2, "bank_seconds": 600, "options": {"target": 10}}))
    tea.ok(tea.http.post(f"/api/tournaments/{made['id']}/register", json={}))
    tea.ok(tea.http.post(f"/api/tournaments/{made['id']}/bots", json={"level": "random"}))
    message = sink.to("tea@x.test", timeout=60)
    assert message["Subject"] == "Tu mesa de la ronda 1 está lista"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/#/table/" in link_in(message, r"http://\S+#/table/\S+")


def test_a_rematch_offer_by_email(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    ines, jon = people("Again_ines", "es"), people("Again_jon", "en")
    with_email(ines, sink, "ines@x.test")
    table = ines.create("kami", 2, options={"target": 10})
    jon.join(table["id"])
    socks = [ines.socket(table["id"]), jon.socket(table["id"])]
    in_parallel(lambda: socks[0].play(random.Random(1)), lambda: socks[1].play(random.Random(2)))
    socks[1].send({"type": "rematch"})
    message = sink.to("ines@x.test")
    assert message["Subject"] == "Again_jon propone la revancha de Kami"
    assert f"/#/table/{table['id']}" in link_in(message, r"http://\S+#/table/\S+")
    for sock in socks:
        sock.close()


def test_a_challenge_received_by_email_in_spanish_and_not_when_off(
    server: Server, sink: Sink, people: Callable[..., Player]
) -> None:
    """A challenge is one more notice of the service: the challenged person's email, in their
    language, links to their own page (where challenges are answered); none to the
    challenger when it is answered; one a challenge's life long from the same challenger (a
    flood reaches the page only); none once turned off."""
    rosa, teo, uma = (people("Reto_rosa", "es"), people("Reto_teo", "en"),
                      people("Reto_uma", "en"))
    with_email(rosa, sink, "reto_rosa@x.test")
    with_email(teo, sink, "teo@x.test")
    prefs = rosa.ok(rosa.http.get("/api/notifications"))
    assert "challenge" in prefs["events"]
    assert prefs["prefs"]["challenge"] == {"page": True, "email": True, "push": True,
                                           "webhook": False}
    body = {"game": "kami", "options": {"target": 10}}
    made = teo.ok(teo.http.post(f"/api/users/{rosa.name}/challenge", json=body))
    message = sink.to("reto_rosa@x.test")
    assert message["Subject"] == "Reto_teo te desafía a Kami"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text = message.get_body(("plain",))
    assert text is not None
    assert "Acéptala o recházala en tu página antes de" in text.get_content()
    assert link_in(message, r"http://\S+#/player/\S+").endswith(f"/#/player/{rosa.name}")
    rosa.ok(rosa.http.post(f"/api/challenges/{made['id']}/decline"))
    again = teo.ok(teo.http.post(f"/api/users/{rosa.name}/challenge", json=body))
    sink.nothing(1.5)  # teo hears the answer in the page only; rosa, his second one too
    assert [c["id"] for c in rosa.ok(rosa.http.get("/api/me/challenges"))] == [again["id"]]

    rosa.ok(rosa.http.put("/api/notifications", json={"events": {"challenge": {"email": False}}}))
    uma.ok(uma.http.post(f"/api/users/{rosa.name}/challenge", json=body))
    sink.nothing(2)
