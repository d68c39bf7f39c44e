"""An SMTP server on loopback for the tests (aiosmtpd, in a thread of the test process): the
arena under test sends to it over a real socket, and the test reads what arrived."""

from __future__ import annotations

import email
import queue
from email.message import EmailMessage
from email.policy import default
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from arena_process import free_port


class Sink:
    """An SMTP server on loopback that keeps every message it is given."""

    def __init__(self) -> None:
        self.received: queue.Queue[EmailMessage] = queue.Queue()
        received = self.received

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                message = email.message_from_bytes(envelope.content, policy=default)
                assert isinstance(message, EmailMessage)
                received.put(message)
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def next(self, timeout: float = 30) -> EmailMessage:
        return self.received.get(timeout=timeout)

    def to(self, address: str, timeout: float = 30) -> EmailMessage:
        """The next message, which must be to ``address``."""
        message = self.next(timeout)
        assert message["To"] == address, (message["To"], message["Subject"])
        return message

    def nothing(self, seconds: float) -> None:
        with pytest.raises(queue.Empty):
            found = self.received.get(timeout=seconds)
            raise AssertionError(f"unexpected email to {found['To']}: {found['Subject']}")

    def close(self) -> None:
        self.controller.stop()
