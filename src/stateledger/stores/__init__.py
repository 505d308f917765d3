"""Storage backends behind one protocol (stores.base.Store)."""

from __future__ import annotations

from pathlib import Path

from stateledger.stores.base import Store


def open_store(path: str | Path | None, *, dim: int) -> Store:
    """The store a ``Memory`` path names: a postgresql:// URL, ":memory:", or a SQLite file
    (the default file in the user data dir when ``path`` is None)."""
    target = str(path) if path is not None else None
    if target is not None and target.startswith(("postgresql://", "postgres://")):
        from stateledger.stores.postgres import PostgresStore

        store: Store = PostgresStore(target, dim=dim)
        return store
    from stateledger.stores.sqlite import SQLiteStore, default_db_path

    return SQLiteStore(target if target is not None else str(default_db_path()), dim=dim)


__all__ = ["Store", "open_store"]
