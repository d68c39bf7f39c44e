"""The fixtures the account and lobby-hygiene attacks share: a real server on SQLite and on
PostgreSQL, and people made on it (tests/security/accounts_support.py)."""

from tests.security.accounts_support import arena_database, people, server

__all__ = ["arena_database", "people", "server"]
