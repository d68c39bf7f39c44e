"""Deleting an account, by its owner or by the purge of unused guests: its seats are let go of
first (an open table frees the seat, a running match hands it to a bot, as when leaving), then
the row is made anonymous (or removed, if nothing refers to it) and its sessions end.

The history stays consistent: finished tables keep their seats, results and chat, now under an
anonymous name that nobody can sign in with or take.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime

from ludoteca.server.db import User
from ludoteca.server.errors import ServerError
from ludoteca.server.hub import Hub
from ludoteca.server.table.commands import Leave

log = logging.getLogger("ludoteca.accounts")


def anonymous_name() -> str:
    """``deleted_`` and hex digits: reserved (``names.py``), so no one can sign up as one."""
    return "deleted_" + secrets.token_hex(4)


async def leave_tables(hub: Hub, user: User) -> None:
    """Leave every open or running table the account sits at, each in its actor."""
    for table in await hub.store.playing(user.id):
        ref = await hub.tables.ref(table.id)
        if ref is None:
            continue
        try:
            await ref.send(Leave(user.id))
        except ServerError as exc:  # it left or the table moved on meanwhile
            log.info("table %s: leaving on deletion: %s", table.id, exc.code)


async def forget_account(hub: Hub, user: User,
                         only_guest_seen_before: datetime | None = None) -> str | None:
    """Delete ``user`` (see the module's docstring); its anonymous name (the row removed
    outright: ``""``), or None if this call deleted nothing (another process was first, or a
    purge found the guest used again)."""
    await leave_tables(hub, user)
    anonymous = anonymous_name()
    done, row = await hub.store.forget_user(user.id, anonymous, only_guest_seen_before)
    if not done:
        return None
    hub.signed_out(user.id)  # its sockets and streams close too
    await hub.push_store.forget(user.id)  # its browsers' push endpoints and what waited for them
    if row is None:
        return ""
    await hub.user_changed(row)
    return anonymous
