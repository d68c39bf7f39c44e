"""Server settings: command-line flags over environment variables over defaults.

Every value is checked when ``Settings`` is built, so a mistake stops the arena before it
starts, with a ``SettingError`` whose message is the one line the operator sees (``ludoteca
serve`` prints it and exits with status 2). A new setting read from the environment goes
through ``_float``, ``_int``, ``_choice`` or ``_list(name, check)`` (checks: ``origin``,
``allowed_host``, ``proxy``, ``network``) and gets that for free; tests/security/
test_operators.py fails for a variable that takes any value.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from platformdirs import user_data_path
from sqlalchemy.engine import make_url

from ludoteca.server.seasons import SEASON_NAME, Seasons

DEFAULT_PORT = 8000
MESSAGE_LIMIT = 64 * 1024
"""The largest WebSocket message or HTTP body a client may send (bytes)."""

DATABASE_SCHEMES = ("sqlite://", "postgresql://", "postgres://", "postgresql+psycopg://")
"""The database URLs the arena runs on (docs/server.md, The database)."""
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
BOTS = ("local", "queue")
"""Where bot moves are chosen: this process's pool, or ``ludoteca worker`` through Redis."""


class SettingError(ValueError):
    """A setting the arena cannot run with. The message is all the operator sees: one line
    that names the setting, what it must be and what it was."""


