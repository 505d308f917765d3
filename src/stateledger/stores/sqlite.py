"""The embedded SQLite store: one file holds records, links, the log and the text index.

Why SQLite: the default ``Memory("memory.db")`` must work with no server. WAL mode lets
readers proceed during a write, ``synchronous=NORMAL`` is durable across an application
crash (a power cut may lose the last commits, never corrupt the file), and every mutation
is one ``BEGIN IMMEDIATE`` transaction, so a SIGKILL mid-way never leaves half a diff.

Vector search is not done in SQL: each user's embeddings are loaded lazily into an exact
in-process ``VectorIndex`` and kept current by ``commit``/``delete``. Commits made by other
processes on the same file are noticed through ``PRAGMA data_version`` and drop the cached
indexes, which are then rebuilt on the next search.
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
import re
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from stateledger.core.model import (
    Diff,
    Ledger,
    Link,
    LinkType,
    Record,
    Status,
    Transaction,
)
from stateledger.errors import (
    InvalidInputError,
    SchemaVersionError,
    StateLedgerError,
    StoreError,
    UnknownRecordError,
)
from stateledger.stores.base import (
    Vector,
    batch_user,
    checked_embedding,
    common_term_limit,
    refuse_moved,
    refuse_stale,
    restored_record,
)
from stateledger.stores.vector_index import IndexCache, VectorIndex

__all__ = ["SCHEMA_VERSION", "SQLiteStore", "default_db_path", "fts_query"]

_CHUNK = 500  # ids per IN (...) list: far below SQLite's variable limit on any build
_MAX_QUERY_TERMS = 32  # bounds the cost of one MATCH whatever the caller sends

# --------------------------------------------------------------------------- schema


_FTS_ADD = "INSERT INTO records_fts (rowid, text) VALUES (new.rid, new.text);"
_FTS_DEL = (
    "INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.rid, old.text);"
)


def _migrate_v1(conn: sqlite3.Connection) -> None:
    """Initial schema.

    ``records.rid`` is an INTEGER PRIMARY KEY so the FTS rowid that mirrors it never
    changes (plain rowids may be renumbered by VACUUM). The FTS table is external-content
    over ``records`` and kept in sync by triggers, i.e. inside the writer's transaction.
    The log has no foreign keys so that it outlives ``forget``.
    """
    statements = [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE records (
            rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL,
            text TEXT NOT NULL, subject TEXT NOT NULL, slot TEXT, value TEXT,
            source TEXT NOT NULL, confidence REAL NOT NULL, valid_from TEXT NOT NULL,
            valid_to TEXT, recorded_at TEXT NOT NULL, status TEXT NOT NULL,
            ledger TEXT NOT NULL, provenance TEXT, embedding BLOB)""",
        "CREATE INDEX records_user_ledger ON records (user_id, ledger)",
        "CREATE INDEX records_user_slot_subject ON records (user_id, slot, subject)",
        "CREATE INDEX records_user_time ON records (user_id, valid_from, recorded_at)",
        """CREATE TABLE links (
            src TEXT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
            dst TEXT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
            type TEXT NOT NULL, PRIMARY KEY (src, dst, type))""",
        # Without it every cascade through links.dst would scan the whole table.
        "CREATE INDEX links_dst ON links (dst)",
        """CREATE TABLE transactions (
            seq INTEGER PRIMARY KEY, id TEXT NOT NULL, user_id TEXT NOT NULL,
            text TEXT NOT NULL, action TEXT NOT NULL, relation TEXT NOT NULL, record_id TEXT,
            target_id TEXT, resolved_id TEXT, rho REAL NOT NULL, confidence REAL NOT NULL,
            reason TEXT NOT NULL, policy TEXT NOT NULL, at TEXT NOT NULL,
            logged_at TEXT NOT NULL)""",
        "CREATE INDEX transactions_user ON transactions (user_id, seq)",
        """CREATE VIRTUAL TABLE records_fts USING fts5(
            text, content='records', content_rowid='rid')""",
        f"CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN {_FTS_ADD} END",
        f"CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN {_FTS_DEL} END",
        "CREATE TRIGGER records_fts_update AFTER UPDATE OF text ON records "
        f"BEGIN {_FTS_DEL} {_FTS_ADD} END",
    ]
    for sql in statements:
        conn.execute(sql)


