"""The arena server (DESIGN.md §3): accounts, lobby, one actor per live table, the wire.

``app.create_app(settings)`` builds the ASGI app; ``ludoteca serve`` runs it under uvicorn.
"""
