"""Following, blocking, the friends list and challenges (docs/protocol.md, "Friends and
challenges"); the rules live in ``friends.py``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server import friends
from ludoteca.server.errors import ServerError
from ludoteca.server.routes.deps import Body, HubDep, UserDep, api_router, game_named
from ludoteca.server.routes.lobby import check_clock, check_types

router = api_router()


class NewChallenge(Body):
    game: str = Field(max_length=32)
    players: int = 2
    options: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["live", "turn"] = "live"
    bank_seconds: float = 600.0
    increment_seconds: float = 10.0
    turn_hours: float = 24.0
    rated: bool = False


@router.get("/me/friends", summary="Everyone you follow (mutual: they follow you back), "
            "online or not, and the tables they are playing")
async def my_friends(user: UserDep, hub: HubDep) -> list[JSON]:
    return await friends.friends_of(hub, user)


@router.put("/users/{name}/follow", summary="Follow a player")
async def follow(name: str, user: UserDep, hub: HubDep) -> JSON:
    other = await friends.named(hub, name)
    if other.id == user.id:
        raise ServerError("follow_self", E.FOLLOW_SELF, 400)
    await friends.check_not_blocked(hub, other, user)
    await friends.store(hub).follow(user.id, other.id)
    return {"name": other.name, "following": True}


@router.delete("/users/{name}/follow", summary="Stop following a player")
async def unfollow(name: str, user: UserDep, hub: HubDep) -> JSON:
    other = await friends.named(hub, name)
    await friends.store(hub).unfollow(user.id, other.id)
    return {"name": other.name, "following": False}


@router.get("/me/blocks", summary="The players you block")
async def my_blocks(user: UserDep, hub: HubDep) -> list[JSON]:
    ids = await friends.store(hub).blocked_by(user.id)
    users = await hub.store.users(ids)
    return [{"name": users[i].name, "display_name": users[i].display_name}
            for i in ids if i in users]


@router.put("/users/{name}/block", summary="Block a player: no follow, challenge, chat or "
            "casual seat from them; their follow of you ends")
async def block(name: str, user: UserDep, hub: HubDep) -> JSON:
    other = await friends.named(hub, name)
    if other.id == user.id:
        raise ServerError("block_self", E.BLOCK_SELF, 400)
    await friends.store(hub).block(user.id, other.id)
    return {"name": other.name, "blocked": True}


@router.delete("/users/{name}/block", summary="Unblock a player")
async def unblock(name: str, user: UserDep, hub: HubDep) -> JSON:
    other = await friends.named(hub, name)
    await friends.store(hub).unblock(user.id, other.id)
    return {"name": other.name, "blocked": False}


@router.post("/users/{name}/challenge", summary="Challenge a player: a private table with "
             "their seat kept for them until they answer or the challenge expires")
async def challenge(name: str, body: NewChallenge, user: UserDep, hub: HubDep) -> JSON:
    hub.create_limit.hit(f"user:{user.id}")
    other = await friends.named(hub, name)
    game = game_named(body.game, 400)
    check_types(game, body.options)
    options = game.validate(body.options, body.players)
    check_clock(body.mode, body.bank_seconds, body.increment_seconds, body.turn_hours)
    table = friends.table_settings(
        game=game.spec.name, players=body.players, options=options, mode=body.mode,
        bank_seconds=body.bank_seconds if body.mode == "live" else 0.0,
        increment_seconds=body.increment_seconds if body.mode == "live" else 0.0,
        turn_hours=body.turn_hours if body.mode == "turn" else 0.0, rated=body.rated)
    return await friends.make(hub, user, other, table)


@router.get("/me/challenges", summary="Your open challenges, made and received, newest first")
async def my_challenges(user: UserDep, hub: HubDep) -> list[JSON]:
    rows = await friends.store(hub).challenges_of(user.id, [friends.OPEN])
    return await friends.summaries(hub, rows)


@router.get("/challenges/{challenge_id}", summary="One challenge (its two players only)")
async def one_challenge(challenge_id: str, user: UserDep, hub: HubDep) -> JSON:
    found = await friends.found(hub, challenge_id)
    if user.id not in (found.challenger_id, found.challenged_id):
        raise ServerError("not_your_challenge", E.NOT_YOUR_CHALLENGE, 403)
    return await friends.summary(hub, found)


@router.post("/challenges/{challenge_id}/accept", summary="Accept: take your kept seat")
async def accept(challenge_id: str, user: UserDep, hub: HubDep) -> JSON:
    return await friends.accept(hub, user, challenge_id)


@router.post("/challenges/{challenge_id}/decline", summary="Decline (the challenged) or "
             "withdraw (the challenger): the table is given up")
async def decline(challenge_id: str, user: UserDep, hub: HubDep) -> JSON:
    return await friends.decline(hub, user, challenge_id)
