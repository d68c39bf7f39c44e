"""Who may see a table, and what a member is shown of it beyond the public summary."""

from __future__ import annotations

from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server.db import User, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.table.snapshot import TableSnapshot


def is_member(table: TableSnapshot, user: User | None) -> bool:
    return user is not None and table.is_member(user.id)


def may_see(table: TableSnapshot, user: User | None, invite: str | None) -> None:
    """A private table is seen with its invite, or by its host and players."""
    if not table.private or invite == table.invite or is_member(table, user):
        return
    raise ServerError("wrong_invite", E.WRONG_INVITE, 403)


def for_member(table: TableSnapshot, user: User | None) -> JSON:
    """The table's summary; its host and players also get the invite link's token."""
    out = table.summary(utcnow())
    if is_member(table, user):
        out["invite"] = table.invite
    return out
