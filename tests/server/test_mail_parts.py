"""The email parts that need no server: the SMTP URL as the operator writes it, quiet hours in
a player's zone (across midnight and a DST change), the sender's backoff, and the message built
from an outbox row (headers that cannot be injected, both parts)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ludoteca.server.db import Outbox, User
from ludoteca.server.mail import backoff, build
from ludoteca.server.mail_server import MailServerError, parse_smtp_url
from ludoteca.server.notify_prefs import DEFAULTS, merged, prefs_of, quiet_until
from ludoteca.server.settings import SettingError, Settings, check_smtp_url


def test_smtp_urls() -> None:
    plain = parse_smtp_url("smtp://relay")
    assert (plain.host, plain.port, plain.tls, plain.starttls, plain.user) == (
        "relay", 25, False, None, None)
    submit = parse_smtp_url("smtp://me%40x.org:p%3Ass@mail.x.org?starttls=yes")
    assert (submit.port, submit.starttls, submit.user, submit.password) == (
        587, True, "me@x.org", "p:ss")
    tls = parse_smtp_url("smtps://mail.x.org")
    assert (tls.port, tls.tls) == (465, True)
    assert parse_smtp_url("smtp://mail.x.org:2525?starttls=no").port == 2525
    for bad in ["http://mail", "smtp://", "smtp://mail/path", "smtp://mail?tls=1",
                "smtps://mail?starttls=yes", "smtp://mail?starttls=maybe", "smtp://mail:99999"]:
        with pytest.raises(MailServerError):
            parse_smtp_url(bad)
    with pytest.raises(SettingError, match=r"\*\*\*"):  # the password is never shown
        check_smtp_url("LUDOTECA_SMTP_URL", "smtp://me:secret@mail/path")


def test_smtp_needs_a_sender_and_an_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTECA_SMTP_URL", "smtp://relay")
    with pytest.raises(SettingError, match="LUDOTECA_MAIL_FROM"):
        Settings(database_url="sqlite://")
    monkeypatch.setenv("LUDOTECA_MAIL_FROM", "games@x.org")
    monkeypatch.setenv("LUDOTECA_PUBLIC_URL", "https://games.x.org")
    assert Settings(database_url="sqlite://").smtp_url == "smtp://relay"
    monkeypatch.setenv("LUDOTECA_MAIL_FROM", "Games <games@x.org>")
    with pytest.raises(SettingError, match="LUDOTECA_MAIL_FROM"):
        Settings(database_url="sqlite://")


def player(start: int | None, end: int | None, zone: str = "Europe/Madrid") -> User:
    return User(id=1, quiet_start=start, quiet_end=end, time_zone=zone, notify=None)


def test_quiet_hours_in_the_players_zone() -> None:
    night = player(22 * 60, 8 * 60)
    # 23:30 in Madrid (winter, UTC+1) is 22:30 UTC: quiet until 08:00 Madrid, 07:00 UTC
    ends = quiet_until(night, datetime(2026, 12, 6, 22, 30, tzinfo=UTC))
    assert ends is not None and ends.astimezone(UTC) == datetime(2026, 12, 7, 7, 0, tzinfo=UTC)
    # 03:00 Madrid, after midnight: the same night's end
    ends = quiet_until(night, datetime(2026, 12, 7, 2, 0, tzinfo=UTC))
    assert ends is not None and ends.astimezone(UTC) == datetime(2026, 12, 7, 7, 0, tzinfo=UTC)
    assert quiet_until(night, datetime(2026, 12, 7, 12, 0, tzinfo=UTC)) is None
    # summer time (UTC+2): 21:30 UTC is 23:30 Madrid
    assert quiet_until(night, datetime(2026, 7, 6, 21, 30, tzinfo=UTC)) is not None
    assert quiet_until(night, datetime(2026, 7, 6, 19, 30, tzinfo=UTC)) is None
    day = player(9 * 60, 17 * 60, "UTC")
    assert quiet_until(day, datetime(2026, 12, 7, 12, 0, tzinfo=UTC)) is not None
    assert quiet_until(day, datetime(2026, 12, 7, 17, 0, tzinfo=UTC)) is None
    assert quiet_until(player(None, None), datetime(2026, 12, 7, tzinfo=UTC)) is None
    assert quiet_until(player(600, 600), datetime(2026, 12, 7, 10, tzinfo=UTC)) is None


def test_choices_keep_only_what_differs_from_the_defaults() -> None:
    user = player(None, None)
    assert prefs_of(user) == DEFAULTS
    user.notify = merged(user, {"finished": {"email": True}, "turn": {"page": True}})
    assert user.notify == {"finished": {"email": True}}
    assert prefs_of(user)["finished"]["email"] is True
    user.notify = merged(user, {"finished": {"email": False}})
    assert user.notify == {}


def test_backoff_grows_to_an_hour() -> None:
    assert [backoff(n).total_seconds() for n in (1, 2, 3, 8, 20)] == [30, 60, 120, 3600, 3600]


def test_a_message_from_an_outbox_row() -> None:
    row = Outbox(id=7, to_addr="ana@x.org", subject="Tu jugada en Kami", text="hola\n",
                 html="<p>hola</p>", headers={"List-Unsubscribe": "<https://g/u?token=1>"},
                 kind="turn", created_at=datetime(2026, 12, 6, tzinfo=UTC))
    message = build(row, "games@x.org")
    assert message["Message-ID"].startswith("<outbox-7.") and message["To"] == "ana@x.org"
    assert message["List-Unsubscribe"] == "<https://g/u?token=1>"
    assert message.get_body(("plain",)) is not None and message.get_body(("html",)) is not None
    row.subject = "hi\r\nBcc: everyone@x.org"
    with pytest.raises(ValueError):
        build(row, "games@x.org").as_bytes()
