"""The PostgreSQL store: records, links and the log in tables, pgvector and tsvector search.

Why PostgreSQL: a team runs one memory for many users and agents, from several processes
and hosts. Every mutation is one server transaction, so a crash (of the client or the
server) never leaves half a diff, and several stores on one database see each other's
commits at once (the vector indexes below catch up before every search).

Search. Text runs in SQL: a generated ``tsvector`` column (``english`` configuration) with
a GIN index, queried with an OR of ``plainto_tsquery`` over sanitised terms and ranked by
``ts_rank_cd``. Vectors: a pgvector ``vector(dim)`` column. A user with fewer than
``index_min_rows`` embedded records is ranked exactly by cosine distance ``<=>`` in SQL
(a few milliseconds); a larger one on an in-process index of their vectors
(``stores.vector_index``, the SQLite store's), kept in step with every writer on the
database by change numbers: 100,000 rows search in ~2 ms instead of ~100 ms in SQL.
Why not pgvector's HNSW or IVFFlat: measured on a 100,000-row user (docs/BENCHMARKS.md),
a partial HNSW index per user reached recall@10 0.94 at ef_search 400 on the perf bench's
bank and 0.35 on its mixed bank (LoCoMo turns among synthetic rows, LoCoMo questions),
IVFFlat 0.79 at 40 probes: a memory whose one topic is rare is what those graphs miss.

Connections: one connection per store, shared by all threads behind an ``RLock`` (each
method holds it for one statement or one transaction). Simple and enough for the request
rates of a memory service; a process that needs more parallelism opens several stores.
A connection that broke (server restart) is replaced on the next call.

Tables live in one schema (``schema=`` argument, ``?schema=`` in the URL, or the first
schema of the connection's ``search_path``), named ``stateledger_*`` so they can share a
schema with an application's own tables. ``stateledger_meta`` holds the schema version and
the embedding dimension.
"""

from __future__ import annotations

import enum
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import numpy as np
import numpy.typing as npt

