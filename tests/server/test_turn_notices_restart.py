"""Turn notices survive a dead process (issue 36): a turn whose email and push were still
waiting for their delay when the server was SIGKILLed is told once by the server started
again on the same database, and a turn told before a kill is not told again after it (the
interval here is shorter than the wait, so only the told-record of the decision stops it).
A real ``ludoteca serve``, a real SMTP sink and a real push service on loopback, on SQLite and
on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mail_sink import Sink
from push_service import PushService

from tests.server.client import Player
from tests.server.conftest import Server
from tests.server.test_email import my_turn_table, with_email
from tests.server.test_push import opened, subscribed

DELAY = 3.0
"""Seconds a turn waits before its email: the kill comes well within them."""


@pytest.fixture(scope="module")
def sink() -> Iterator[Sink]:
    found = Sink()
    yield found
    found.close()


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    found = PushService()
    yield found
    found.close()


@pytest.fixture(scope="module")
def server(database_url: str, sink: Sink, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("server"),
                   LUDOTECA_SMTP_URL=f"smtp://127.0.0.1:{sink.port}",
                   LUDOTECA_MAIL_FROM="arena@ludoteca.test",
                   LUDOTECA_TURN_EMAIL_DELAY=str(DELAY), LUDOTECA_TURN_EMAIL_MINUTES="0.01",
                   LUDOTECA_WEBHOOK_TEST_NETWORKS="127.0.0.1/32",
                   LUDOTECA_PUSH_CONTACT="mailto:admin@ludoteca.test")
    found.env["LUDOTECA_PUBLIC_URL"] = found.base
    found.start()
    try:
        yield found
    finally:
        found.stop()


def test_a_turn_waiting_at_a_kill_is_told_once_after_the_restart(
    server: Server, sink: Sink, service: PushService
) -> None:
    mia = Player(server.base, "Durable_mia", "en")
    try:
        with_email(mia, sink, "mia@x.test")
        key = mia.ok(mia.http.get("/api/push"))["public_key"]
        browser = subscribed(mia, service, "mia")
        table = my_turn_table(mia)
        server.kill()  # within the delay: nothing was sent yet
        server.start()
        message = sink.to("mia@x.test")
        assert message["Subject"] == "Your move at Kami"
        text = message.get_body(("plain",))
        assert text is not None and f"/#/table/{table}" in text.get_content()
        assert opened(service, browser, key)["url"] == f"/#/table/{table}"
        sink.nothing(DELAY + 2)  # once, not twice
        service.nothing(0.5)

        # told already: another kill and start tell nothing of the same decision
        server.kill()
        server.start()
        sink.nothing(DELAY + 3)
        service.nothing(0.5)
    finally:
        mia.close()
