"""Typed errors a person can cause, said in their language: ``{type:"error", code, message}``.

Every refusal the server sends (HTTP or WebSocket) is one of these or an engine error
(``engine/errors.py``), so clients can rely on ``code`` and show ``message`` as is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from ludoteca.engine.errors import LudotecaError
from ludoteca.engine.i18n import LANGUAGES, N_, Voice

SERVER_LOCALE = Path(__file__).resolve().parent / "locale"


def voice(
    lang: str, names: Sequence[str] = (), folders: Iterable[Path] | None = None
) -> Voice:
    """Sentences in ``lang`` from the engine's, the server's and the given catalogs (by
    default every game's, for refusals that may come from any game's options)."""
    found = game_folders() if folders is None else tuple(folders)
    return Voice(lang if lang in LANGUAGES else "en", names, (*found, SERVER_LOCALE))


@cache
def game_folders() -> tuple[Path, ...]:
    from ludoteca.games import all_games

    out: list[Path] = []
    for game in all_games():
        locale = game.locale
        for folder in (() if locale is None else (locale,) if isinstance(locale, Path) else locale):
            if folder not in out:
                out.append(folder)
    return tuple(out)


class ServerError(LudotecaError):
    """A refusal with an HTTP status (WebSocket messages carry only code and message)."""

    def __init__(self, code: str, msgid: str, status: int = 400, **fields: object) -> None:
        Exception.__init__(self, msgid.format(**fields))
        self.msgid = msgid
        self.fields = fields
        self.code = code
        self.status = status


class Stopped(ServerError):
    """A table's actor was let go of (nobody watched it) or the server is stopping: load the
    table again."""

    def __init__(self) -> None:
        super().__init__("stopped", SHUTTING_DOWN, 503)


def language_from_header(header: str | None) -> str:
    """The first of our languages an ``Accept-Language`` header asks for, by its q-values."""
    if not header:
        return "en"
    best: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().split("-")[0].lower()
        if lang in LANGUAGES and q > 0:
            best.append((-q, i, lang))
    return min(best)[2] if best else "en"


# The refusals, by code. Kept here so ``make messages`` finds every one.
NOT_SIGNED_IN = N_("Sign in first (or play as a guest).")
BAD_CREDENTIALS = N_("Wrong name or password.")
NAME_TAKEN = N_("The name {name} is taken.")
BAD_NAME = N_(
    "A name has 3 to 24 letters, digits, dots, dashes or underscores, and starts with a letter."
)
BAD_PASSWORD = N_("A password has 8 to 128 characters.")
NOT_A_GUEST = N_("This account already has a password.")
TOO_MANY = N_("Too many attempts; wait {seconds} seconds and try again.")
NO_SUCH_TABLE = N_("There is no table {table}.")
NO_SUCH_USER = N_("There is no player {name}.")
NO_SUCH_GAME = N_("There is no game {game}; the games are: {games}.")
NOT_FOUND = N_("Nothing here: {path}.")
BAD_REQUEST = N_("The request is not valid: {detail}")
UNKNOWN_FIELD = N_("The message has a field {field} its type does not have.")
TOO_LARGE = N_("The message is too large ({size} bytes; at most {limit}).")
BAD_JSON = N_("The message is not valid JSON.")
UNKNOWN_MESSAGE = N_("Unknown message type {kind}; known: {known}.")
NOT_SEATED = N_("You have no seat at this table.")
SEAT_TAKEN = N_("Seat {seat} is taken.")
TABLE_FULL = N_("The table is full.")
ALREADY_SEATED = N_("You already sit at this table.")
NOT_OPEN = N_("The table has already started.")
NOT_PLAYING = N_("The table is not being played.")
NOT_FINISHED = N_("The match is not over yet; its record is kept until the end.")
NOT_YOUR_SEAT = N_("Until the match ends, a replay shows only your own seat's view.")
NOT_HOST = N_("Only the table's host may do that.")
WRONG_INVITE = N_("This table is private: it needs its invite link.")
CHAT_EMPTY = N_("Say something: the line is empty.")
CHAT_LONG = N_("A chat line has at most {limit} characters.")
CHAT_FAST = N_("Not so fast: at most {count} lines every {seconds} seconds.")
NO_UNDO = N_("Nothing to take back: {why}")
UNDO_NOTHING = N_("you have not moved since the last turn changed hands.")
UNDO_REVEALED = N_("your last move revealed something hidden.")
UNDO_OTHERS = N_("another player has moved since.")
BAD_ORIGIN = N_("Connections from {origin} are not accepted.")
BAD_CLOCK = N_("Choose a time control: {detail}")
SHUTTING_DOWN = N_("The server is restarting; reconnect in a moment.")
SERVER_FAILED = N_("The server failed to save that; nothing changed. Try again.")
NO_REMATCH_OFFER = N_("No rematch has been offered (or the offer expired).")
SERVER_BUG = N_("Something went wrong on the server; nothing changed. Try again.")
BAD_WEBHOOK = N_("A webhook address starts with http:// or https://.")
BAD_LANGUAGE = N_("Unknown language {lang}; known: {known}.")
BAD_BOT = N_("Unknown bot level {level}; known: {known}.")
METHOD_NOT_ALLOWED = N_("{method} is not allowed on {path}.")
NO_SUCH_SEAT = N_("There is no seat {seat}: the seats are numbered 0 to {last}.")
# issue 23: what one client or account may cost the arena
SOCKET_FLOOD = N_("Too many messages: at most {count} every {seconds} seconds. Closing.")
SOCKETS_PER_ADDRESS = N_("Too many table connections from your address (at most {count}).")
SOCKETS_PER_ACCOUNT = N_("Too many table connections for your account (at most {count}).")
TOO_DEEP = N_("The message nests too deeply (at most {limit} levels).")
WEBHOOK_CHARACTERS = N_("A webhook address has no spaces or control characters.")
WEBHOOK_CREDENTIALS = N_("A webhook address carries no user name or password.")
WEBHOOK_NUMERIC = N_("Write the webhook's IP address in the usual form, not {host}.")
WEBHOOK_UNRESOLVED = N_("The webhook's host {host} has no address.")
WEBHOOK_PRIVATE = N_(
    "A webhook must reach a public address; {host} is {address}, which is not public.")
TOO_MANY_TABLES = N_(
    "One account may host {count} open or running tables at once, and the host has as many; "
    "finish or leave one first.")
TOO_MANY_BOTS = N_(
    "An account's tables may have {count} bots at search levels ({levels}) at most; the host's "
    "have {have}, and this would add {more}. Choose an easier level or finish a table first.")
HINTS_RATED = N_("Hints are for unrated tables: a rated match is played unaided.")
HINTS_OFF = N_("This table does not allow hints; its host can allow them for a new table.")
ANALYSIS_FAILED = N_("The analysis stopped on an error; ask for it again.")
ANALYSIS_GONE = N_("The analysis stopped: its match could not be read again.")
NO_ANALYSIS = N_("This match has no analysis yet; ask for it and wait until it is done.")
NOT_YOUR_DECISION = N_("Only the player who made that move may try it again.")
NOT_LEGAL_THEN = N_("That move was not among the legal moves of that decision.")
TOO_MANY_ANALYSES = N_(
    "An account may have one analysis in the making at a time; wait until yours is done.")
# accounts and the lobby (issue 23)
RESERVED_NAME = N_("The name {name} is reserved; choose another.")
NAME_LOOKALIKE = N_("The name {name} looks too much like another player's; choose another.")
BAD_DISPLAY_NAME = N_(
    "A display name has 3 to 24 letters, digits, spaces, dots, dashes, underscores or "
    "apostrophes, and starts with a letter."
)
WRONG_PASSWORD = N_("That is not your current password.")
SEAT_FREE = N_("Seat {seat} is already free.")
OWN_SEAT = N_("That is your own seat: leave the table instead.")
SEAT_CHANGED = N_("Seat {seat} changed meanwhile; look again.")
SIGNED_OUT = N_("You were signed out: your password changed, or your account was signed out "
                "everywhere else or deleted.")
NO_PASSWORD = N_("A guest has no password yet: keep the account with a password first.")
# requests and the web (issue 23)
URL_TOO_LONG = N_("The address is too long (at most {limit} bytes).")
HEADER_TOO_LARGE = N_("A request header is too long (at most {limit} bytes).")
HEADERS_TOO_LARGE = N_("The request's headers are too large (at most {limit} bytes together).")
COOKIE_TOO_LARGE = N_(
    "The request's cookies are too large (at most {limit} bytes): clear this site's cookies."
)
REQUEST_TIMEOUT = N_("The request took more than {seconds} seconds to arrive.")
BAD_HOST = N_("This server does not answer to the name {host}.")
NO_ORIGIN = N_(
    "A request that changes something must come from this site's pages, or name its program "
    "in the X-Ludoteca-Client header."
)
EXTRA_BOTS = N_("{count} bots for {seats} seats: at most one bot for each seat after yours.")
RATED_BOTS = N_(
    "A bot sits at a rated table only from its opening, named with the table's bots: open a "
    "new table with it, or an unrated one."
)
NO_LADDER = N_(
    "The {level} bot has no rating on the {game} ladder for {players} players, so a match "
    "against it cannot be rated: open an unrated table, or choose another bot."
)
BAD_POOL = N_(
    "There is no rating pool {pool}: ask for all, bots or season:<id> (the seasons are listed "
    "at /api/seasons/{game})."
)
OPTION_NOT_BOOL = N_("Option {option} takes true or false (a JSON boolean), not {value}.")
OPTION_NOT_INT = N_("Option {option} takes a whole number (a JSON number), not {value}.")
# tournaments (issue 35)
NO_SUCH_TOURNAMENT = N_("There is no tournament {id}.")
TOURNAMENT_FULL = N_("The tournament is full ({max} entrants).")
TOURNAMENT_STARTED = N_("The tournament has started or ended: registering and withdrawing are "
                        "closed.")
NOT_REGISTERED = N_("You are not registered in this tournament.")
ALREADY_REGISTERED = N_("You are already registered in this tournament.")
# the tournament's own words: a private table's are WRONG_INVITE's (one name each; this one once
# hid that one, and a private table answered with the tournament's words)
WRONG_TOURNAMENT_INVITE = N_("This tournament is invite-only: its invitation link is needed to "
                             "register.")
BAD_TOURNAMENT = N_("That tournament cannot be made: {detail}.")
TOURNAMENTS_OPERATORS = N_("Only the arena's operators may create tournaments here.")
NOT_TOURNAMENT_HOST = N_("Only the tournament's creator may do that.")
GUEST_TOURNAMENT = N_("Keep your guest account with a password to create a tournament.")
ARENA_MINUTES = N_("An arena needs its length in minutes (1 to 1440).")
ARENA_LIVE = N_("An arena is played live: choose a live clock.")
# issue 36: email and notifications
EMAIL_OFF = N_("This arena sends no email.")
BAD_EMAIL = N_("An email address looks like name@example.org (at most 254 characters).")
EMAIL_TAKEN = N_("Another account already uses this email address.")
BAD_EMAIL_LINK = N_("This link is not valid: it was used already, it expired, or it is "
                    "incomplete. Ask for a new one.")
EMAIL_GUESTS = N_("Keep your guest account first (choose a name and a password).")
BAD_TIME_ZONE = N_("Unknown time zone {zone}: use a name like Europe/Madrid.")
BAD_QUIET = N_("Quiet hours are two times like 22:00 and 08:00, or none.")
BAD_NOTIFY = N_("Unknown notification {item}; the events are {events} and the channels "
                "{channels}.")
# friends and challenges (issue 36)
FOLLOW_SELF = N_("You cannot follow yourself.")
BLOCK_SELF = N_("You cannot block yourself.")
BLOCKED = N_("{name} does not take follows, challenges or seats from you.")
CHAT_BLOCKED = N_("Someone at this table has blocked you: your line was not sent.")
CHALLENGE_SELF = N_("You cannot challenge yourself.")
NO_SUCH_CHALLENGE = N_("There is no challenge {id}.")
CHALLENGE_EXPIRED = N_("This challenge has expired or was withdrawn.")
CHALLENGE_ANSWERED = N_("This challenge was already answered.")
NOT_YOUR_CHALLENGE = N_("This challenge is not yours to answer.")
CHALLENGE_GUEST = N_("Guests cannot be challenged: they have no page.")
BAD_PUSH = N_("This is not a push subscription: an https endpoint of at most 1024 characters on "
              "a public address, with its keys p256dh and auth.")
NO_SUCH_DEVICE = N_("No such device among yours.")
