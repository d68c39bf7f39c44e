"""Attacks on accounts, from outside, against a real ``ludoteca serve`` (SQLite and
PostgreSQL): stolen tokens and passwords, look-alike and reserved names, password guessing
spread over many addresses, and a forged ``X-Forwarded-For``."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from websockets.exceptions import ConnectionClosed

from ludoteca.server.db import sync_url
from ludoteca.server.migrate import alembic_config, upgrade
from tests.security.accounts_support import (
    PASSWORD,
    QUICK,
    EventStream,
    People,
    as_token,
    holding,
    me_with,
    play_out,
    refused,
    started,
    token_of,
)
from tests.server.client import CLIENT, Player
from tests.server.conftest import Server, _postgres_database


def sign_in(base: str, name: str, password: str = PASSWORD, token: str | None = None,
            **headers: str) -> httpx.Response:
    with httpx.Client(base_url=base, timeout=30, headers={**CLIENT, **headers}) as http:
        if token is not None:
            http.cookies.set("ludoteca_session", token)
        return http.post("/api/signin", json={"name": name, "password": password})


def test_signing_in_replaces_the_token_it_came_with(server: Server) -> None:
    """A token read (or planted) before a sign-in is worthless after it."""
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        first = token_of(http.post("/api/signup", json={"name": "Rotor", "password": PASSWORD}))
        again = http.post("/api/signin", json={"name": "Rotor", "password": PASSWORD})
        second = token_of(again)
        assert second != first
        refused(me_with(server.base, first), 401, "not_signed_in")
        assert me_with(server.base, second).json()["name"] == "Rotor"
    # a token planted in the victim's browser (here an attacker's own guest session) dies when
    # the victim signs in on top of it
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as attacker:
        planted = token_of(attacker.post("/api/guest"))
    signed = sign_in(server.base, "Rotor", token=planted)
    assert signed.status_code == 200, signed.text
    assert token_of(signed) != planted
    refused(me_with(server.base, planted), 401, "not_signed_in")


def test_claiming_a_guest_replaces_its_token(server: Server) -> None:
    """A guest's token was the whole account: once claimed with a password, whoever copied the
    token while it was a guest holds nothing."""
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        guest_token = token_of(http.post("/api/guest"))
        claimed = http.post("/api/claim", json={"password": PASSWORD, "name": "Claimed"})
        assert claimed.status_code == 200, claimed.text
        new_token = token_of(claimed)
        assert new_token != guest_token
        assert http.get("/api/me").json()["name"] == "Claimed"
    refused(me_with(server.base, guest_token), 401, "not_signed_in")
    with as_token(server.base, guest_token) as thief:
        refused(thief.post("/api/tables", json=QUICK), 401, "not_signed_in")
    assert me_with(server.base, new_token).json()["name"] == "Claimed"


def test_signing_out_everywhere_else_ends_the_other_sessions(server: Server,
                                                              people: People) -> None:
    """The other sessions end, and so do the table sockets and event streams opened with
    them: a thief watching from a stolen laptop is cut off at once, not at the next request."""
    table = people("Tablemate").create(game="kami", players=2)
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as mine:
        token_of(mine.post("/api/signup", json={"name": "Everywhere", "password": PASSWORD}))
        # the same account signed in on a phone and on a stolen laptop
        others = [token_of(sign_in(server.base, "everywhere")) for _ in range(2)]
        for token in others:
            assert me_with(server.base, token).json()["name"] == "Everywhere"
        thief = holding(server.base, others[1])  # the laptop's table socket, its cookie
        sock = thief.socket(table["id"])
        stream = EventStream(server.base, others[1])
        before = mine.cookies["ludoteca_session"]
        done = mine.post("/api/signout/others")
        assert done.status_code == 200, done.text
        assert done.json()["sessions_ended"] == 2 and done.json()["name"] == "Everywhere"
        for token in others:
            refused(me_with(server.base, token), 401, "not_signed_in")
        told = sock.until(lambda m: m["type"] == "reconnect", timeout=15)
        assert "signed out" in told["message"]
        with pytest.raises(ConnectionClosed):
            sock.recv(timeout=15)
        assert stream.ended() and stream.events[-1] == {"type": "signed_out"}
        stream.close()
        thief.close()
        # reconnecting with the dead cookie, the laptop is only a spectator
        again = holding(server.base, others[1])
        watch = again.socket(table["id"])
        watch.send({"type": "chat", "text": "still here?"})
        assert watch.error()["code"] == "not_signed_in"
        again.close()
        # this one goes on, under a new token
        assert mine.get("/api/me").json()["name"] == "Everywhere"
        refused(me_with(server.base, before), 401, "not_signed_in")
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as nobody:
        refused(nobody.post("/api/signout/others"), 401, "not_signed_in")


def test_a_changed_password_locks_out_the_old_one(server: Server) -> None:
    old, new = PASSWORD, "battery staple 9"
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        token_of(http.post("/api/signup", json={"name": "Changer", "password": old}))
        thief = token_of(sign_in(server.base, "Changer", old))  # the password was stolen
        refused(http.post("/api/password", json={"current": "wrong horse", "new": new}),
                403, "wrong_password")
        refused(http.post("/api/password", json={"current": old, "new": "short"}),
                400, "bad_password")
        refused(http.post("/api/password", json={"new": new}), 422, "bad_request")
        assert me_with(server.base, thief).status_code == 200  # refusals changed nothing
        assert sign_in(server.base, "Changer", old).status_code == 200
        changed = http.post("/api/password", json={"current": old, "new": new})
        assert changed.status_code == 200, changed.text
        assert http.get("/api/me").json()["name"] == "Changer"
    refused(sign_in(server.base, "Changer", old), 401, "bad_credentials")
    refused(me_with(server.base, thief), 401, "not_signed_in")
    assert sign_in(server.base, "Changer", new).status_code == 200
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as guest:
        guest.post("/api/guest")
        refused(guest.post("/api/password", json={"current": "", "new": new}),
                409, "no_password")


def test_a_deleted_account_leaves_its_history_anonymous(server: Server, people: People
                                                        ) -> None:
    dora, other = people("Dora"), people("Otilia")
    finished = dora.create(**QUICK, bots=["random"])
    sock = dora.socket(finished["id"])
    sock.send({"type": "chat", "text": "good game"})
    sock.until(lambda m: m["type"] == "chat")
    sock.close()
    final = play_out(dora, finished["id"], 5)
    assert final["status"] == "finished"
    waiting = dora.create(game="kami", players=2)  # her own open table
    theirs = other.create(game="kingdomino", players=3)
    dora.join(theirs["id"])
    phone = token_of(sign_in(server.base, "Dora"))

    http = dora.http
    refused(http.request("DELETE", "/api/me", json={"password": "wrong horse"}),
            403, "wrong_password")
    refused(http.request("DELETE", "/api/me"), 403, "wrong_password")
    assert http.get("/api/me").json()["name"] == "Dora"  # refused: nothing changed
    gone = http.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    anonymous = gone.json()["name"]
    assert anonymous.startswith("deleted_")

    # every session is dead, and the name and password open nothing
    refused(http.get("/api/me"), 401, "not_signed_in")
    refused(me_with(server.base, phone), 401, "not_signed_in")
    refused(sign_in(server.base, "Dora"), 401, "bad_credentials")
    refused(sign_in(server.base, anonymous, ""), 401, "bad_credentials")
    refused(other.http.get("/api/users/Dora"), 404, "no_such_user")
    # the history is whole, under the anonymous name
    page = other.ok(other.http.get(f"/api/users/{anonymous}"))
    assert [m["id"] for m in page["matches"]] == [finished["id"]]
    assert page["display_name"] == anonymous
    table = other.ok(other.http.get(f"/api/tables/{finished['id']}"))
    assert table["host"] == anonymous
    assert (table["seats"][0]["user"], table["seats"][0]["name"]) == (anonymous, anonymous)
    assert table["result"]["ranks"] == final["result"]["ranks"]
    watch = other.socket(finished["id"])
    assert [(c["user"], c["name"], c["text"]) for c in watch.first["chat"]] == [
        (anonymous, anonymous, "good game")]
    record = other.ok(other.http.get(f"/api/tables/{finished['id']}/record"))
    assert "Dora" not in str(record)
    # her seats at open tables are free: hers is given up, the other one goes on without her
    assert other.ok(other.http.get(f"/api/tables/{waiting['id']}"))["status"] == "abandoned"
    seats = other.ok(other.http.get(f"/api/tables/{theirs['id']}"))["seats"]
    assert [s["user"] for s in seats] == ["Otilia", None, None]
    # the name may be taken again by someone new, who inherits nothing
    again = Player(server.base, "Dora")
    try:
        assert again.ok(again.http.get("/api/users/Dora"))["matches"] == []
    finally:
        again.close()


def test_look_alike_names_are_refused(server: Server, people: People) -> None:
    ana, olivia = people("Ana"), people("Olivia")
    people("Noa")
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        for taken in ("ana", "ANA", "olivia"):
            refused(http.post("/api/signup", json={"name": taken, "password": PASSWORD}),
                    409, "name_taken")
        for like in ("O1ivia", "OIivia", "N0a", "No4", "OLIV1A", "A.n.a"):
            message = refused(
                http.post("/api/signup", json={"name": like, "password": PASSWORD}),
                409, "name_lookalike")
            assert like in message
        # sign-in names are plain ASCII: a Cyrillic А never gets that far
        refused(http.post("/api/signup", json={"name": "Аna", "password": PASSWORD}),
                400, "bad_name")
        assert http.post("/api/signup", json={"name": "Anabel", "password": PASSWORD}
                         ).is_success
    # display names may use any script, so the folding matters most there
    mallory = people("Mallory")
    for like in ("Ana", "ana", "Аna", "ΑnΑ", "Ａｎａ", "Оlivia", "Ol1via", "O l i v i a",
                 "Olívia", "N0a", "noa"):
        refused(mallory.http.patch("/api/me", json={"display_name": like}),
                409, "name_lookalike")
    assert mallory.ok(mallory.http.get("/api/me"))["display_name"] == "Mallory"
    # nor may a display name copy another's display name, nor a new account copy one
    ana.ok(ana.http.patch("/api/me", json={"display_name": "Capitán Ana"}))
    refused(mallory.http.patch("/api/me", json={"display_name": "capitan ana"}),
            409, "name_lookalike")
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        refused(http.post("/api/signup", json={"name": "Capitan_Ana", "password": PASSWORD}),
                409, "name_lookalike")
    # one's own name in another case or style is one's own
    assert olivia.ok(olivia.http.patch("/api/me", json={"display_name": "OLIVIA"})
                     )["display_name"] == "OLIVIA"
    assert mallory.ok(mallory.http.patch("/api/me", json={"display_name": "Malva Rosa"})
                      )["display_name"] == "Malva Rosa"

    # at a table, chat says who is behind a display name
    table = olivia.create(game="kami", players=2)
    watch = mallory.socket(table["id"])
    watch.send({"type": "chat", "text": "I am not Olivia"})
    line = watch.until(lambda m: m["type"] == "chat")["line"]
    assert (line["user"], line["name"]) == ("Mallory", "Malva Rosa")


def test_reserved_names_are_refused(server: Server, people: People) -> None:
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        for name in ("admin", "Admin", "ADMINISTRATOR", "root", "System", "Ludoteca",
                     "moderator", "Adm1n", "guest_a1b2c3", "Guest_1", "Bot_2", "bot-3",
                     "deleted_0a1b2c3d", "Ludo.teca"):
            message = refused(http.post("/api/signup", json={"name": name, "password": PASSWORD}),
                              400, "reserved_name")
            assert name in message
        spanish = http.post("/api/signup", headers={"accept-language": "es"},
                            json={"name": "admin", "password": PASSWORD})
        assert "reservado" in refused(spanish, 400, "reserved_name")
    someone = people("Someone")
    for name in ("Bot 2", "BOT 4", "admin", "Root", "Moderator", "guest_ffffff", "Ludoteca"):
        refused(someone.http.patch("/api/me", json={"display_name": name}), 400,
                "reserved_name")
    guest = people()
    refused(guest.http.post("/api/claim", json={"password": PASSWORD, "name": "Administrator"}),
            400, "reserved_name")
    assert guest.ok(guest.http.get("/api/me"))["guest"] is True


def test_password_guessing_from_many_addresses_hits_the_account_limit(
        arena_database: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Behind a trusted proxy every guess comes from its own address, so the per-address limit
    (3 a minute here) never fires; the per-account one (5 failures) does, for that account
    only, and it holds even for the right password until the window moves on."""
    server = started(arena_database, tmp_path_factory.mktemp("limits"),
                     LUDOTECA_AUTH_RATE="3", LUDOTECA_ACCOUNT_SIGNIN_RATE="5",
                     LUDOTECA_TRUSTED_PROXIES="127.0.0.1")
    try:
        for name in ("Victim", "Bystander"):
            made = httpx.post(server.base + "/api/signup",
                              headers={**CLIENT, "x-forwarded-for": f"198.51.100.{len(name)}"},
                              json={"name": name, "password": PASSWORD}, timeout=30)
            assert made.status_code == 200, made.text

        def guess(name: str, password: str, address: str) -> httpx.Response:
            return sign_in(server.base, name, password, **{"x-forwarded-for": address})

        # the proxy's header is believed: one address alone is stopped at 3
        for _ in range(3):
            refused(guess("Bystander", "wrong 1", "203.0.113.1"), 401, "bad_credentials")
        refused(guess("Bystander", PASSWORD, "203.0.113.1"), 429, "rate_limited")
        # a botnet: each address guesses once; look-alike spellings count for the same account
        for i, spelling in enumerate(("Victim", "victim", "VICTIM", "Vict1m", "victim")):
            refused(guess(spelling, f"guess {i}", f"203.0.113.{10 + i}"), 401,
                    "bad_credentials")
        refused(guess("Victim", "guess 6", "203.0.113.20"), 429, "rate_limited")
        refused(guess("Victim", PASSWORD, "203.0.113.21"), 429, "rate_limited")
        # other accounts are untouched
        assert guess("Bystander", PASSWORD, "203.0.113.22").status_code == 200
    finally:
        server.stop()


