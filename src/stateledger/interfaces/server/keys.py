"""API keys for the REST server: each key maps to one tenant, and only its hash is stored.

Key storage is deliberately *not* part of the ``Store`` protocol: who may call the server is
an operator concern, not memory state, and it must work the same whichever backend holds the
memories (SQLite file, PostgreSQL). It is one tiny SQLite file (by default beside the memory
database, see ``default_keys_path``) with one table.

A key looks like ``sl_<key_id>_<secret>``. ``key_id`` is public (it names the row, shows in
``keys list`` and is what ``keys revoke`` takes); ``secret`` carries 256 random bits and is
stored only as ``sha256(salt || secret)`` with a per-key random salt, compared in constant
time. The plain key is returned once, by ``create``, and never again.

Each call opens its own short-lived connection: the server thread pool may verify keys
concurrently, and a ``keys revoke`` run from another process takes effect on the very next
request (no cache to invalidate).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from stateledger.errors import InvalidInputError, StoreError
from stateledger.interfaces.tenancy import validate_tenant

__all__ = [
    "KEY_PREFIX",
    "IssuedKey",
    "KeyInfo",
    "KeyStore",
    "default_keys_path",
    "validate_tenant",
]

KEY_PREFIX = "sl"
_KEY = re.compile(r"sl_([0-9a-f]{12})_([A-Za-z0-9_-]{20,128})")
_SCHEMA_VERSION = 1


def default_keys_path(db: str | None) -> Path:
    """Where the keys file lives when ``--keys`` is not given: beside the SQLite memory file
    (``memory.db`` -> ``memory.keys.db``). A server store or ``:memory:`` has no "beside"."""
    if db is None:
        from stateledger.stores.sqlite import default_db_path

        db = str(default_db_path())
    if db == ":memory:" or db.startswith(("postgresql://", "postgres://")):
        raise InvalidInputError(
            f"no default keys file for --db {db.split('@')[-1]!r}; give --keys PATH"
        )
    path = Path(db)
    return path.with_name(f"{path.stem}.keys{path.suffix or '.db'}")


def _digest(salt: bytes, secret: str) -> bytes:
    return hashlib.sha256(salt + secret.encode("ascii")).digest()


@dataclass(frozen=True)
class IssuedKey:
    """A freshly created key. ``key`` is the only time the secret is ever available."""

    key: str
    key_id: str
    tenant: str
    created_at: str


@dataclass(frozen=True)
class KeyInfo:
    key_id: str
    tenant: str
    created_at: str
    revoked_at: str | None
    note: str | None


class KeyStore:
    """The keys file: create, verify, list and revoke tenant API keys."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) == ":memory:":
            raise InvalidInputError("the keys file must be a path (keys outlive the process)")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            # Created owner-only before SQLite opens it: digests are not secrets, but tenant
            # names and key ids are nobody else's business either.
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        with self._conn() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > _SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer stateledger (v{version})")
            if version < 1:
                conn.execute(
                    """CREATE TABLE IF NOT EXISTS api_keys (
                        key_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, salt BLOB NOT NULL,
                        digest BLOB NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT,
                        note TEXT)"""
                )
                conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")

    @contextlib.contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        try:
            conn = sqlite3.connect(self.path, timeout=10.0)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open keys file {self.path}: {exc}") from exc
        try:
            with conn:  # one transaction: commit on success, roll back on error
                yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"keys file {self.path}: {exc}") from exc
        finally:
            conn.close()

    def create(self, tenant: str, note: str | None = None) -> IssuedKey:
        """Issue a new key for ``tenant``; the returned ``key`` is shown once and not stored."""
        tenant = validate_tenant(tenant)
        key_id = secrets.token_hex(6)
        secret = secrets.token_urlsafe(32)
        salt = secrets.token_bytes(16)
        created = datetime.now(UTC).isoformat(timespec="seconds")
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO api_keys (key_id, tenant, salt, digest, created_at, note) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (key_id, tenant, salt, _digest(salt, secret), created, note),
            )
        return IssuedKey(f"{KEY_PREFIX}_{key_id}_{secret}", key_id, tenant, created)

    def verify(self, key: str | None) -> str | None:
        """The tenant of a valid, unrevoked key; None for anything else."""
        match = _KEY.fullmatch(key.strip()) if isinstance(key, str) else None
        if match is None:
            return None
        key_id, secret = match.groups()
        with self._conn() as conn:
            row = conn.execute(
                "SELECT tenant, salt, digest FROM api_keys WHERE key_id = ? "
                "AND revoked_at IS NULL",
                (key_id,),
            ).fetchone()
        if row is None:
            return None
        tenant, salt, digest = row
        return str(tenant) if hmac.compare_digest(_digest(salt, secret), digest) else None

    def list_keys(self, tenant: str | None = None) -> list[KeyInfo]:
        sql = "SELECT key_id, tenant, created_at, revoked_at, note FROM api_keys"
        args: tuple[str, ...] = ()
        if tenant is not None:
            sql, args = sql + " WHERE tenant = ?", (validate_tenant(tenant),)
        with self._conn() as conn:
            rows = conn.execute(sql + " ORDER BY created_at, key_id", args).fetchall()
        return [KeyInfo(*row) for row in rows]

    def revoke(self, key_id: str) -> bool:
        """Revoke a key by its id; False when no unrevoked key has that id."""
        revoked = datetime.now(UTC).isoformat(timespec="seconds")
        with self._conn() as conn:
            cur = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                (revoked, key_id),
            )
        return cur.rowcount > 0
