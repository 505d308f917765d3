"""Storage backends behind one protocol (stores.base.Store)."""

from __future__ import annotations

from pathlib import Path

from stateledger.errors import StoreError
from stateledger.stores.base import Store


def open_store(path: str | Path | None, *, dim: int, create: bool = True) -> Store:
    """The store a ``Memory`` path names: a postgresql:// URL, ":memory:", or a SQLite file
    (the default file in the user data dir when ``path`` is None). With ``create=False`` a
    SQLite file that does not exist yet is an error naming it (StoreError), not a new empty
    store: a mistyped path must not read as a memory with nothing in it."""
    target = str(path) if path is not None else None
    if target is not None and target.startswith(("postgresql://", "postgres://")):
        from stateledger.stores.postgres import PostgresStore

        store: Store = PostgresStore(target, dim=dim)
        return store
    from stateledger.stores.sqlite import SQLiteStore, default_db_path

    file = target if target is not None else str(default_db_path())
    if not create and file != ":memory:" and not file.startswith("file:") and not Path(
            file).exists():
        raise StoreError(f"no stateledger database at {file!r} (adding a memory there "
                         "creates it)")
    return SQLiteStore(file, dim=dim)


__all__ = ["Store", "open_store"]