def _migrate_v2(conn: sqlite3.Connection) -> None:
    # Per-term document counts, so search_text can leave out terms too common to rank fast.
    conn.execute("CREATE VIRTUAL TABLE records_fts_vocab USING fts5vocab(records_fts, 'row')")


def _migrate_v3(conn: sqlite3.Connection) -> None:
    # The slot index also carries slot_records' sort order. Without statistics SQLite chose
    # records_user_time for (user, slot, subject) lookups to skip the sort, which scans every
    # record of the user: ~100 ms per lookup at 100k records instead of well under 1 ms.
    conn.execute("DROP INDEX records_user_slot_subject")
    conn.execute(
        "CREATE INDEX records_user_slot_subject_time "
        "ON records (user_id, slot, subject, valid_from, recorded_at)"
    )


def _migrate_v4(conn: sqlite3.Connection) -> None:
    # Scopes and metadata (agent_id, run_id, a JSON object), filters for reads.
    for column in ("agent_id TEXT", "run_id TEXT", "metadata TEXT"):
        conn.execute(f"ALTER TABLE records ADD COLUMN {column}")
    conn.execute("CREATE INDEX records_user_scope ON records (user_id, agent_id, run_id)")


def _migrate_v5(conn: sqlite3.Connection) -> None:
    # The words of a statement's message before it (Record.context).
    conn.execute("ALTER TABLE records ADD COLUMN context TEXT")


# Append (version, migration) pairs; never edit a released one. Each runs in the opening
# transaction together with the ``user_version`` bump, so a crash leaves the old version.
MIGRATIONS: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (
    (1, _migrate_v1),
    (2, _migrate_v2),
    (3, _migrate_v3),
    (4, _migrate_v4),
    (5, _migrate_v5),
)
TERM_COUNT_SLACK = 500  # how stale a cached term document count may get (see search_text)
SCHEMA_VERSION = MIGRATIONS[-1][0]

_RECORD_COLUMNS = (
    "id, user_id, text, subject, slot, value, source, confidence, valid_from, valid_to, "
    "recorded_at, status, ledger, provenance, context, agent_id, run_id, metadata, embedding"
)
_TX_COLUMNS = (
    "id, user_id, text, action, relation, record_id, target_id, resolved_id, rho, confidence, "
    "reason, policy, at, logged_at"
)
_RECORD_FIELDS = tuple(c.strip() for c in _RECORD_COLUMNS.split(","))
_TX_FIELDS = tuple(c.strip() for c in _TX_COLUMNS.split(","))
_INSERT_RECORD = (f"INSERT INTO records ({_RECORD_COLUMNS}) "
                  f"VALUES ({', '.join('?' * len(_RECORD_FIELDS))})")
_INSERT_TX = (
    f"INSERT INTO transactions ({_TX_COLUMNS}) VALUES ({', '.join(':' + f for f in _TX_FIELDS)})"
)

# ------------------------------------------------------------------------- helpers

