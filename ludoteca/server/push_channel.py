"""The Web Push channel of the notification service: what a notice says (the email's words,
in the player's language: ``mail_words``), as the small JSON the service worker shows
(``web/static/sw.js``): a title, a line, the page to open (a path of this arena) and a tag
(a newer notice about the same table replaces the older one). It carries what the email
does and no more: game titles, the round, who offered a rematch or a challenge; never a move
or a hand."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ludoteca.server import mail_words as W
from ludoteca.server.db import User, utcnow
from ludoteca.server.errors import voice
from ludoteca.server.notify_prefs import quiet_until
from ludoteca.server.push import PushSender
from ludoteca.server.push_store import PushStore

Payload = dict[str, Any]


def table_path(table_id: str) -> str:
    return f"/#/table/{table_id}"


def payload(lang: str, title: str, body: str, url: str, tag: str) -> Payload:
    return {"title": title[:120], "body": body[:300], "url": url, "tag": tag, "lang": lang}


def turn_payload(lang: str, tables: list[tuple[str, str, str]]) -> Payload:
    """``tables``: (table id, game title, path) of each table waiting; several: a digest."""
    v = voice(lang, folders=())
    if len(tables) == 1:
        table_id, game, url = tables[0]
        return payload(lang, v.t(W.TURN_SUBJECT, game=game), v.t(W.TURN_TEXT, game=game), url,
                       f"turn-{table_id}")
    games = ", ".join(game for _, game, _ in tables)
    return payload(lang, v.t(W.DIGEST_SUBJECT, n=len(tables)),
                   f"{v.t(W.DIGEST_TEXT)} {games}", "/#/", "turns")


def finished_payload(lang: str, game: str, table_id: str) -> Payload:
    v = voice(lang, folders=())
    return payload(lang, v.t(W.FINISHED_SUBJECT, game=game), v.t(W.FINISHED_TEXT, game=game),
                   table_path(table_id), f"finished-{table_id}")


def rematch_payload(lang: str, name: str, game: str, table_id: str) -> Payload:
    v = voice(lang, folders=())
    return payload(lang, v.t(W.REMATCH_SUBJECT, name=name, game=game),
                   v.t(W.REMATCH_TEXT, name=name, game=game), table_path(table_id),
                   f"rematch-{table_id}")


def player_path(name: str) -> str:
    return f"/#/player/{quote(name, safe='')}"


def challenge_payload(lang: str, name: str, game: str, until: str, me: str,
                      challenge_id: str) -> Payload:
    """A challenge received: it opens the player's own page, where challenges are answered."""
    v = voice(lang, folders=())
    return payload(lang, v.t(W.CHALLENGE_SUBJECT, name=name, game=game),
                   v.t(W.CHALLENGE_TEXT, name=name, game=game, until=until), player_path(me),
                   f"challenge-{challenge_id}")


def tournament_payload(lang: str, game: str, round_: int, table_id: str) -> Payload:
    v = voice(lang, folders=())
    return payload(lang, v.t(W.TOURNAMENT_SUBJECT, round=round_),
                   v.t(W.TOURNAMENT_TEXT, game=game, round=round_), table_path(table_id),
                   f"tournament-{table_id}")


class Push:
    def __init__(self, store: PushStore, sender: PushSender) -> None:
        self.store = store
        self.sender = sender

    async def notice(self, user: User, kind: str, data: Payload) -> None:
        """One outbox row per browser of the player's, held until their quiet hours end."""
        if await self.store.enqueue(user.id, data, kind, quiet_until(user, utcnow())):
            self.sender.wake()

    async def turns(self, user: User, tables: list[tuple[str, str]]) -> None:
        """``tables``: (table id, game title) of each table waiting."""
        await self.notice(user, "turn", turn_payload(
            user.language, [(t, title, table_path(t)) for t, title in tables]))
