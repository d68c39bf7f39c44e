"""The deployment example (``deploy/``, docs/deploy.md) stays in step with the code: every
command it runs is a real ``ludoteca`` command, every setting it sets is one the arena reads,
and the proxy's upstreams and paths are the compose services and the app's routes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return found


def arena_services() -> dict[str, Any]:
    return {name: s for name, s in compose()["services"].items() if s.get("image") == "ludoteca"}


def test_every_arena_service_runs_a_real_command() -> None:
    services = arena_services()
    assert {"migrate", "web1", "web2", "worker"} <= set(services)
    for name, service in services.items():
        command = service["command"]
        done = subprocess.run([sys.executable, "-m", "ludoteca.cli", *command[:1], "--help"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (name, done.stderr)
        for flag in (c for c in command[1:] if c.startswith("--")):
            assert flag in done.stdout, (name, flag)


def test_every_setting_is_one_the_arena_reads() -> None:
    source = "".join(p.read_text() for p in (ROOT / "ludoteca").rglob("*.py"))
    for service in arena_services().values():
        for key in service["environment"]:
            if key.startswith("LUDOTECA_"):
                assert f'"{key}"' in source or f"envvar=\"{key}\"" in source, key
    web = arena_services()["web1"]["environment"]
    assert web["LUDOTECA_DATABASE_URL"].startswith("postgresql://")
    assert web["LUDOTECA_REDIS_URL"].startswith("redis://")


def test_the_proxy_passes_websockets_to_every_web_process() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    upstream = re.search(r"upstream arena \{(.*?)\}", conf, re.S)
    assert upstream is not None
    servers = set(re.findall(r"server (\w+):8000", upstream.group(1)))
    webs = {n for n, s in arena_services().items() if s["command"][0] == "serve"}
    assert servers == webs
    assert "proxy_set_header Upgrade $http_upgrade" in conf
    assert "location /ws/" in conf and "location = /api/events" in conf
    from ludoteca.server.app import create_app
    from ludoteca.server.table_socket import TABLE_PATH, TableSockets

    app = create_app()  # table sockets are answered ahead of the routes (TableSockets)
    assert any(m.cls is TableSockets for m in app.user_middleware)
    assert TABLE_PATH.fullmatch("/ws/tables/abc123")
    assert "/api/events" in app.openapi()["paths"]
