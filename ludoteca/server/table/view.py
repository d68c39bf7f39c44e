"""What a table's viewers are told, pure: the ``full``, ``update``, ``table`` and ``chat``
messages of docs/protocol.md, per viewer (a seat, or a spectator) and language.

Everything a viewer reads passes through here, from the match driver's per-viewer views and
events: a seat sees its own legal actions and nothing another seat may not know. The actor
builds each message once per (viewer, language) and sends the same text to every socket of
that kind.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.match import Step
from ludoteca.engine.parts import render_parts
from ludoteca.server import clocks
from ludoteca.server.errors import voice
from ludoteca.server.protocol import ChatMessage, Full, LogLine, StatePart, TableMessage, Update
from ludoteca.server.table.core import RECENT, TableCore


class TableViews:
    """The message builder of one table (it keeps the table's sentences per language)."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self._voices: dict[str, Voice] = {}
        self._said: dict[str, dict[tuple[str, str], str]] = {}
        """Score parts' sentences per language (render_parts); they follow the names."""
        self._names: list[str] = []
        self._memo: dict[str, _Memo] = {}
        """Records with parts already rendered, per language (render_parts' ``memo``)."""

    def voice(self, lang: str) -> Voice:
        """The table's sentences (game, engine and server catalogs) with its player names."""
        names = self.core.names()
        if names != self._names:
            self._voices.clear()
            self._said.clear()
            self._memo.clear()
            self._names = names
        found = self._voices.get(lang)
        if found is None:
            locale = self.core.game.locale
            folders = () if locale is None else (locale,) if isinstance(locale, Path) else locale
            found = self._voices[lang] = voice(lang, names, folders)
        return found

    def events(self, step: Step, viewer: int | None, say: Voice) -> list[JSON]:
        """A log entry's events as ``viewer`` may know them, each with its sentence."""
        if step.kind == "undo":
            notice: JSON = {"type": "undo", "seat": step.seat}
            return [{**notice, "text": notice_text(notice, say)}]
        if step.kind == "note":
            notice = {**step.action, "seat": step.seat}
            return [{**notice, "text": notice_text(notice, say)}]
        game = self.core.game
        return [{**data, "text": game.render_event(data, say)}
                for data in step.events_for(viewer)]

    def state(self, viewer: int | None, lang: str, now: datetime, say: Voice) -> StatePart:
        """The part of ``full`` and ``update`` that describes the table now; score parts and
        tie-break reasons carry their sentence in the viewer's language (``say``)."""
        core = self.core
        match = core.match
        base = (core.seq, core.table.status, clocks.show(core.table, core.seats, now),
                self.render(core.table.result, lang, say))
        if match is None:
            return StatePart(seq=base[0], status=base[1], clocks=base[2], result=base[3],
                             view=None, legal=[], to_act=[], undo=False)
        acting = core.to_act()
        mine = viewer is not None and viewer in acting and not core.is_bot(viewer)
        return StatePart(
            seq=base[0], status=base[1], clocks=base[2], result=base[3],
            view=self.render(match.view(viewer), lang, say),
            legal=[a.to_json() for a in match.legal(viewer)] if mine and viewer is not None
            else [],
            to_act=sorted(acting),
            undo=core.can_undo(viewer),
        )

    def full(self, viewer: int | None, lang: str, now: datetime) -> str:
        core = self.core
        say = self.voice(lang)
        recent = core.match.recent(RECENT) if core.match is not None else []
        message = Full(
            type="full",
            table=self.summary(lang),
            you=viewer,
            **self.state(viewer, lang, now, say),
            log=[LogLine(seq=step.seq, seat=step.seat if step.kind == "act" else None,
                         events=self.events(step, viewer, say)) for step in recent],
            chat=list(core.chat),
        )
        return dumps(message)

    def update(self, viewer: int | None, lang: str, now: datetime) -> str:
        """The message a viewer gets after the log's last entry: the new ``seq``, its events as
        that viewer may know them, its view and legal actions, the clocks."""
        core = self.core
        assert core.match is not None and core.match.log
        step = core.match.log[-1]
        say = self.voice(lang)
        return dumps(Update(
            type="update",
            **self.state(viewer, lang, now, say),
            seat=step.seat if step.kind == "act" else None,
            events=self.events(step, viewer, say),
        ))

    def summary(self, lang: str) -> JSON:
        """The table's summary, its result's parts said in ``lang``."""
        return dict(self.render(self.core.summary(), lang, self.voice(lang)))

    def render(self, data: Any, lang: str, say: Voice) -> Any:
        """``data`` with its score parts said in ``lang`` by ``say`` (``render_parts``)."""
        said = self._said.setdefault(lang, {})
        if len(said) > 4096:  # a long Dynasty's parts: start again rather than grow
            said.clear()
        memo = self._memo.get(lang)
        if memo is None:
            memo = self._memo[lang] = _Memo()
        return render_parts(data, say, said, memo.at(self.core.seq))

    def table(self, viewer: int | None, lang: str, now: datetime) -> str:
        return dumps(TableMessage(self.summary(lang)).to_wire())


class _Memo:
    """Rendered records, by identity, for a few log entries: a kingdom nobody changed since
    the last move is rendered once for every viewer and every move. Few are kept (a game that
    builds fresh records each time gains nothing, and each entry pins its record)."""

    LIMIT = 16

    def __init__(self) -> None:
        self.seq = -1
        self.rendered: dict[int, tuple[Any, Any]] = {}

    def at(self, seq: int) -> dict[int, tuple[Any, Any]]:
        if seq != self.seq:
            self.seq = seq
            if len(self.rendered) > self.LIMIT:
                self.rendered.clear()
        return self.rendered


def chat_message(line: JSON) -> str:
    return dumps(ChatMessage(line).to_wire())


NOTICES = {
    "undo": N_("{player} took back their last move."),
    "takeover": N_("{player} is out of the game; a bot plays their seat."),
    "rematch_offer": N_("{player} offers a rematch."),
    "rematch_accept": N_("{player} accepts the rematch."),
    "rematch_decline": N_("{player} declines the rematch."),
    "rematch_made": N_("The rematch is ready: everyone accepted."),
    "hint": N_("{player} asked the coach for a hint."),
}


def dumps(message: Any) -> str:
    """A message's text. orjson: encoding the views was an eighth of the server's CPU under
    load with the standard library's encoder (benchmarks/server.py, py-spy). Keys that are
    not strings (a few views key by seat) take orjson's slower option, only when needed: it
    costs twice the time on every message."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def notice_text(notice: JSON, say: Voice) -> str:
    seat = int(notice["seat"])
    return say.t(NOTICES[notice["type"]], player=say.name(seat) if seat >= 0 else "")
