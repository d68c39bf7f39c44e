"""Who may see a table, and what a member is shown of it beyond the public summary."""

from __future__ import annotations

from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server.db import User
from ludoteca.server.errors import ServerError
from ludoteca.server.table.core import TableCore


def is_member(core: TableCore, user: User | None) -> bool:
    return user is not None and (user.id == core.table.host_id
                                 or core.seat_of(user.id) is not None)


def may_see(core: TableCore, user: User | None, invite: str | None) -> None:
    """A private table is seen with its invite, or by its host and players."""
    table = core.table
    if not table.private or invite == table.invite or is_member(core, user):
        return
    raise ServerError("wrong_invite", E.WRONG_INVITE, 403)


def for_member(core: TableCore, user: User | None) -> JSON:
    """The table's summary; its host and players also get the invite link's token."""
    out = core.summary()
    if is_member(core, user):
        out["invite"] = core.table.invite
    return out