def hide_password(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages that end up in logs."""
    return re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", url)


def default_database_url() -> str:
    """A SQLite file in the user data directory: nothing to install."""
    try:
        folder = user_data_path("ludoteca", appauthor=False, ensure_exists=True)
    except OSError as exc:
        raise SettingError(
            f"cannot create the data folder {exc.filename or ''} ({exc.strerror}): set "
            "XDG_DATA_HOME, or give --database-url / LUDOTECA_DATABASE_URL") from None
    return f"sqlite:///{folder / 'arena.sqlite3'}"


def _raw(name: str) -> str | None:
    """The variable's value, or None when it is unset or blank (blank counts as unset)."""
    raw = os.environ.get(name, "").strip()
    return raw or None


def _float(name: str, default: float, minimum: float = 0.0, *, above: bool = False) -> float:
    """A number of ``name`` in the environment (at least ``minimum``, or more than it if
    ``above``), else ``default``."""
    raw = _raw(name)
    return default if raw is None else number(name, raw, minimum, above=above)


def _int(name: str, default: int, minimum: int = 0) -> int:
    """A whole number of ``name`` in the environment (at least ``minimum``), else ``default``."""
    raw = _raw(name)
    return default if raw is None else whole_number(name, raw, minimum)


def _choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` from ``name`` in the environment, else ``default``."""
    raw = _raw(name)
    return default if raw is None else choice(name, raw, choices)


def _list(name: str, check: Callable[[str, str], str] | None = None) -> tuple[str, ...]:
    """The comma-separated items of ``name`` in the environment, each passed through
    ``check(name, item)`` (which raises a ``SettingError`` for a bad one)."""
    items = [item.strip() for item in (_raw(name) or "").split(",") if item.strip()]
    return tuple(check(name, item) if check else item for item in items)


def number(what: str, raw: str | float, minimum: float = 0.0, *, above: bool = False) -> float:
    """``raw`` as a finite number of at least ``minimum`` (more than it if ``above``: a period
    of 0 would spin, say); ``what`` names the setting."""
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < minimum or (above and value == minimum):
        bound = f"above {minimum:g}" if above else f"of at least {minimum:g}"
        raise SettingError(f"{what} must be a number {bound}, not {raw!r}")
    return value


def whole_number(what: str, raw: str | int, minimum: int = 0) -> int:
    """``raw`` as a whole number of at least ``minimum``; ``what`` names the setting."""
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise SettingError(f"{what} must be a whole number of at least {minimum}, not {raw!r}")
    return value


def choice(what: str, raw: str, choices: tuple[str, ...]) -> str:
    if raw not in choices:
        raise SettingError(f"{what} must be {' or '.join(choices)}, not {raw!r}")
    return raw


def account_name(what: str, raw: str) -> str:
    """A sign-in name as accounts have them (letters, digits, ``_ . -``), lowered."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", raw):
        raise SettingError(f"{what} takes sign-in names separated by commas, not {raw!r}")
    return raw.lower()


def origin(what: str, raw: str) -> str:
    """A browser origin as browsers send it (``https://host[:port]``): anything more (a
    path, a trailing slash) would never match, so it is refused rather than ignored."""
    if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", raw) or raw.endswith(":"):
        raise SettingError(
            f"{what} must list origins like https://games.example.org (scheme, host and "
            f"port only), not {raw!r}")
    return raw


def proxy(what: str, raw: str) -> str:
    """A proxy's address or network, as uvicorn matches them: it takes anything else (a host
    name, ``10.0.0.1/24``) for a literal that never matches, and trusts nobody, silently."""
    try:
        ipaddress.ip_network(raw)
    except ValueError:
        raise SettingError(
            f"{what} must list IP addresses or networks like 10.0.0.0/24 (or be *), not "
            f"{raw!r}") from None
    return raw


def proxies(name: str) -> tuple[str, ...]:
    """``*`` alone (every address), or a list of addresses and networks."""
    found = _list(name, lambda what, raw: raw if raw == "*" else proxy(what, raw))
    if "*" in found and len(found) > 1:
        raise SettingError(f"{name} must be * alone or a list of addresses, not both")
    return found


_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"


def allowed_host(what: str, raw: str) -> str:
    """A host name a request may name: ``games.example.org``, ``.example.org`` (and its
    subdomains) or ``*``; with a port, a scheme or a path it would never match."""
    if raw != "*" and not re.fullmatch(rf"\.?{_LABEL}(\.{_LABEL})*\.?", raw):
        raise SettingError(f"{what} must list host names like games.example.org or "
                           f".example.org (or *), not {raw!r}")
    return raw


def network(what: str, raw: str) -> str:
    try:
        ipaddress.ip_network(raw, strict=False)
    except ValueError:
        raise SettingError(
            f"{what} must list IP networks like 127.0.0.1/32, not {raw!r}") from None
    return raw


def season_start(what: str, raw: str) -> str:
    """One ``NAME=YYYY-MM-DD`` item of ``LUDOTECA_SEASONS`` (checked, returned as given)."""
    name, _, day = raw.partition("=")
    try:
        datetime.strptime(day.strip(), "%Y-%m-%d")
    except ValueError:
        day = ""
    if not SEASON_NAME.fullmatch(name.strip()) or not day:
        raise SettingError(f"{what} must list seasons like 2027-spring=2027-03-01 (a name of "
                           f"letters, digits, - or _, then its first day), not {raw!r}")
    return raw


def seasons(name: str) -> Seasons:
    """The operator's seasons from ``name`` (each once, in the order they start); unset:
    calendar quarters."""
    items = _list(name, season_start)
    starts = []
    for item in items:
        season, _, day = item.partition("=")
        starts.append((season.strip(),
                       datetime.strptime(day.strip(), "%Y-%m-%d").replace(tzinfo=UTC)))
    days = [day for _, day in starts]
    if len({s for s, _ in starts}) != len(starts) or days != sorted(set(days)):
        raise SettingError(f"{name} must list each season once, in the order they start, not "
                           f"{','.join(items)!r}")
    return Seasons(tuple(starts))


def folder(what: str, raw: str) -> Path:
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise SettingError(f"{what} must be a folder that exists, not {raw!r}")
    return path


def check_database_url(url: str) -> str:
    """A database URL the arena runs on (SQLite or PostgreSQL), well formed."""
    where = "the database URL (--database-url, LUDOTECA_DATABASE_URL)"
    if not url.startswith(DATABASE_SCHEMES):
        raise SettingError(f"{where} must start with sqlite:/// or postgresql://, not "
                           f"{hide_password(url)!r}")
    try:
        parsed = make_url(url.replace("postgres://", "postgresql://", 1))
        port = parsed.port
    except Exception as exc:
        raise SettingError(f"{where} is malformed ({exc}): {hide_password(url)!r}") from None
    if port is not None and not 0 < port < 65536:
        raise SettingError(f"{where} names port {port}, which does not exist")
    return url


def check_redis_url(url: str) -> str:
    """A Redis URL as redis-py reads it; its server is reached later (it may be restarting)."""
    from redis.connection import ConnectionPool

    where = "the Redis URL (--redis-url, LUDOTECA_REDIS_URL)"
    if not url.startswith(REDIS_SCHEMES):
        raise SettingError(f"{where} must start with redis://, rediss:// or unix://, not "
                           f"{hide_password(url)!r}")
    try:
        ConnectionPool.from_url(url)
    except ValueError as exc:
        raise SettingError(f"{where} is malformed ({exc}): {hide_password(url)!r}") from None
    return url


_ADDRESS = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+")
"""An email address as the arena takes one: no display name, comments, quotes or spaces, so
nothing in it can end a header or add a recipient (``mail.py``)."""


def mail_address(what: str, raw: str) -> str:
    if len(raw) > 254 or not _ADDRESS.fullmatch(raw):
        raise SettingError(f"{what} must be an email address like games@example.org, not "
                           f"{raw[:80]!r}")
    return raw


def check_smtp_url(what: str, raw: str) -> str:
    """``smtp://[user:password@]host[:port][?starttls=yes|no]`` or ``smtps://...`` (TLS from
    the first byte): parsed once here so a typo stops the arena, not its first email."""
    from ludoteca.server.mail_server import MailServerError, parse_smtp_url

    try:
        parse_smtp_url(raw)
    except MailServerError as exc:
        raise SettingError(f"{what} {exc}: {hide_password(raw)!r}") from None
    return raw


def public_url(what: str, raw: str) -> str:
    """The address people open the arena at (links in emails): scheme and host, with a
    port, no path."""
    if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", raw) or raw.endswith(":"):
        raise SettingError(f"{what} must be the arena's address like https://games.example.org "
                           f"(scheme, host and port only), not {raw!r}")
    return raw


def push_contact(what: str, raw: str) -> str:
    """Web Push's VAPID contact: ``mailto:`` a bare address, or an ``https://`` address."""
    if raw.startswith("mailto:"):
        mail_address(what, raw.removeprefix("mailto:"))
        return raw
    if not re.fullmatch(r"https://[A-Za-z0-9.\-\[\]:]+(/[\x21-\x7e]*)?", raw):
        raise SettingError(f"{what} must be mailto:someone@example.org or an https:// address, "
                           f"not {raw[:80]!r}")
    return raw


def check_games() -> None:
    """The games load, with any ``LUDOTECA_GAMES`` adds (``ludoteca/games/__init__.py``): a
    package that cannot be imported stops the arena before it starts, not at the first table."""
    from ludoteca.games import GamesError, registry

    try:
        registry()
    except GamesError as exc:
        raise SettingError(str(exc)) from None


@dataclass
class Settings:
    database_url: str = field(
        default_factory=lambda: _raw("LUDOTECA_DATABASE_URL") or default_database_url()
    )
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    bot_delay: float = field(default_factory=lambda: _float("LUDOTECA_BOT_DELAY", 0.8))
    """Least seconds between a table's last move and a bot's answer, so people can follow."""
    bot_processes: int = field(default_factory=lambda: _int("LUDOTECA_BOT_PROCESSES", 0))
    """Processes that choose bot moves (0: one per core, at least 1)."""
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: _list("LUDOTECA_ALLOWED_ORIGINS", origin)
    )
    """WebSocket origins accepted besides the server's own address."""
    auth_rate: int = field(default_factory=lambda: _int("LUDOTECA_AUTH_RATE", 10, 1))
    """Sign-ins, sign-ups and guest accounts per minute and client address."""
    create_rate: int = field(default_factory=lambda: _int("LUDOTECA_CREATE_RATE", 20, 1))
    """Tables a user may create per minute."""
    chat_rate: int = 5
    """Chat lines a user may send per 10 seconds and table."""
    redis_url: str | None = field(
        default_factory=lambda: _raw("LUDOTECA_REDIS_URL")
    )
    """Set: this process is one of several serving the arena (docs/deploy.md); table messages
    and notifications go through this Redis. None: everything stays in this process."""
    lease_seconds: float = field(
        default_factory=lambda: _float("LUDOTECA_LEASE_SECONDS", 10.0, above=True))
    """How long a process's hold on a table's clocks and bots lasts unless renewed: when a
    process dies, another takes its tables over within about this time."""
    bots: str = field(default_factory=lambda: _choice("LUDOTECA_BOTS", "local", BOTS))
    """``local``: bot moves in this process's own pool; ``queue``: sent through Redis to
    ``ludoteca worker`` processes (this pool only when no worker is seen)."""
    rematch_seconds: float = field(
        default_factory=lambda: _float("LUDOTECA_REMATCH_SECONDS", 120.0, above=True))
    """How long a rematch offer waits for the other players' answers."""
    session_days: int = 30
    # ---- tournaments (docs/tournaments.md "Lifecycle") ----------------------------------------
    tournaments: str = field(default_factory=lambda: _choice(
        "LUDOTECA_TOURNAMENTS", "everyone", ("everyone", "operators")))
    """Who may create tournaments: every signed-in person (guests excepted), or only the
    accounts named in ``LUDOTECA_OPERATORS``."""
    operators: tuple[str, ...] = field(
        default_factory=lambda: _list("LUDOTECA_OPERATORS", account_name))
    """The sign-in names of the arena's operators (compared without regard to case)."""
    director_seconds: float = field(
        default_factory=lambda: _float("LUDOTECA_DIRECTOR_SECONDS", 1.0, above=True))
    """How often the tournament director looks at every tournament (it also looks at once
    when one of their tables ends)."""
    # ---- accounts and the lobby (docs/server.md "Accounts and the lobby") -------------------
    account_signin_rate: int = field(
        default_factory=lambda: _int("LUDOTECA_ACCOUNT_SIGNIN_RATE", 10, 1))
    """Failed sign-ins per account name per 15 minutes, from all addresses together; then that
    name's sign-ins are refused until the window moves on."""
    trusted_proxies: tuple[str, ...] = field(
        default_factory=lambda: proxies("LUDOTECA_TRUSTED_PROXIES"))
    """Addresses (or networks) of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed; empty: nobody's, the socket's address counts."""
    open_table_minutes: float = field(
        default_factory=lambda: _float("LUDOTECA_OPEN_TABLE_MINUTES", 60.0, above=True))
    """An open table that has not started this long after it was opened is abandoned."""
    challenge_minutes: float = field(
        default_factory=lambda: _float("LUDOTECA_CHALLENGE_MINUTES", 30.0, above=True))
    """A challenge not answered this long after it was made expires: its table is given up."""
    guest_days: float = field(
        default_factory=lambda: _float("LUDOTECA_GUEST_DAYS", 30.0, above=True))
    """A guest account not used for this long is purged with its sessions."""
    housekeeping_seconds: float = field(
        default_factory=lambda: _float("LUDOTECA_HOUSEKEEPING_SECONDS", 60.0, above=True))
    """How often the server looks for open tables and guests to let go of."""
    webhook_timeout: float = 5.0
    # ---- what one client or account may cost the arena (issue 23; docs/server.md) ----
    socket_rate: int = field(default_factory=lambda: _int("LUDOTECA_SOCKET_RATE", 200, 1))
    """Messages one table socket may send per 10 seconds; a flood is closed."""
    sockets_per_address: int = field(
        default_factory=lambda: _int("LUDOTECA_SOCKETS_PER_ADDRESS", 100, 1))
    sockets_per_account: int = field(
        default_factory=lambda: _int("LUDOTECA_SOCKETS_PER_ACCOUNT", 20, 1))
    tables_per_account: int = field(
        default_factory=lambda: _int("LUDOTECA_TABLES_PER_ACCOUNT", 10, 1))
    """Open and running tables one account may host at once."""
    search_bots_per_account: int = field(
        default_factory=lambda: _int("LUDOTECA_SEARCH_BOTS_PER_ACCOUNT", 4))
    """Bots at search levels (medium, hard) at the open and running tables one account hosts."""
    webhook_test_networks: tuple[str, ...] = field(
        default_factory=lambda: _list("LUDOTECA_WEBHOOK_TEST_NETWORKS", network))
    """For tests only (default empty): networks webhooks may reach besides public ones, such
    as ``127.0.0.1/32`` for a receiver in the test itself. Never set it on a real server."""
    webhook_test_hosts: str | None = field(
        default_factory=lambda: _raw("LUDOTECA_WEBHOOK_TEST_HOSTS"))
    """For tests only (default unset): a hosts file webhook hosts are looked up in before
    DNS, read at every lookup (a test changes it to play a rebinding DNS server)."""
    # ---- requests and the web (issue 23; docs/server.md "Requests and the web") ----
    allowed_hosts: tuple[str, ...] = field(
        default_factory=lambda: _list("LUDOTECA_ALLOWED_HOSTS", allowed_host))
    """Host names this server answers to besides IP addresses, localhost and the machine's own
    name (``web_security.py``); ``.example.org`` also takes its subdomains, ``*`` any name."""
    header_line_limit: int = field(
        default_factory=lambda: _int("LUDOTECA_HEADER_LINE_LIMIT", 8192, 1))
    """Bytes of the request line or of one header (``http_limits.py``)."""
    header_limit: int = field(default_factory=lambda: _int("LUDOTECA_HEADER_LIMIT", 32768, 1))
    """Bytes of a request's whole head: request line and headers."""
    cookie_limit: int = field(default_factory=lambda: _int("LUDOTECA_COOKIE_LIMIT", 8192, 1))
    """Bytes of a request's ``Cookie`` headers together."""
    request_timeout: float = field(
        default_factory=lambda: _float("LUDOTECA_REQUEST_TIMEOUT", 10.0, above=True))
    """Seconds a client has to send a request's head, from its first byte (or from opening
    the connection), and then again to send its body."""

    analysis_budget: int = field(
        default_factory=lambda: _int("LUDOTECA_ANALYSIS_BUDGET", 0))
    """Playouts per candidate move in the arena's post-game analyses; 0: each game's own
    (docs/analysis.md). Lower it on a slow machine: analyses cost less and judge less
    surely."""
    seasons: Seasons = field(default_factory=lambda: seasons("LUDOTECA_SEASONS"))
    """The rating seasons (docs/ratings.md): calendar quarters unless the operator names
    their own, ``NAME=YYYY-MM-DD`` each, comma-separated."""
    ladder_dir: Path | None = field(default_factory=lambda: (
        None if (raw := _raw("LUDOTECA_LADDER_DIR")) is None
        else folder("LUDOTECA_LADDER_DIR", raw)))
    """A folder of bot ladders (``<game>.json``) read instead of the shipped ones: an
    operator's own calibration (docs/ratings.md)."""
    # ---- email (docs/server.md "Email and push") ------------------------------------------
    smtp_url: str | None = field(default_factory=lambda: (
        None if (raw := _raw("LUDOTECA_SMTP_URL")) is None
        else check_smtp_url("LUDOTECA_SMTP_URL", raw)))
    """The mail server the arena sends through; None: no email at all (the API says so and
    the pages hide every email feature)."""
    mail_from: str | None = field(default_factory=lambda: (
        None if (raw := _raw("LUDOTECA_MAIL_FROM")) is None
        else mail_address("LUDOTECA_MAIL_FROM", raw)))
    """The sender's address (``From``); needed with ``smtp_url``."""
    public_url: str | None = field(default_factory=lambda: (
        None if (raw := _raw("LUDOTECA_PUBLIC_URL")) is None
        else public_url("LUDOTECA_PUBLIC_URL", raw)))
    """Where people open the arena, for links in emails; needed with ``smtp_url``."""
    push_contact: str | None = field(default_factory=lambda: (
        None if (raw := _raw("LUDOTECA_PUSH_CONTACT")) is None
        else push_contact("LUDOTECA_PUSH_CONTACT", raw)))
    """Web Push's VAPID ``sub`` claim (``mailto:`` or ``https:``); None: ``mailto:`` the
    ``mail_from`` address, else the ``public_url``, else none."""
    turn_email_minutes: float = field(
        default_factory=lambda: _float("LUDOTECA_TURN_EMAIL_MINUTES", 60.0, above=True))
    """At most one "your turn" email per table and player in this many minutes."""
    turn_email_delay: float = field(
        default_factory=lambda: _float("LUDOTECA_TURN_EMAIL_DELAY", 60.0))
    """Seconds a turn waits before its email, so that tables whose turn comes within them
    make one digest (and a player who answers at once is not emailed)."""
    reset_minutes: float = field(
        default_factory=lambda: _float("LUDOTECA_RESET_MINUTES", 60.0, above=True))
    """How long a password-reset link works (once)."""
    confirm_hours: float = field(
        default_factory=lambda: _float("LUDOTECA_CONFIRM_HOURS", 48.0, above=True))
    """How long an address-confirmation link works (once)."""
    reset_rate: int = field(default_factory=lambda: _int("LUDOTECA_RESET_RATE", 3, 1))
    """Reset emails asked for one address per hour (whether or not it has an account)."""
    mail_ask_rate: int = field(default_factory=lambda: _int("LUDOTECA_MAIL_ASK_RATE", 10, 1))
    """Emails (resets, confirmations) one client address or account may ask for per hour."""
    gc_period: float = field(default_factory=lambda: _float("LUDOTECA_GC_PERIOD", 0.1))
    """Seconds between young collections of the interpreter's cycle collector under ``ludoteca
    serve`` (``cycle_collector.py``); 0 leaves it to the interpreter's allocation counts."""

    @property
    def data_dir(self) -> Path:
        return user_data_path("ludoteca", appauthor=False)

    def __post_init__(self) -> None:
        """Check what flags and code set (the environment's values were checked as read), and
        the combinations the arena cannot run with."""
        if not self.host.strip():
            raise SettingError("--host must be an address to listen on, like 127.0.0.1")
        if not 0 < self.port < 65536:
            raise SettingError(f"--port must be from 1 to 65535, not {self.port}")
        number("--bot-delay", self.bot_delay)
        whole_number("the number of bot processes", self.bot_processes)
        check_database_url(self.database_url)
        if self.redis_url is not None:
            check_redis_url(self.redis_url)
            if not self.database_url.startswith(DATABASE_SCHEMES[1:]):
                raise SettingError(
                    "Several processes (--redis-url, LUDOTECA_REDIS_URL) need a PostgreSQL "
                    "database (--database-url postgresql://...): see docs/deploy.md.")
        choice("LUDOTECA_BOTS", self.bots, BOTS)
        check_games()
        if self.smtp_url is not None and (self.mail_from is None or self.public_url is None):
            raise SettingError("LUDOTECA_SMTP_URL needs LUDOTECA_MAIL_FROM (the sender) and "
                               "LUDOTECA_PUBLIC_URL (the arena's address, for links)")
        if self.bots == "queue" and self.redis_url is None:
            raise SettingError("LUDOTECA_BOTS=queue needs a Redis: set LUDOTECA_REDIS_URL "
                               "(docs/deploy.md)")