def test_forwarded_headers_are_ignored_by_default(
        arena_database: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No proxy is trusted unless the operator names it: a client that sends a new
    ``X-Forwarded-For`` with each guess is still counted at its own address, and a forged
    ``X-Forwarded-Proto`` does not change the cookie."""
    server = started(arena_database, tmp_path_factory.mktemp("proxy"), LUDOTECA_AUTH_RATE="3")
    try:
        for i in range(3):
            refused(sign_in(server.base, "nobody", "x", **{"x-forwarded-for": f"10.9.8.{i}"}),
                    401, "bad_credentials")
        refused(sign_in(server.base, "nobody", "x", **{"x-forwarded-for": "10.9.8.99"}),
                429, "rate_limited")
        refused(sign_in(server.base, "nobody", "x",
                        **{"x-forwarded-for": "127.0.0.1", "forwarded": "for=1.2.3.4"}),
                429, "rate_limited")
        # a real second address (Linux routes all of 127/8 to loopback) has its own count
        second = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=server.base, transport=second, timeout=30,
                          headers={**CLIENT, "x-forwarded-proto": "https"}) as other:
            made = other.post("/api/guest")
            assert made.status_code == 200, made.text
            cookie = made.headers["set-cookie"].lower()
            assert "secure" not in cookie.split(";")[1:] and "; secure" not in cookie
    finally:
        server.stop()


def test_signing_up_keeps_a_guests_session_and_signing_in_ends_it(server: Server) -> None:
    """Signing up from a browser that holds a guest's session leaves the guest's session be
    (it is that account's only key); signing in replaces it."""
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        guest = token_of(http.post("/api/guest"))
        made = http.post("/api/signup", json={"name": "Newcomer", "password": "correct horse"})
        assert made.status_code == 200, made.text
        assert me_with(server.base, guest).json()["guest"] is True
        http.cookies.set("ludoteca_session", guest)
        again = http.post("/api/signin", json={"name": "Newcomer", "password": "correct horse"})
        assert again.status_code == 200, again.text
        refused(me_with(server.base, guest), 401, "not_signed_in")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_accounts_made_before_the_name_rules_survive_the_migration(
        kind: str, tmp_path: Path) -> None:
    """Migration 0003 on a database with look-alike accounts from before the rules: both
    keep their rows (the later one's folded name gets its id, so the unique index holds), and
    it goes down and up again."""
    database = (iter([f"sqlite:///{tmp_path / 'old.sqlite3'}"]) if kind == "sqlite"
                else _postgres_database())
    url = next(database)
    try:
        command.upgrade(alembic_config(url), "0002")
        engine = sa.create_engine(sync_url(url), poolclass=sa.pool.NullPool)
        users = sa.table("users", *(sa.column(c) for c in (
            "id", "name", "name_key", "display_name", "password_hash", "guest", "language",
            "created_at", "name_fold", "display_fold", "seen_at", "deleted_at")))
        made = datetime(2026, 1, 2, tzinfo=UTC)
        with engine.begin() as db:
            for i, (name, display) in enumerate(
                    (("Leo", "Leo"), ("Le0", "Leo the second"), ("Ana", "L3o")), start=1):
                db.execute(users.insert().values(
                    id=i, name=name, name_key=name.lower(), display_name=display,
                    password_hash=None, guest=False, language="en", created_at=made))
        upgrade(url)
        with engine.connect() as db:
            rows = db.execute(sa.select(users.c.id, users.c.name_fold, users.c.display_fold,
                                        users.c.seen_at, users.c.deleted_at)
                              .order_by(users.c.id)).all()
        assert [(r.id, r.name_fold, r.display_fold) for r in rows] == [
            (1, "ieo", "ieo"), (2, "ieo#2", "ieothesecond"), (3, "ana", "ieo")]
        assert all(r.seen_at is not None and r.deleted_at is None for r in rows)
        command.downgrade(alembic_config(url), "0002")
        upgrade(url)
        engine.dispose()
    finally:
        with contextlib.suppress(StopIteration):
            next(database)
