"""The HTTP JSON routes, one module per area; ``ROUTERS`` is what ``app.py`` mounts."""

from __future__ import annotations

from fastapi import APIRouter

from ludoteca.server.routes import (
    accounts,
    email,
    friends,
    history,
    lobby,
    push,
    streams,
    tables,
    tournaments,
)

ROUTERS: tuple[APIRouter, ...] = (
    accounts.router, lobby.router, tables.router, history.router, streams.router,
    tournaments.router, email.router, friends.router,
    push.router,
)
