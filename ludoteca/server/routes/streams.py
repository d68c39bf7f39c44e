"""Server-sent events: the lobby for everyone; a player's turns, rematches and results."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from fastapi import Request
from fastapi.responses import StreamingResponse

from ludoteca.server.protocol import ReconnectEvent, SignedOutEvent, WaitingEvent
from ludoteca.server.routes.deps import (
    HubDep,
    MaybeUser,
    api_router,
)
from ludoteca.server.waiting import turn_tables

router = api_router()


# ---- streams ---------------------------------------------------------------------------------
@router.get(
    "/events",
    summary="Server-sent events: lobby changes for everyone; the turn-based tables waiting for "
    "you, your turns and finished matches",
    response_class=StreamingResponse,
)
async def events(request: Request, hub: HubDep, user: MaybeUser) -> StreamingResponse:
    uid = user.id if user is not None else None
    queue = hub.streams.subscribe(uid)

    async def stream() -> AsyncIterator[str]:
        try:
            yield ": ludoteca\n\n"
            if uid is not None:  # read after subscribing: a turn told meanwhile is queued too
                waiting = WaitingEvent(await turn_tables(hub, uid))
                yield f"event: {waiting.TYPE}\ndata: {waiting.text()}\n\n"
            while True:
                if hub.closing and queue.empty():  # told what came first; then, always, this
                    bye = ReconnectEvent()
                    yield f"event: {bye.TYPE}\ndata: {bye.text()}\n\n"
                    break
                try:
                    text = await asyncio.wait_for(queue.get(), 15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                kind = json.loads(text).get("type", "message")
                yield f"event: {kind}\ndata: {text}\n\n"
                if kind in (ReconnectEvent.TYPE, SignedOutEvent.TYPE):
                    break
        finally:
            hub.streams.unsubscribe(uid, queue)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
    )

