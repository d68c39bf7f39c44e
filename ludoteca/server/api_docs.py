"""``/docs``: the HTTP API in Swagger UI, every file of it served by this server.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script, which the
Content-Security-Policy (``web_security.py``) forbids, and a CDN's script runs with the
arena's cookies. Here Swagger UI's files come from the ``fastapi-offline`` package (pinned in
pyproject.toml) under ``/docs/assets/``, and the page starts it with ``/static/api-docs.js``.
ReDoc (``/redoc``) is not served.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} - API</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui" data-openapi="{openapi}"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/static/api-docs.js"></script>
</body>
</html>
"""


def assets() -> Path:
    """Swagger UI's files as the package installed them."""
    return Path(str(files("fastapi_offline") / "static"))


def mount_api_docs(app: FastAPI) -> None:
    page = PAGE.format(title=app.title, openapi=app.openapi_url)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    app.mount("/docs/assets", GZipMiddleware(StaticFiles(directory=assets()),
                                             minimum_size=1024), name="api-docs")
