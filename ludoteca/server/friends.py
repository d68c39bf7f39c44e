"""Friends and challenges (issue 36): the friends list with who is online and playing, the
block rules, and a challenge's life (made, accepted, declined, withdrawn, expired).

A challenge is a private table the challenger opens with the challenged person's seat kept
for them (``SeatState.reserved_for``: nobody else, and no bot, may take it); accepting is
joining that seat through the table's own ``Join`` command. A challenge that ends without
being accepted gives its table up (the table's ``Expire`` command), so no half-filled table
outlives it. Whoever must hear of a challenge is told through ``notify_challenge`` alone,
which hands it to the notification service (``notify.py``).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server import presence
from ludoteca.server.db import Seat, Table, User, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.friend_rows import Challenge
from ludoteca.server.friend_store import FriendStore
from ludoteca.server.hub import Hub
from ludoteca.server.table import commands
from ludoteca.server.table.state import stamp

log = logging.getLogger("ludoteca.friends")
OPEN = "open"


def store(hub: Hub) -> FriendStore:
    return FriendStore(hub.store.write, hub.store.sessions)


def notify_challenge(hub: Hub, user_id: int, summary: JSON, away: bool = False) -> None:
    """Tell one person that a challenge they made or received changed, through the
    notification service: their page's event stream always; with ``away`` (a challenge
    received) also by email and push, as they chose (``notify_prefs``: the ``challenge``
    event)."""
    hub.notifier.challenge(user_id, summary, away)


async def online(hub: Hub, user_ids: list[int]) -> set[int]:
    """Those of the people who have a page of the arena open (an event stream on any of its
    processes: ``presence.py``)."""
    found = await hub.presence.found(presence.online(uid) for uid in user_ids)
    return {uid for uid in user_ids if presence.online(uid) in found}


async def named(hub: Hub, name: str) -> User:
    """A real player by sign-in name (a guest has no page to be followed or challenged from)."""
    user = await hub.store.user_named(name[:40])
    if user is None or user.deleted_at is not None:
        raise ServerError("no_such_user", E.NO_SUCH_USER, 404, name=name[:40])
    return user


async def check_not_blocked(hub: Hub, by: User, who: User) -> None:
    """``by`` blocks ``who``: refuse what ``who`` asked of them."""
    if await store(hub).blocks(by.id, who.id):
        raise ServerError("blocked", E.BLOCKED, 403, name=by.display_name)


# ---- follows and the friends list -------------------------------------------------------------
async def friends_of(hub: Hub, user: User) -> list[JSON]:
    """Everyone ``user`` follows (a friend is one who follows back: ``mutual``), with whether
    they are online and the tables they are playing (a private table shows no id: only its
    players may watch it)."""
    friends = store(hub)
    ids = await friends.following(user.id)
    back = await friends.followers(user.id)
    users = await hub.store.users(ids)
    playing = await friends.playing(ids)
    ids = [uid for uid in ids if uid in users and users[uid].deleted_at is None]
    here = await online(hub, ids)
    out = []
    for uid in ids:
        u = users[uid]
        tables = [{"table": t.id if not t.private else None, "game": t.game,
                   "private": t.private} for t in playing.get(uid, [])]
        out.append({"name": u.name, "display_name": u.display_name, "mutual": uid in back,
                    "online": uid in here, "playing": tables})
    return out


# ---- challenges --------------------------------------------------------------------------------
async def summaries(hub: Hub, rows: list[Challenge]) -> list[JSON]:
    ids = {i for c in rows for i in (c.challenger_id, c.challenged_id)}
    users = await hub.store.users(list(ids))
    tables = await store(hub).tables([c.table_id for c in rows])
    out = []
    for c in rows:
        a, b, t = users.get(c.challenger_id), users.get(c.challenged_id), tables.get(c.table_id)
        out.append({
            "id": c.id, "status": c.status, "table": c.table_id,
            "challenger": a.name if a else None, "challenger_name": a.display_name if a else None,
            "challenged": b.name if b else None, "challenged_name": b.display_name if b else None,
            "game": t.game if t else None, "players": t.players if t else None,
            "options": dict(t.options) if t else None,
            "rated": t.rated if t else None, "mode": t.mode if t else None,
            "created_at": stamp(c.created_at), "expires_at": stamp(c.expires_at),
        })
    return out


async def summary(hub: Hub, challenge: Challenge) -> JSON:
    return (await summaries(hub, [challenge]))[0]


async def make(hub: Hub, challenger: User, challenged: User, table: Table) -> JSON:
    """Open ``table`` (private, the challenger in seat 0, seat 1 kept for the challenged,
    any others free for whoever has the invite) and tell the challenged."""
    if challenged.id == challenger.id:
        raise ServerError("challenge_self", E.CHALLENGE_SELF, 400)
    if challenged.guest:
        raise ServerError("challenge_guest", E.CHALLENGE_GUEST, 400)
    await check_not_blocked(hub, challenged, challenger)
    seats = [Seat(table_id="", seat=s, user_id=None, bot=None, zombie=False,
                  bank_seconds=table.bank_seconds, reserved_for=None)
             for s in range(table.players)]
    seats[0].user_id = challenger.id
    seats[1].reserved_for = challenged.id
    async with hub.account_limits.hold(challenger.id):
        await hub.account_limits.check_table(challenger.id, [])
        ref = await hub.tables.open(challenger, table, seats, {challenger.id: challenger})
    now = utcnow()
    challenge = Challenge(
        id=secrets.token_urlsafe(9)[:12], challenger_id=challenger.id,
        challenged_id=challenged.id, table_id=ref.snapshot().id, status=OPEN, created_at=now,
        expires_at=now + timedelta(minutes=hub.settings.challenge_minutes))
    friends = store(hub)
    await friends.add_challenge(challenge)
    out = await summary(hub, challenge)
    # one challenger's flood reaches the page, but one email and push a challenge's life long
    since = now - timedelta(minutes=hub.settings.challenge_minutes)
    first = await friends.challenged_since(challenger.id, challenged.id, since) == 1
    notify_challenge(hub, challenged.id, out, away=first)
    return out


async def found(hub: Hub, challenge_id: str) -> Challenge:
    challenge = await store(hub).challenge(challenge_id[:16])
    if challenge is None:
        raise ServerError("no_such_challenge", E.NO_SUCH_CHALLENGE, 404, id=challenge_id[:16])
    return challenge


async def _end(hub: Hub, challenge: Challenge, status: str) -> bool:
    """Settle an open challenge as ``status`` and give its table up (if still open); False if
    it was settled meanwhile. Both people are told."""
    if not await store(hub).settle(challenge.id, status):
        return False
    ref = await hub.tables.ref(challenge.table_id)
    if ref is not None:
        await ref.send(commands.Expire())
    challenge.status = status
    out = await summary(hub, challenge)
    for uid in (challenge.challenger_id, challenge.challenged_id):
        notify_challenge(hub, uid, out)
    return True


async def _check_open(hub: Hub, challenge: Challenge, now: datetime) -> None:
    """Refuse a challenge no longer open; one past its time is expired first."""
    if challenge.status == OPEN and challenge.expires_at <= now:
        await _end(hub, challenge, "expired")
        challenge.status = "expired"
    if challenge.status in ("expired", "withdrawn"):
        raise ServerError("challenge_expired", E.CHALLENGE_EXPIRED, 410)
    if challenge.status != OPEN:
        raise ServerError("challenge_answered", E.CHALLENGE_ANSWERED, 409)


async def accept(hub: Hub, user: User, challenge_id: str) -> JSON:
    """The challenged person takes their kept seat (the table starts if it is then full)."""
    challenge = await found(hub, challenge_id)
    if challenge.challenged_id != user.id:
        raise ServerError("not_your_challenge", E.NOT_YOUR_CHALLENGE, 403)
    await _check_open(hub, challenge, utcnow())
    ref = await hub.tables.ref(challenge.table_id)
    if ref is None or ref.snapshot().status != "open":  # the challenger gave the table up
        await _end(hub, challenge, "withdrawn")
        raise ServerError("challenge_expired", E.CHALLENGE_EXPIRED, 410)
    await ref.send(commands.Join(user.id, None, ref.snapshot().invite))
    if not await store(hub).settle(challenge.id, "accepted"):
        raise ServerError("challenge_expired", E.CHALLENGE_EXPIRED, 410)
    challenge.status = "accepted"
    out = await summary(hub, challenge)
    notify_challenge(hub, challenge.challenger_id, out)
    return out


async def decline(hub: Hub, user: User, challenge_id: str) -> JSON:
    """The challenged person declines, or the challenger withdraws: the table is given up."""
    challenge = await found(hub, challenge_id)
    if user.id not in (challenge.challenged_id, challenge.challenger_id):
        raise ServerError("not_your_challenge", E.NOT_YOUR_CHALLENGE, 403)
    await _check_open(hub, challenge, utcnow())
    status = "declined" if user.id == challenge.challenged_id else "withdrawn"
    if not await _end(hub, challenge, status):
        raise ServerError("challenge_answered", E.CHALLENGE_ANSWERED, 409)
    return await summary(hub, challenge)


async def expire_due(hub: Hub) -> int:
    """Expire every open challenge past its time (housekeeping); how many."""
    done = 0
    for challenge in await store(hub).due_challenges(utcnow()):
        if await _end(hub, challenge, "expired"):
            done += 1
            log.info("challenge expired", extra={"challenge": challenge.id})
    return done


def table_settings(**values: Any) -> Table:
    """A challenge's table: always private (it is nobody else's to join from the lobby)."""
    return Table(private=True, hints=False, zombie=False, **values)