from stateledger.core.model import Diff, Ledger, Link, LinkType, Record, Status, Transaction
from stateledger.errors import (
    InvalidInputError,
    MissingDependencyError,
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
from stateledger.stores.postgres_sql import (
    MIGRATIONS,
    RECORD_FIELDS,
    SCHEMA_VERSION,
    TABLES,
    TEXT_SEARCH_CONFIG,
    TX_FIELDS,
    statements,
    table_names,
    tsquery_terms,
)
from stateledger.stores.vector_index import IndexCache, VectorIndex

try:
    import psycopg
    from pgvector.psycopg import register_vector
    from psycopg import sql as pgsql
    from psycopg.conninfo import conninfo_to_dict
    from psycopg.types.json import Jsonb
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise MissingDependencyError(
        "the PostgreSQL store needs psycopg and pgvector: pip install 'stateledger[postgres]'"
    ) from exc

__all__ = ["SCHEMA_VERSION", "TEXT_SEARCH_CONFIG", "PostgresStore", "split_schema_param",
           "tsquery_terms"]

_MIGRATION_LOCK = "stateledger.migrate"  # advisory lock: concurrent openers migrate once
# Users with fewer embedded records are searched exactly in SQL (a few milliseconds); from
# here on an in-process index is faster (100,000 rows: ~100 ms in SQL, ~2 ms cached).
INDEX_MIN_ROWS = 2_000
TERM_STATS_SECONDS = 60.0  # how long the column statistics of the text search are reused
_MAX_MARKS = 100_000  # small users remembered at most (then forgotten and counted again)
_MAX_LEXEMES = 100_000  # query terms whose lexemes are remembered (then asked again)
_BUILD_ROWS = 4_096  # rows a server-side cursor brings per round trip to an index build


@dataclass(frozen=True)
class _Mark:
    """What the store last saw of a user's records: the largest change number
    (``_migrate_v4``), and whether they were too few to index (``small``)."""

    changed: int
    small: bool = False


# ------------------------------------------------------------------------- helpers


def _array(vector: Any) -> npt.NDArray[np.float32]:
    """A loaded vector as an owned float32 array (pgvector >= 0.4 loads ``Vector`` objects,
    older releases numpy arrays)."""
    raw = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return np.array(raw, dtype=np.float32, copy=True)


def _last_change(rows: Sequence[Any], since: int) -> int:
    """The largest change number among ``_changed_rows`` rows, ``since`` if none is larger."""
    return max([since, *(int(row[3]) for row in rows)])


def _plain(value: Any) -> Any:
    """Enums are stored by value (psycopg would pick a dumper by type, not by value); a
    metadata object as jsonb."""
    if isinstance(value, Mapping):
        return Jsonb(dict(value))
    return value.value if isinstance(value, enum.Enum) else value


def _utc(value: datetime | None) -> datetime | None:
    """A loaded timestamp in UTC, like the SQLite store returns it."""
    return None if value is None else value.astimezone(UTC)


def _iso(value: datetime) -> str:
    """Log timestamps as the SQLite store writes them: fixed-width UTC ISO-8601 strings."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def split_schema_param(url: str) -> tuple[str, str | None]:
    """Take a ``schema=`` query parameter (ours, unknown to libpq) out of a URL."""
    if "://" not in url:
        return url, None  # a libpq keyword string: no URL query to look at
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [v for k, v in query if k == "schema"]
    if not schemas:
        return url, None
    # quote, not quote_plus: libpq decodes %XX but leaves "+" as is (options=-c a=b -c ...)
    rest = urlencode([(k, v) for k, v in query if k != "schema"], quote_via=quote)
    return urlunsplit(parts._replace(query=rest)), schemas[-1]


def _where(params: dict[str, Any]) -> str:
    """Host, port and database of a connection, for messages (never the password)."""
    host = params.get("host") or "localhost"
    return f"{host}:{params.get('port') or 5432}/{params.get('dbname') or ''}"


# --------------------------------------------------------------------------- store


class PostgresStore:
    """The ``Store`` protocol on PostgreSQL with the pgvector extension.

    ``url`` is a libpq URL (``postgresql://user:pass@host:5432/db``) or keyword string.
    ``schema`` (or ``?schema=NAME`` in the URL) puts the tables in that schema, created if
    missing; otherwise they go to the first schema of the connection's ``search_path``.
    The ``vector`` extension is created when missing if the role may do so; otherwise a
    superuser has to run ``CREATE EXTENSION vector`` in the database once.

    Vector search of a user with at least ``index_min_rows`` embedded records runs on an
    in-process index of their vectors (``stores.vector_index``, as in the SQLite store),
    brought up to date with every other writer before each search; smaller users are
    searched exactly in SQL. ``max_index_rows`` bounds the memory those indexes take.
    """

    def __init__(
        self, url: str, dim: int = 384, *, schema: str | None = None, connect_timeout: int = 10,
        index_min_rows: int = INDEX_MIN_ROWS, max_index_rows: int = 2_000_000,
    ) -> None:
        if dim <= 0:
            raise InvalidInputError(f"dim must be positive, got {dim}")
        conninfo, url_schema = split_schema_param(url)
        self.dim = dim
        self._requested_schema = schema if schema is not None else url_schema
        if self._requested_schema is not None and not 0 < len(self._requested_schema) < 64:
            raise InvalidInputError(f"schema name must be 1-63 characters: {schema!r}")
        try:
            self._params: dict[str, Any] = dict(conninfo_to_dict(conninfo))
        except psycopg.Error as exc:
            raise InvalidInputError(f"not a PostgreSQL connection string: {exc}") from exc
        self._params.setdefault("connect_timeout", connect_timeout)
        self._params.setdefault("application_name", "stateledger")
        self.schema = ""  # the schema the tables are in, known once connected
        self._sql: dict[str, str] = {}
        self._lock = threading.RLock()
        self._conn: psycopg.Connection[Any] | None = None
        self._closed = False
        self._index_min_rows = index_min_rows
        self._indexes = IndexCache(max_index_rows)
        self._marks: dict[str, _Mark] = {}  # what each cached index has seen of the database
        self._term_stats: tuple[dict[str, float], float] = ({}, 0.0)
        self._term_stats_at = -float("inf")
        self._lexemes: dict[str, list[str]] = {}  # query term -> its lexemes
        with self._lock:
            self._connect()

    def __repr__(self) -> str:
        return f"PostgresStore({_where(self._params)!r}, schema={self.schema!r}, dim={self.dim})"

    # -- connection and migrations ----------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        """Open the connection, migrate, and register the vector type (lock held)."""
        try:
            conn = psycopg.connect(autocommit=True, **self._params)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot connect to PostgreSQL at {_where(self._params)}: {exc}"
            ) from exc
        try:
            # UTC so loaded timestamps need no zone lookup; warnings only, so harmless
            # NOTICEs (stop-word-only queries, IF NOT EXISTS) do not reach the client.
            conn.execute("SET TIME ZONE 'UTC'")
            conn.execute("SET client_min_messages TO warning")
            with conn.transaction():
                self._migrate(conn)
            register_vector(conn)
        except BaseException as exc:
            conn.close()
            if isinstance(exc, psycopg.Error):
                raise StoreError(f"cannot open the PostgreSQL store: {exc}") from exc
            raise
        self._conn = conn
        return conn

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        """Extension, schema, search_path, migrations and the ``dim`` check: one transaction."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_MIGRATION_LOCK,))
        ext_schema = self._ensure_extension(conn)
        if self._requested_schema is not None:
            conn.execute(
                pgsql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(
                    pgsql.Identifier(self._requested_schema)
                )
            )
            path = [self._requested_schema]
        else:
            row = conn.execute("SELECT current_schema(), current_schemas(false)").fetchone()
            if row is None or row[0] is None:
                raise StoreError(
                    "no schema to create tables in: the search_path names no existing schema; "
                    "create it, or pass schema= / ?schema= to the store"
                )
            path = list(row[1])
        if ext_schema not in path:
            path.append(ext_schema)  # the vector type and operators must resolve
        conn.execute(
            "SELECT set_config('search_path', %s, false)",
            (", ".join(pgsql.Identifier(p).as_string(conn) for p in path),),
        )
        self.schema = path[0]
        names = table_names(pgsql.Identifier(self.schema).as_string(conn))
        self._sql = statements(names)
        exists = conn.execute(
            "SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = %s",
            (self.schema, TABLES["meta"]),
        ).fetchone()
        if exists is None:
            conn.execute(
                "CREATE TABLE {meta} (key text PRIMARY KEY, value text NOT NULL)".format(**names)
            )
        meta = dict(conn.execute("SELECT key, value FROM {meta}".format(**names)).fetchall())
        version = int(meta.get("schema_version", 0))
        where = f"schema {self.schema!r} at {_where(self._params)}"
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{where} has stateledger schema version {version}; this stateledger supports "
                f"up to {SCHEMA_VERSION}. Upgrade stateledger to open it."
            )
        if "dim" in meta and int(meta["dim"]) != self.dim:
            raise StoreError(
                f"{where} holds {meta['dim']}-dimensional embeddings but the store was opened "
                f"with dim={self.dim}; use the same embedding model (or dim={meta['dim']})."
            )
        upsert = (
            "INSERT INTO {meta} (key, value) VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        ).format(**names)
        for target, migration in MIGRATIONS:
            if target > version:
                for statement in migration(self.dim):
                    conn.execute(statement.format(**names))
                conn.execute(upsert, ("schema_version", str(target)))
        conn.execute(upsert, ("dim", str(self.dim)))

    @staticmethod
    def _ensure_extension(conn: psycopg.Connection[Any]) -> str:
        """The schema of the ``vector`` extension, creating the extension when allowed."""
        query = (
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
            "WHERE e.extname = 'vector'"
        )
        row = conn.execute(query).fetchone()
        if row is None:
            try:
                with conn.transaction():  # a savepoint: a refusal must not abort the rest
                    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.Error as exc:
                raise StoreError(
                    "the pgvector extension is not installed in this database and could not be "
                    f"created ({exc}). Install pgvector on the server (Debian: "
                    "postgresql-NN-pgvector) and run CREATE EXTENSION vector as a superuser."
                ) from exc
            row = conn.execute(query).fetchone()
        assert row is not None
        return str(row[0])

    def close(self) -> None:
        """Close the connection; idempotent. Later calls raise StoreError."""
        with self._lock:
            self._closed = True
            self._indexes.clear()
            self._marks.clear()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _live(self) -> psycopg.Connection[Any]:
        """The open connection (lock held), replaced first if it broke (server restart)."""
        if self._closed:
            raise StoreError("the store is closed")
        conn = self._conn
        if conn is None or conn.broken or conn.closed:
            if conn is not None:
                conn.close()
            self._conn = None
            conn = self._connect()
        return conn

    @contextmanager
    def _write(self) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor inside one transaction, under the lock.

        Errors we raise on purpose (StateLedgerError) pass through after the rollback;
        anything else (psycopg errors, bad values) becomes a StoreError with the cause
        chained, so callers need to catch only the documented hierarchy. A write is never
        retried: if the connection dropped during COMMIT, whether it landed is unknown.
        """
        with self._lock:
            conn = self._live()
            try:
                with conn.transaction(), conn.cursor(binary=True) as cur:
                    yield cur
            except Exception as exc:
                if isinstance(exc, StateLedgerError):
                    raise
                raise StoreError(f"PostgreSQL store operation failed: {exc}") from exc

    def _read(self, statement: str, params: Sequence[Any] | dict[str, Any]) -> list[Any]:
        """Rows of one statement, run in autocommit mode (one snapshot, no BEGIN/COMMIT).

        Binary results, so embeddings arrive as packed float32. A read that failed because
        the connection broke is retried once on a fresh connection (reads are idempotent).
        """
        with self._lock:
            for attempt in (1, 2):
                conn = self._live()
                try:
                    with conn.cursor(binary=True) as cur:
                        return cur.execute(statement, params).fetchall()
                except psycopg.OperationalError as exc:
                    if attempt == 1 and conn.broken:
                        continue
                    raise StoreError(f"PostgreSQL store operation failed: {exc}") from exc
                except psycopg.Error as exc:
                    raise StoreError(f"PostgreSQL store operation failed: {exc}") from exc
            raise AssertionError("unreachable")  # pragma: no cover

    # -- writes -----------------------------------------------------------------------------

    def _record_row(self, r: Record) -> tuple[Any, ...]:
        plain = tuple(_plain(getattr(r, f)) for f in RECORD_FIELDS[:-1])
        return (*plain, checked_embedding(r, self.dim))

    def commit(
        self, changes: Sequence[tuple[Diff, Transaction]], read_version: int | None = None
    ) -> None:
        """Apply each ``(diff, tx)`` in order and log each ``tx``, in one transaction; links
        also get their inverse.

        References are checked before anything is written, so a batch that names a missing
        record raises UnknownRecordError with the database untouched.
        """
        rows = [[self._record_row(r) for r in diff.inserts] for diff, _ in changes]
        sql = self._sql
        with self._write() as cur:
            # Every commit holds its users' advisory locks (in order, so writers never
            # deadlock) until COMMIT: the version read under the lock is the one this batch
            # lands on, and no other commit of that user slips in between.
            for user in sorted({tx.user_id for _, tx in changes}):
                cur.execute(sql["lock_user"], (user,))
            if read_version is not None:
                user = batch_user(changes)
                (version,) = cur.execute(sql["version"], (user,)).fetchone() or (0,)
                refuse_moved(user, read_version, int(version))
            new_ids = {r.id for diff, _ in changes for r in diff.inserts}
            referenced: set[str] = set()
            for diff, _ in changes:
                referenced |= {u.record_id for u in diff.updates}
                referenced |= {lk.src for lk in diff.links} | {lk.dst for lk in diff.links}
            wanted = sorted(referenced - new_ids)
            # FOR UPDATE (in id order, so writers never deadlock) holds these rows until
            # COMMIT: a concurrent writer waits, then sees the statuses this one left.
            found = {row[0]: Status(row[1])
                     for row in cur.execute(sql["lock_statuses"], (wanted,)).fetchall()}
            missing = set(wanted) - found.keys()
            if missing:
                raise UnknownRecordError(f"diff references unknown record(s): {sorted(missing)}")
            refuse_stale(changes, found)
            for (diff, tx), inserts in zip(changes, rows, strict=True):
                self._write_diff(cur, diff, tx, inserts)

    def restore(self, records: Sequence[Record], log: Sequence[Mapping[str, Any]]) -> None:
        sql = self._sql
        with self._write() as cur:
            # The users' locks, as a commit holds them: a change number drawn here must not
            # land after a larger one of a concurrent commit (see _migrate_v4).
            for user in sorted({r.user_id for r in records}):
                cur.execute(sql["lock_user"], (user,))
            clash = [row[0] for row in cur.execute(sql["lock_statuses"],
                                                   ([r.id for r in records],)).fetchall()]
            if clash:
                raise StoreError(f"{len(clash)} record(s) of the export are already in this "
                                 f"store (e.g. {sorted(clash)[0]}); restore into a store "
                                 "without them (forget_user first)")
            if records:
                cur.executemany(sql["insert_record"], [self._record_row(r) for r in records])
            links = [(r.id, lk.dst, LinkType(lk.type).value) for r in records for lk in r.links]
            if links:
                cur.executemany(sql["insert_link"], links)
            if log:
                cur.executemany(sql["insert_tx"], [tuple(_plain(e[f]) for f in TX_FIELDS)
                                                   for e in log])

    def _write_diff(self, cur: Any, diff: Diff, tx: Transaction, rows: list[Any]) -> None:
        sql = self._sql
        if rows:
            cur.executemany(sql["insert_record"], rows)
        if diff.updates:
            changes = [(_plain(u.status), _plain(u.ledger), u.valid_to, u.record_id)
                       for u in diff.updates]  # fmt: skip
            cur.executemany(sql["update_record"], changes)
        links = [(one.src, one.dst, LinkType(one.type).value)
                 for lk in diff.links for one in (lk, lk.inverse())]  # fmt: skip
        if links:
            cur.executemany(sql["insert_link"], links)
        ids = {role: getattr(tx, role).id if getattr(tx, role) is not None else None
               for role in ("record", "target", "resolved")}  # fmt: skip
        cur.execute(
            sql["insert_tx"],
            (tx.id, tx.user_id, tx.text, _plain(tx.action), _plain(tx.relation), ids["record"],
             ids["target"], ids["resolved"], tx.rho, tx.confidence, tx.reason, tx.policy,
             tx.at, datetime.now(UTC)),
        )  # fmt: skip

    def delete(self, ids: Sequence[str], reason: str) -> int:
        """Delete records (links both ways follow by cascade) and log a 'forget' entry.

        One log entry per affected user, listing the deleted ids in its reason. Unknown ids
        are ignored; the count says how many records were actually deleted.
        """
        asked = list(dict.fromkeys([ids] if isinstance(ids, str) else ids))
        if not asked:
            return 0
        with self._write() as cur:
            owner = dict(cur.execute(self._sql["delete"], (asked,)).fetchall())
            gone = list(owner)
            cur.execute(self._sql["scrub_log"], (gone, gone, gone))
            by_user: dict[str, list[str]] = {}
            for rid in asked:
                if rid in owner:
                    by_user.setdefault(owner[rid], []).append(rid)
            now = datetime.now(UTC)
            for user, user_ids in by_user.items():
                listed = f"{reason}; forgot {len(user_ids)} record(s): {', '.join(user_ids)}"
                cur.execute(
                    self._sql["insert_tx"],
                    (uuid.uuid4().hex, user, "", "forget", "none", None, None, None, 0.0, 1.0,
                     listed, "", now, now),
                )  # fmt: skip
        return len(owner)

    def integrity(self) -> list[str]:
        problems: list[str] = []
        for name, what in (("orphan_links", "link(s) to a missing record"),
                           ("one_way_links", "link(s) without an inverse")):
            count = self._read(self._sql[name], ())[0][0]
            if count:
                problems.append(f"links: {count} {what}")
        return problems

    def delete_user(self, user_id: str) -> int:
        """Erase a user: every record (links follow by cascade) and every log entry."""
        with self._write() as cur:
            count = cur.execute(self._sql["delete_user"], (user_id,)).rowcount
            cur.execute(self._sql["delete_user_log"], (user_id,))
        return int(count)

    # -- reads ------------------------------------------------------------------------------

    @staticmethod
    def _hydrate(rows: Iterable[Sequence[Any]]) -> list[Record]:
        """Rows of ``_SELECT_RECORDS`` -> Records with links (write order) and embeddings."""
        out: list[Record] = []
        for row in rows:
            n = len(RECORD_FIELDS)
            f = dict(zip(RECORD_FIELDS, row[:n], strict=True))
            dsts, types = row[n] or [], row[n + 1] or []
            links = tuple(
                Link(f["id"], dst, LinkType(t)) for dst, t in zip(dsts, types, strict=True)
            )
            vector = f["embedding"]
            f["embedding"] = None if vector is None else _array(vector)
            f["valid_from"], f["recorded_at"] = _utc(f["valid_from"]), _utc(f["recorded_at"])
            f["valid_to"] = _utc(f["valid_to"])
            f["links"] = links
            out.append(restored_record(f))
        return out

    def get(self, ids: Iterable[str]) -> list[Record]:
        """Records by id in the order asked (duplicates repeated); unknown ids skipped."""
        asked = [ids] if isinstance(ids, str) else list(ids)  # a bare id, not its characters
        if not asked:
            return []
        rows = self._read(self._sql["get"], (list(dict.fromkeys(asked)),))
        by_id = {r.id: r for r in self._hydrate(rows)}
        return [by_id[i] for i in asked if i in by_id]

    def records(
        self, user_id: str, ledgers: Sequence[Ledger] | None = None, limit: int | None = None
    ) -> list[Record]:
        """A user's records, oldest valid_from first (then recorded_at, then insertion)."""
        if (ledgers is not None and not ledgers) or (limit is not None and limit <= 0):
            return []
        values = None if ledgers is None else sorted({Ledger(led).value for led in ledgers})
        rows = self._read(self._sql["records"], (user_id, values, values, limit))
        return self._hydrate(rows)

    def slot_records(
        self, user_id: str, subject: str, slot: str, ledgers: Sequence[Ledger]
    ) -> list[Record]:
        """One (user, subject, slot)'s records, oldest first, via the slot index."""
        if not ledgers:
            return []
        values = sorted({Ledger(led).value for led in ledgers})
        rows = self._read(self._sql["slot"], (user_id, slot, subject, values))
        return self._hydrate(rows)

    def ids_with_prefix(self, prefix: str, limit: int, user_id: str | None = None
                        ) -> list[str]:
        return [row[0] for row in self._read(self._sql["ids_with_prefix"],
                                             (prefix, user_id, user_id, limit))]

    def version(self, user_id: str) -> int:
        return int(self._read(self._sql["version"], (user_id,))[0][0])

    def users(self) -> list[str]:
        """Distinct user ids in byte order (``COLLATE "C"``), as SQLite sorts them."""
        return [row[0] for row in self._read(self._sql["users"], ())]

    def transactions(self, user_id: str, limit: int = 100, offset: int = 0
                     ) -> list[dict[str, Any]]:
        """The user's log, newest first (by commit order, not by the statement's ``at``).

        Timestamps come back as UTC ISO-8601 strings, the same dicts the SQLite store gives.
        """
        if limit <= 0:
            return []
        out = []
        for row in self._read(self._sql["log"], (user_id, int(limit), max(0, int(offset)))):
            entry = dict(zip(TX_FIELDS, row, strict=True))
            entry["at"], entry["logged_at"] = _iso(entry["at"]), _iso(entry["logged_at"])
            out.append(entry)
        return out

    def search_text(
        self, user_id: str, query: str, limit: int, ledgers: Sequence[Ledger]
    ) -> list[tuple[str, float]]:
        """Full-text hits as (id, ts_rank_cd), best first; any term may match (OR)."""
        terms = self._without_common_terms(tsquery_terms(query))
        if not terms or limit <= 0 or not ledgers:
            return []
        values = sorted({Ledger(led).value for led in ledgers})
        tsq = " || ".join([f"plainto_tsquery('{TEXT_SEARCH_CONFIG}', %s)"] * len(terms))
        statement = self._sql["search_text"].replace("TSQUERY", f"({tsq})")
        rows = self._read(statement, (*terms, user_id, values, *terms, int(limit)))
        return [(rid, float(score)) for rid, score in rows]

    def _without_common_terms(self, terms: list[str]) -> list[str]:
        """``terms`` without those in more documents than ``base.common_term_limit``, as
        the SQLite store leaves them out (ts_rank_cd would rank every match).

        How common a term is comes from PostgreSQL's own statistics of the ``tsv`` column
        (``pg_stats.most_common_elems``, kept by ANALYZE and autovacuum), read at most once
        per TERM_STATS_SECONDS; a term's lexeme (its stem) is asked of the server once.
        Before the table was first analysed nothing is left out."""
        if not terms:
            return terms
        with self._lock:
            now = time.monotonic()
            if now - self._term_stats_at > TERM_STATS_SECONDS:
                rows = self._read(self._sql["term_stats"], (self.schema, TABLES["records"]))
                elems, freqs, documents = rows[0] if rows else (None, None, 0)
                self._term_stats = (dict(zip(elems or [], freqs or [], strict=False)),
                                    float(documents or 0))
                self._term_stats_at = now
            frequency, documents = self._term_stats
            if not frequency:
                return terms
            unknown = [t for t in terms if t not in self._lexemes]
            if unknown:
                if len(self._lexemes) > _MAX_LEXEMES:
                    self._lexemes.clear()
                self._lexemes.update(
                    (t, list(lexemes or []))
                    for t, lexemes in self._read(self._sql["lexemes"], (unknown,)))
        limit = common_term_limit(int(documents))
        return [t for t in terms if not any(frequency.get(lx, 0.0) * documents > limit
                                            for lx in self._lexemes.get(t, []))]

    def search_vector(
        self, user_id: str, vector: Vector, limit: int, ledgers: Sequence[Ledger]
    ) -> list[tuple[str, float]]:
        """Exact cosine top-k over the user's rows in ``ledgers`` as (id, 1 - distance).

        A non-finite query matches nothing (pgvector refuses NaN), as in the SQLite store.
        """
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise InvalidInputError(f"query vector has dim {query.shape[0]}, store dim {self.dim}")
        if limit <= 0 or not ledgers or not np.all(np.isfinite(query)):
            return []
        with self._lock:
            hits = self._indexed_search(user_id, query, limit, ledgers)
            if hits is not None:
                return hits
        values = sorted({Ledger(led).value for led in ledgers})
        params = {"q": query, "user": user_id, "ledgers": values, "limit": int(limit)}
        rows = self._read(self._sql["search_vector"], params)
        return [(rid, float(similarity)) for rid, similarity in rows]

    # -- the in-process vector index of large users -------------------------------------------

    def _indexed_search(self, user_id: str, query: npt.NDArray[np.float32], limit: int,
                        ledgers: Sequence[Ledger]) -> list[tuple[str, float]] | None:
        """The search on the user's in-process index, up to date with every commit visible
        now; None for a user with fewer than ``index_min_rows`` embedded records.

        Inserts and ledger moves carry change numbers (``_migrate_v4``), so the index reads
        only the rows changed since its last look. Deletions leave no number: the hits are
        checked to exist, and an index that returned a deleted record is rebuilt."""
        wanted = [Ledger(led) for led in ledgers]
        for _ in range(2):
            index = self._synced_index(user_id)
            if index is None:
                return None
            hits = index.search(query, limit, wanted)
            ids = [rid for rid, _ in hits]
            if len(self._read(self._sql["existing"], (ids,))) == len(ids):
                return hits
            self._indexes.pop(user_id)  # something was deleted: build it again
            self._marks.pop(user_id, None)
        return None  # deleted again while rebuilding: the SQL search reads one snapshot

    def _synced_index(self, user_id: str) -> VectorIndex | None:
        """The user's cached index, brought up to date; None for a small user."""
        (version,) = self._read(self._sql["changed_upto"], (user_id,))[0]
        mark, index = self._marks.get(user_id), self._indexes.get(user_id)
        if mark is not None and mark.changed == version and (index is not None
                                                             or mark.small):
            return index
        if mark is not None and index is not None and version > mark.changed:
            self._marks[user_id] = _Mark(self._apply_changes(index, user_id, mark.changed))
            return index
        self._indexes.pop(user_id)
        self._marks.pop(user_id, None)
        if len(self._marks) >= _MAX_MARKS:  # forget the small users (counted again)
            self._marks = {u: m for u, m in self._marks.items() if u in self._indexes}
        size = self._read(self._sql["vector_rows_upto"], (user_id, self._index_min_rows))[0][0]
        if size < self._index_min_rows:
            self._marks[user_id] = _Mark(version, small=True)
            return None
        index, changed = self._build_index(user_id)
        self._indexes.put(user_id, index)
        # Marks of indexes the cache dropped go with them.
        self._marks = {u: m for u, m in self._marks.items() if m.small or u in self._indexes}
        self._marks[user_id] = _Mark(changed)
        return index

    def _build_index(self, user_id: str) -> tuple[VectorIndex, int]:
        """The user's index over all their embedded rows, and the largest change number
        among them; lock held. The rows come in insertion order (as the SQL search breaks
        ties) through a server-side cursor, ``_BUILD_ROWS`` at a time, straight into the
        index's matrix (``VectorIndex.build``): a million-row user is indexed without a
        million rows in memory beside it, as ``_read``'s one fetch would hold."""
        conn = self._live()
        changed = 0

        def vectors(cur: psycopg.Cursor[Any]) -> Iterator[tuple[str, str, Any]]:
            nonlocal changed
            for record_id, ledger, embedding, number in cur:
                changed = max(changed, int(number))
                yield record_id, ledger, _array(embedding)

        try:
            # One transaction: the count and the rows read one snapshot. The rows come down
            # the (user_id, rid) index (_migrate_v5): a sort of them with their vectors
            # spills to the server's disk, whatever the planner's estimate of their number.
            with conn.transaction(), conn.cursor(binary=True) as counter, \
                    conn.cursor(name=f"stateledger_build_{uuid.uuid4().hex}", binary=True) as cur:
                counter.execute("SET LOCAL enable_sort = off")
                (size,) = counter.execute(self._sql["vector_rows"], (user_id,)).fetchone() or (0,)
                cur.itersize = _BUILD_ROWS
                cur.execute(self._sql["vectors"], (user_id,))
                index = VectorIndex.build(self.dim, vectors(cur), int(size))
            return index, changed  # read by vectors() while the build ran
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL store operation failed: {exc}") from exc

    def _apply_changes(self, index: VectorIndex, user_id: str, since: int) -> int:
        """Rows of the user changed after ``since`` into ``index`` (a row already there
        gets its new ledger); the largest change number read."""
        rows = self._changed_rows(user_id, since)
        if rows:
            index.add([row[0] for row in rows], np.stack([_array(row[2]) for row in rows]),
                      [Ledger(row[1]) for row in rows])
        return _last_change(rows, since)

    def _changed_rows(self, user_id: str, since: int) -> list[Any]:
        """(id, ledger, embedding, change number, rid) of the user's rows changed after
        ``since``, in insertion order, as the SQL search breaks ties."""
        return sorted(self._read(self._sql["vectors_since"], (user_id, since)),
                      key=lambda row: row[4])
