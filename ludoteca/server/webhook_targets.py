"""Where the server may send a webhook (issue 23): the request comes from the arena's own
machine, so an address on its network (loopback, a LAN, a cloud's metadata service at
169.254.169.254) would let any player make it POST to services that trust it.

A webhook must be an ``http``/``https`` URL without credentials or control characters whose
host resolves only to public addresses. Numeric hosts must be written as plain IP addresses:
``2130706433``, ``0x7f.1`` or ``127.1`` are read as 127.0.0.1 by some resolvers and not by
others, so they are refused outright, and an IPv6 address that carries an IPv4 one (mapped,
6to4, Teredo, NAT64) is judged by the IPv4 one. The check is made when the address is set
and again at every delivery, whose connection goes to the very address just checked (a name
that resolved to a public address then and to a private one now, DNS rebinding, is refused).

Tests deliver to a receiver of their own: ``LUDOTECA_WEBHOOK_TEST_NETWORKS`` adds networks
and ``LUDOTECA_WEBHOOK_TEST_HOSTS`` names a hosts file read before DNS. Both are for tests
only and empty by default.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
_NUMERIC = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+))*\.?$", re.IGNORECASE)
"""A host made only of decimal, octal or hex parts: what ``inet_aton`` reads as an address."""
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
LOOKUP_SECONDS = 5.0
"""A host that does not resolve in this time has no address (the person setting it waits)."""


@dataclass(frozen=True)
class Target:
    """A webhook URL taken apart: where to connect and what to ask for there."""

    url: str
    scheme: str
    host: str
    port: int
    path: str


def parse(url: str) -> Target:
    """The URL's parts, or ``bad_webhook`` for anything but a plain http(s) address."""
    if any(ord(c) < 33 or ord(c) == 127 for c in url):  # CR, LF, spaces, controls
        raise ServerError("bad_webhook", E.WEBHOOK_CHARACTERS)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ServerError("bad_webhook", E.BAD_WEBHOOK) from None
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme not in ("http", "https") or not host:
        raise ServerError("bad_webhook", E.BAD_WEBHOOK)
    if parts.username is not None or parts.password is not None:
        raise ServerError("bad_webhook", E.WEBHOOK_CREDENTIALS)
    if _NUMERIC.match(host) and not _plain_ipv4(host):
        raise ServerError("bad_webhook", E.WEBHOOK_NUMERIC, host=host)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(url, parts.scheme, host, port or (443 if parts.scheme == "https" else 80),
                  path)


def _plain_ipv4(host: str) -> bool:
    try:
        return str(ipaddress.IPv4Address(host)) == host
    except ValueError:
        return False


def public(address: IP) -> bool:
    """Reachable on the internet and nothing else: not loopback, private, link-local,
    shared, reserved or multicast; an IPv6 address carrying an IPv4 one is judged by it."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped or address.sixtofour
        if inner is None and address.teredo is not None:
            inner = address.teredo[1]
        if inner is None and address in _NAT64:
            inner = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if inner is not None and not public(inner):
            return False
    return address.is_global and not address.is_multicast


class WebhookTargets:
    """The check, with the networks and hosts a test adds (none on a real server)."""

    def __init__(self, test_networks: tuple[str, ...] = (), test_hosts: str | None = None
                 ) -> None:
        self.extra = tuple(ipaddress.ip_network(n, strict=False) for n in test_networks)
        self.hosts = Path(test_hosts) if test_hosts else None

    def allowed(self, address: IP) -> bool:
        return public(address) or any(address in net for net in self.extra
                                      if net.version == address.version)

    async def check(self, url: str) -> tuple[Target, IP]:
        """The target and the address to connect to (the first of its host's addresses, all
        of which are allowed), or ``bad_webhook`` saying why not."""
        target = parse(url)
        addresses = await self.resolve(target)
        if not addresses:
            raise ServerError("bad_webhook", E.WEBHOOK_UNRESOLVED, host=target.host)
        for address in addresses:
            if not self.allowed(address):
                raise ServerError("bad_webhook", E.WEBHOOK_PRIVATE, host=target.host,
                                  address=str(address))
        return target, addresses[0]

    async def resolve(self, target: Target) -> list[IP]:
        try:
            return [ipaddress.ip_address(target.host.strip("[]"))]
        except ValueError:
            pass
        if self.hosts is not None:
            listed = _from_hosts_file(self.hosts, target.host)
            if listed:
                return listed
        try:
            found = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(
                target.host, target.port, type=socket.SOCK_STREAM), LOOKUP_SECONDS)
        except (OSError, UnicodeError, TimeoutError):
            return []
        out: list[IP] = []
        for *_, sockaddr in found:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
            if address not in out:
                out.append(address)
        return out


def _from_hosts_file(path: Path, host: str) -> list[IP]:
    """Addresses a hosts-format file gives ``host`` (tests only; read at every lookup so a
    test can change the answer, as a rebinding DNS server would)."""
    out: list[IP] = []
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        fields = line.split("#")[0].split()
        if len(fields) >= 2 and host in fields[1:]:
            try:
                out.append(ipaddress.ip_address(fields[0]))
            except ValueError:
                continue
    return out