_STOPWORD_TEXT = """a an and are as at be been but by did do does for from had has have he her
his how i if in into is it its me my of on or our she so that the their them then there these
they this to was we were what when where which who whom why will with you your"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_WORD = re.compile(r"[^\W_]+")  # the same letters/digits FTS5's unicode61 tokenizer keeps


def fts_query(text: str) -> str:
    """Turn free text into a safe FTS5 query: quoted, lowercased word tokens joined by OR.

    Quoting every term means no user input is ever parsed as FTS syntax (NEAR, column
    filters, ``*``, parentheses...), so a query can't raise a syntax error. OR (not the
    implicit AND) because recall matters more for seeds: bm25 already ranks documents that
    match more terms higher. Returns "" when nothing searchable is left.
    """
    terms: dict[str, None] = {}
    for token in _WORD.findall(text.lower()):
        if token not in _STOPWORDS:
            terms.setdefault(token, None)
    return " OR ".join(f'"{t}"' for t in list(terms)[:_MAX_QUERY_TERMS])


def _ts(value: datetime) -> str:
    """Fixed-width UTC ISO-8601, so string order in SQL equals time order.

    Naive datetimes are taken as UTC (the API layer rejects them earlier; this keeps the
    store total rather than guessing the host's local zone).
    """
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _sql(value: Any) -> Any:
    """A model value as stored: enums by value, datetimes as UTC ISO strings, a metadata
    object as JSON text."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return _ts(value)
    if isinstance(value, Mapping):
        return json.dumps(dict(value), ensure_ascii=False, sort_keys=True)
    return value


def _dt(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _chunks(items: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _marks(n: int) -> str:
    return ",".join("?" * n)


def default_db_path() -> Path:
    """Where ``Memory()`` keeps its file: $STATELEDGER_HOME/memory.db, else the XDG data dir.

    The parent directory is created so the first ``Memory()`` works on a fresh machine.
    """
    home = os.environ.get("STATELEDGER_HOME")
    if home:
        base = Path(home).expanduser()
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        data = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
        base = data / "stateledger"
    base.mkdir(parents=True, exist_ok=True)
    return base / "memory.db"


# --------------------------------------------------------------------------- store


def _enable_wal(conn: sqlite3.Connection, deadline: float) -> str:
    """Switch a database to WAL and return the journal mode it has. Switching takes an
    exclusive lock without waiting on the busy timeout, so several processes opening a new
    file at once would fail with "database is locked": retry until ``deadline``."""
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class SQLiteStore:
    """The ``Store`` protocol on one SQLite file (or ``":memory:"``).

    One connection shared by all threads behind an ``RLock``: SQLite serialises writers
    anyway, and a single connection keeps the in-process vector indexes coherent with
    what was committed. ``max_index_rows`` bounds the memory of cached vector indexes
    (least recently used users are evicted and rebuilt on demand).
    """

    def __init__(
        self, path: str | os.PathLike[str], dim: int = 384, *, max_index_rows: int = 2_000_000
    ) -> None:
        if dim <= 0:
            raise InvalidInputError(f"dim must be positive, got {dim}")
        self.dim = dim
        self.path = str(path)
        if self.path != ":memory:" and not self.path.startswith("file:"):
            # Owner-only from the first byte: SQLite gives the WAL and shared-memory files the
            # database file's permissions.
            # (An existing file keeps its mode; any other failure is for connect to report.)
            with contextlib.suppress(OSError):
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        self._lock = threading.RLock()
        self._indexes = IndexCache(max_index_rows)
        self._term_docs: dict[str, int] = {}  # cached fts5vocab counts of frequent terms
        self._term_docs_at = 0  # max(rid) when that cache was started
        self._conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(
                self.path, timeout=30.0, isolation_level=None, check_same_thread=False
            )
            self._conn = conn
            conn.execute("PRAGMA foreign_keys = ON")
            # Deleted rows are overwritten with zeros, so forget leaves no bytes in free pages
            # (on builds compiled without SECURE_DELETE too).
            conn.execute("PRAGMA secure_delete = ON")
            if self.path != ":memory:":
                mode = _enable_wal(conn, deadline=time.monotonic() + 30.0)
                if mode != "wal":
                    raise StoreError(f"could not enable WAL on {self.path!r} (got {mode})")
            conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate()
            self._data_version = self._pragma_int(conn, "data_version")
        except BaseException as exc:
            self.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open SQLite database {self.path!r}: {exc}") from exc
            raise

    def _migrate(self) -> None:
        """Bring the schema to SCHEMA_VERSION and check ``dim``, in one transaction."""
        with self._tx("BEGIN IMMEDIATE") as conn:
            version = self._pragma_int(conn, "user_version")
            if version > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.path!r} has schema version {version}; this stateledger supports "
                    f"up to {SCHEMA_VERSION}. Upgrade stateledger to open it."
                )
            for target, migrate in MIGRATIONS:
                if target > version:
                    migrate(conn)
                    conn.execute(f"PRAGMA user_version = {int(target)}")
            row = conn.execute("SELECT value FROM meta WHERE key = 'dim'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta (key, value) VALUES ('dim', ?)", (str(self.dim),))
            elif int(row[0]) != self.dim:
                raise StoreError(
                    f"{self.path!r} holds {row[0]}-dimensional embeddings but the store was "
                    f"opened with dim={self.dim}; use the same embedding model (or dim={row[0]})."
                )

    @staticmethod
    def _pragma_int(conn: sqlite3.Connection, name: str) -> int:
        return int(conn.execute(f"PRAGMA {name}").fetchone()[0])

    def close(self) -> None:
        """Close the connection; idempotent. Later calls raise StoreError."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._indexes.clear()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("the store is closed")
        return self._conn

    @contextmanager
    def _tx(self, begin: str) -> Iterator[sqlite3.Connection]:
        """One explicit transaction under the lock.

        Errors we raise on purpose (StateLedgerError) pass through after the rollback;
        anything else (sqlite3 errors, bad values) becomes a StoreError with the cause
        chained, so callers need to catch only the documented hierarchy.
        """
        with self._lock:
            conn = self._connection()
            try:
                conn.execute(begin)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot start a transaction: {exc}") from exc
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    # The original error is the one worth reporting, not a failed rollback.
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                if isinstance(exc, StateLedgerError) or not isinstance(exc, Exception):
                    raise
                raise StoreError(f"SQLite store operation failed: {exc}") from exc

    def _owners(self, conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, str]:
        """record id -> user id, for the ids that exist."""
        found: dict[str, str] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            sql = f"SELECT id, user_id FROM records WHERE id IN ({_marks(len(chunk))})"
            found.update(conn.execute(sql, tuple(chunk)).fetchall())
        return found

    def _statuses(self, conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, Status]:
        found: dict[str, Status] = {}
        for chunk in _chunks(list(ids)):
            sql = f"SELECT id, status FROM records WHERE id IN ({_marks(len(chunk))})"
            found.update((rid, Status(st)) for rid, st in conn.execute(sql, tuple(chunk)))
        return found

    def _record_row(self, r: Record) -> tuple[Any, ...]:
        plain = tuple(_sql(getattr(r, f)) for f in _RECORD_FIELDS[:-1])
        vec = checked_embedding(r, self.dim)
        return (*plain, None if vec is None else vec.tobytes())

    def commit(
        self, changes: Sequence[tuple[Diff, Transaction]], read_version: int | None = None
    ) -> None:
        """Apply each ``(diff, tx)`` in order and log each ``tx``, in one transaction; links
        also get their inverse.

        References are checked before anything is written, so a batch that names a missing
        record raises UnknownRecordError with the database untouched.
        """
        with self._tx("BEGIN IMMEDIATE") as conn:
            if read_version is not None:
                # Under BEGIN IMMEDIATE no other writer runs between this read and COMMIT.
                user = batch_user(changes)
                refuse_moved(user, read_version, self._version(conn, user))
            new_owner = {r.id: r.user_id for diff, _ in changes for r in diff.inserts}
            referenced: set[str] = set()
            for diff, _ in changes:
                referenced |= {u.record_id for u in diff.updates}
                referenced |= {lk.src for lk in diff.links} | {lk.dst for lk in diff.links}
            owner = self._owners(conn, referenced - new_owner.keys())
            missing = referenced - new_owner.keys() - owner.keys()
            if missing:
                raise UnknownRecordError(f"diff references unknown record(s): {sorted(missing)}")
            # Under BEGIN IMMEDIATE no other writer runs: the statuses read here are the ones
            # the updates apply to.
            refuse_stale(changes, self._statuses(conn, owner.keys()))
            owner.update(new_owner)
            for diff, tx in changes:
                self._write_diff(conn, diff, tx)
        # Only after COMMIT: a rolled-back diff must never reach the in-memory index.
        for diff, _ in changes:
            self._index_after_commit(diff, owner)

    def restore(self, records: Sequence[Record], log: Sequence[Mapping[str, Any]]) -> None:
        with self._tx("BEGIN IMMEDIATE") as conn:
            clash = self._owners(conn, [r.id for r in records])
            if clash:
                raise StoreError(f"{len(clash)} record(s) of the export are already in this "
                                 f"store (e.g. {sorted(clash)[0]}); restore into a store "
                                 "without them (forget_user first)")
            conn.executemany(_INSERT_RECORD,
                             [self._record_row(r) for r in records])
            conn.executemany("INSERT OR IGNORE INTO links (src, dst, type) VALUES (?, ?, ?)",
                             [(r.id, lk.dst, LinkType(lk.type).value)
                              for r in records for lk in r.links])
            conn.executemany(_INSERT_TX, [{f: _sql(e[f]) for f in _TX_FIELDS} for e in log])
        self._index_after_commit(Diff(inserts=tuple(records)), {})

    def _write_diff(self, conn: sqlite3.Connection, diff: Diff, tx: Transaction) -> None:
        rows = [self._record_row(r) for r in diff.inserts]
        conn.executemany(_INSERT_RECORD, rows)
        changes = [(_sql(u.status), _sql(u.ledger), _sql(u.valid_to), u.record_id)
                   for u in diff.updates]  # fmt: skip
        sql = "UPDATE records SET status = ?, ledger = ?, valid_to = ? WHERE id = ?"
        conn.executemany(sql, changes)
        links: list[tuple[str, str, str]] = []
        for lk in diff.links:
            for one in (lk, lk.inverse()):
                links.append((one.src, one.dst, LinkType(one.type).value))
        conn.executemany("INSERT OR IGNORE INTO links (src, dst, type) VALUES (?, ?, ?)", links)
        row = {f: _sql(getattr(tx, f, None)) for f in _TX_FIELDS}
        for role in ("record", "target", "resolved"):
            linked = getattr(tx, role)
            row[f"{role}_id"] = linked.id if linked is not None else None
        conn.execute(_INSERT_TX, {**row, "logged_at": _ts(_now())})

    def _index_after_commit(self, diff: Diff, owner: dict[str, str]) -> None:
        """Mirror a committed diff into the cached vector indexes.

        Users without a cached index are skipped: it will be built from the DB when first
        searched. If mirroring fails the user's index is dropped rather than left stale.
        """
        with self._lock:
            touched = {r.user_id for r in diff.inserts} | {owner[u.record_id] for u in diff.updates}
            for user in touched:
                index = self._indexes.peek(user)
                if index is None:
                    continue
                try:
                    new = [r for r in diff.inserts if r.user_id == user and r.embedding is not None]
                    if new:
                        vectors = [np.asarray(r.embedding, np.float32).reshape(-1) for r in new]
                        ledgers = [Ledger(r.ledger) for r in new]
                        index.add([r.id for r in new], np.stack(vectors), ledgers)
                    for u in diff.updates:
                        if owner[u.record_id] == user:
                            index.update_ledger(u.record_id, Ledger(u.ledger))
                except Exception:
                    self._indexes.pop(user)
            self._indexes.evict()

    def delete(self, ids: Sequence[str], reason: str) -> int:
        """Delete records (links both ways and FTS rows follow) and log a 'forget' entry.

        One log entry per affected user, listing the deleted ids in its reason. Unknown ids
        are ignored; the count says how many records were actually deleted.
        """
        with self._tx("BEGIN IMMEDIATE") as conn:
            owner = self._owners(conn, [ids] if isinstance(ids, str) else ids)
            if not owner:
                return 0
            gone = list(owner)
            count = 0
            for chunk in _chunks(gone):
                sql = f"DELETE FROM records WHERE id IN ({_marks(len(chunk))})"
                count += conn.execute(sql, tuple(chunk)).rowcount
                # forget also erases what the log remembers of these records' text
                marks = _marks(len(chunk))
                conn.execute(
                    "UPDATE transactions SET text = '', reason = 'forgotten' "
                    f"WHERE record_id IN ({marks}) OR target_id IN ({marks}) "
                    f"OR resolved_id IN ({marks})",
                    (*chunk, *chunk, *chunk),
                )
            now = _ts(_now())
            by_user: dict[str, list[str]] = {}
            for rid in gone:
                by_user.setdefault(owner[rid], []).append(rid)
            for user, user_ids in by_user.items():
                listed = f"{reason}; forgot {len(user_ids)} record(s): {', '.join(user_ids)}"
                conn.execute(
                    "INSERT INTO transactions (id, user_id, text, action, relation, rho, "
                    "confidence, reason, policy, at, logged_at) "
                    "VALUES (?, ?, '', 'forget', 'none', 0.0, 1.0, ?, '', ?, ?)",
                    (uuid.uuid4().hex, user, listed, now, now),
                )
            self._purge_fts(conn)
        with self._lock:
            self._term_docs.clear()
            for user, user_ids in by_user.items():
                cached = self._indexes.peek(user)
                if cached is not None:
                    cached.remove(user_ids)
        self._truncate_wal()
        return count

    def integrity(self) -> list[str]:
        problems: list[str] = []
        with self._tx("BEGIN") as conn:
            rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
            problems += [f"sqlite: {r}" for r in rows if r != "ok"]
            problems += [f"foreign key: {r}" for r in conn.execute("PRAGMA foreign_key_check")]
            try:
                conn.execute("INSERT INTO records_fts (records_fts) VALUES ('integrity-check')")
            except sqlite3.DatabaseError as exc:
                problems.append(f"full-text index: {exc}")
            one_way = conn.execute(
                "SELECT count(*) FROM links a WHERE NOT EXISTS (SELECT 1 FROM links b "
                "WHERE b.src = a.dst AND b.dst = a.src)").fetchone()[0]
            if one_way:
                problems.append(f"links: {one_way} link(s) without an inverse")
        return problems

    def delete_user(self, user_id: str) -> int:
        """Erase a user: every record (links and FTS rows follow) and every log entry."""
        with self._tx("BEGIN IMMEDIATE") as conn:
            count = conn.execute("DELETE FROM records WHERE user_id = ?", (user_id,)).rowcount
            conn.execute("DELETE FROM transactions WHERE user_id = ?", (user_id,))
            self._purge_fts(conn)
        with self._lock:
            self._term_docs.clear()
            self._indexes.pop(user_id)
        self._truncate_wal()
        return int(count)

    @staticmethod
    def _purge_fts(conn: sqlite3.Connection) -> None:
        """Merge the FTS index into one segment: a deleted row's tokens otherwise stay in
        older segments (only marked deleted) until a merge happens to reach them."""
        conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")

    def _truncate_wal(self) -> None:
        """Copy the WAL into the database and cut it to zero bytes: until then it holds full
        copies of the pages forget just cleared. A reader in another connection can hold the
        checkpoint back; the next forget (or close of the last connection) completes it."""
        if self.path == ":memory:":
            return
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def _hydrate(self, conn: sqlite3.Connection, rows: list[Any]) -> list[Record]:
        """Rows -> Records with their outgoing links (insertion order) and embeddings."""
        ids = [row[0] for row in rows]
        links: dict[str, list[Link]] = {}
        link_rows: list[Any] = []
        for chunk in _chunks(ids):
            sql = f"SELECT src, dst, type, rowid FROM links WHERE src IN ({_marks(len(chunk))})"
            link_rows.extend(conn.execute(sql, tuple(chunk)))
        link_rows.sort(key=lambda row: row[3])
        for src, dst, kind, _ in link_rows:
            links.setdefault(src, []).append(Link(src, dst, LinkType(kind)))
        out: list[Record] = []
        for row in rows:
            f = dict(zip(_RECORD_FIELDS, row, strict=True))
            blob = f["embedding"]
            f["embedding"] = None if blob is None else np.frombuffer(blob, np.float32).copy()
            f["valid_from"], f["recorded_at"] = _dt(f["valid_from"]), _dt(f["recorded_at"])
            f["valid_to"] = _dt(f["valid_to"])
            f["metadata"] = None if f["metadata"] is None else json.loads(f["metadata"])
            f["links"] = tuple(links.get(f["id"], ()))
            out.append(restored_record(f))
        return out

    def get(self, ids: Iterable[str]) -> list[Record]:
        """Records by id in the order asked (duplicates repeated); unknown ids skipped."""
        asked = [ids] if isinstance(ids, str) else list(ids)  # a bare id, not its characters
        if not asked:
            return []
        with self._tx("BEGIN") as conn:
            rows: list[Any] = []
            for chunk in _chunks(list(dict.fromkeys(asked))):
                sql = f"SELECT {_RECORD_COLUMNS} FROM records WHERE id IN ({_marks(len(chunk))})"
                rows.extend(conn.execute(sql, tuple(chunk)))
            by_id = {r.id: r for r in self._hydrate(conn, rows)}
        return [by_id[i] for i in asked if i in by_id]

    def records(
        self, user_id: str, ledgers: Sequence[Ledger] | None = None, limit: int | None = None
    ) -> list[Record]:
        """A user's records, oldest valid_from first (then recorded_at, then insertion)."""
        if (ledgers is not None and not ledgers) or (limit is not None and limit <= 0):
            return []
        sql = f"SELECT {_RECORD_COLUMNS} FROM records WHERE user_id = ?"
        params: list[Any] = [user_id]
        if ledgers is not None:
            values = sorted({Ledger(led).value for led in ledgers})
            sql += f" AND ledger IN ({_marks(len(values))})"
            params += values
        sql += " ORDER BY valid_from, recorded_at, rid"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        with self._tx("BEGIN") as conn:
            rows = conn.execute(sql, params).fetchall()
            return self._hydrate(conn, rows)

    def slot_records(
        self, user_id: str, subject: str, slot: str, ledgers: Sequence[Ledger]
    ) -> list[Record]:
        """One (user, subject, slot)'s records, oldest first, via the slot index."""
        if not ledgers:
            return []
        values = sorted({Ledger(led).value for led in ledgers})
        sql = (
            f"SELECT {_RECORD_COLUMNS} FROM records WHERE user_id = ? AND slot = ? "
            f"AND subject = ? AND ledger IN ({_marks(len(values))}) "
            "ORDER BY valid_from, recorded_at, rid"
        )
        with self._tx("BEGIN") as conn:
            rows = conn.execute(sql, (user_id, slot, subject, *values)).fetchall()
            return self._hydrate(conn, rows)

    def ids_with_prefix(self, prefix: str, limit: int, user_id: str | None = None
                        ) -> list[str]:
        # A range on the unique index; chr(0x10FFFF) sorts after every character of an id.
        with self._tx("BEGIN") as conn:
            rows = conn.execute("SELECT id FROM records WHERE id >= ? AND id < ? AND "
                                "(? IS NULL OR user_id = ?) ORDER BY id LIMIT ?",
                                (prefix, prefix + chr(0x10FFFF), user_id, user_id, limit))
            return [r[0] for r in rows]

    def version(self, user_id: str) -> int:
        with self._tx("BEGIN") as conn:
            return self._version(conn, user_id)

    @staticmethod
    def _version(conn: sqlite3.Connection, user_id: str) -> int:
        row = conn.execute("SELECT max(seq) FROM transactions WHERE user_id = ?", (user_id,))
        return int(row.fetchone()[0] or 0)

    def users(self) -> list[str]:
        with self._tx("BEGIN") as conn:
            return [r[0] for r in conn.execute("SELECT DISTINCT user_id FROM records ORDER BY 1")]

    def transactions(self, user_id: str, limit: int = 100, offset: int = 0
                     ) -> list[dict[str, Any]]:
        """The user's log, newest first (by commit order, not by the statement's ``at``)."""
        if limit <= 0:
            return []
        with self._tx("BEGIN") as conn:
            cur = conn.execute(
                f"SELECT {_TX_COLUMNS} FROM transactions WHERE user_id = ? "
                "ORDER BY seq DESC LIMIT ? OFFSET ?",
                (user_id, int(limit), max(0, int(offset))),
            )
            return [dict(zip(_TX_FIELDS, row, strict=True)) for row in cur]

    def search_text(
        self, user_id: str, query: str, limit: int, ledgers: Sequence[Ledger]
    ) -> list[tuple[str, float]]:
        """BM25 hits as (id, -bm25), best first.

        CROSS JOIN pins the plan to "FTS posting lists first, then the record by rowid";
        the other order would probe the FTS index once per record of the user.
        """
        match = fts_query(query)
        if not match or limit <= 0 or not ledgers:
            return []
        values = sorted({Ledger(led).value for led in ledgers})
        sql = (
            "SELECT r.id, bm25(records_fts) AS score FROM records_fts "
            "CROSS JOIN records r ON r.rid = records_fts.rowid "
            f"WHERE records_fts MATCH ? AND r.user_id = ? AND r.ledger IN ({_marks(len(values))}) "
            "ORDER BY score, r.rid LIMIT ?"
        )
        with self._tx("BEGIN") as conn:
            match = self._without_common_terms(conn, match)
            if not match:
                return []
            rows = conn.execute(sql, (match, user_id, *values, int(limit))).fetchall()
        return [(rid, -float(score)) for rid, score in rows]

    def _without_common_terms(self, conn: sqlite3.Connection, match: str) -> str:
        """Drop terms found in too many documents (``base.common_term_limit``; counts over all
        users; the document count is the rowid high-water mark, cheap and close enough).

        fts5vocab counts a term's documents by walking its whole posting list (~1 ms per
        10k documents), so counts of frequent terms are cached until the table has grown
        or shrunk by TERM_COUNT_SLACK rows (or this store deleted records): a cached count
        is off by at most that much, which only moves terms right at the threshold.
        """
        terms = [t.strip('"') for t in match.split(" OR ")]
        top = int(conn.execute("SELECT coalesce(max(rid), 0) FROM records").fetchone()[0])
        if abs(top - self._term_docs_at) > TERM_COUNT_SLACK:
            self._term_docs.clear()
            self._term_docs_at = top
        docs = {t: self._term_docs[t] for t in terms if t in self._term_docs}
        unknown = [t for t in terms if t not in docs]
        if unknown:
            rows = conn.execute(
                f"SELECT term, doc FROM records_fts_vocab WHERE term IN ({_marks(len(unknown))})",
                unknown,
            ).fetchall()
            docs.update(rows)
            # Rare terms are cheap to count again; caching them would only grow the dict.
            self._term_docs.update((t, d) for t, d in rows if d > TERM_COUNT_SLACK)
        limit = common_term_limit(top)
        common = {t for t in terms if docs.get(t, 0) > limit}
        return " OR ".join(f'"{t}"' for t in terms if t not in common)

    def search_vector(
        self, user_id: str, vector: Vector, limit: int, ledgers: Sequence[Ledger]
    ) -> list[tuple[str, float]]:
        """Exact cosine top-k from the user's cached index (built on first use)."""
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise InvalidInputError(f"query vector has dim {query.shape[0]}, store dim {self.dim}")
        if limit <= 0 or not ledgers:
            return []
        with self._lock:
            index = self._index(user_id)
            if index is None:
                return []
            return index.search(query, limit, [Ledger(led) for led in ledgers])

    def _index(self, user_id: str) -> VectorIndex | None:
        """The user's cached index, rebuilt if another connection changed the file."""
        with self._tx("BEGIN") as conn:
            version = self._pragma_int(conn, "data_version")
        if version != self._data_version:
            self._indexes.clear()
            self._data_version = version
        index = self._indexes.get(user_id)
        if index is not None:
            return index
        with self._tx("BEGIN") as conn:
            # The matrix's size, from an index (records with no embedding count too).
            (size,) = conn.execute("SELECT count(*) FROM records WHERE user_id = ?",
                                   (user_id,)).fetchone()
            # A chunk of rows at a time from the cursor (VectorIndex.build). No ORDER BY:
            # sorting would spill every blob into a temp b-tree.
            rows = conn.execute("SELECT id, ledger, embedding FROM records "
                                "WHERE user_id = ? AND embedding IS NOT NULL", (user_id,))
            index = VectorIndex.build(self.dim, rows, size)
        if not len(index):
            return None  # not cached: ids of unknown users must not grow memory
        self._indexes.put(user_id, index)
        return index


def _now() -> datetime:
    return datetime.now(UTC)
