"""The SQL of the PostgreSQL store: migrations, statements and the text query terms.

Pure text, no driver import, so it can be read and tested without a server. Table names
appear as ``{records}``-style placeholders that the store fills with schema-qualified,
quoted names once it knows its schema.
"""

from __future__ import annotations

import re
from collections.abc import Callable

TEXT_SEARCH_CONFIG = "english"  # stems "moved"/"move" alike and drops English stop words
_MAX_QUERY_TERMS = 32  # bounds the cost of one text query whatever the caller sends
_WORD = re.compile(r"[^\W_]+")  # letters/digits runs, the same terms the SQLite store uses

# Table names, formatted into every statement with the quoted schema in front.
TABLES = {
    "meta": "stateledger_meta",
    "records": "stateledger_records",
    "links": "stateledger_links",
    "log": "stateledger_transactions",
    "changes": "stateledger_changes",  # a sequence: see _migrate_v4
}


def table_names(schema: str) -> dict[str, str]:
    """Each table's schema-qualified name (``schema``: already quoted as an identifier),
    and ``changes_seq``: the sequence's name as the inside of a string literal (nextval)."""
    names = {key: f"{schema}.{table}" for key, table in TABLES.items()}
    names["changes_seq"] = names["changes"].replace("'", "''")
    return names

# ------------------------------------------------------------------------- migrations


def _migrate_v1(dim: int) -> list[str]:
    """Initial schema.

    ``rid`` (identity) gives the insertion order that breaks ties, as in the SQLite store.
    Ids compare bytewise (``COLLATE "C"``): users() sorts as SQLite does, and the indexes
    skip locale-aware comparisons.
    ``links.seq`` keeps each record's links in the order they were written. The log has
    no foreign keys so it outlives ``forget``.
    """
    return [
        f"""CREATE TABLE {{records}} (
            rid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text COLLATE "C" NOT NULL UNIQUE, user_id text COLLATE "C" NOT NULL,
            text text NOT NULL, subject text NOT NULL, slot text, value text,
            source text NOT NULL, confidence double precision NOT NULL,
            valid_from timestamptz NOT NULL, valid_to timestamptz,
            recorded_at timestamptz NOT NULL, status text NOT NULL, ledger text NOT NULL,
            provenance text, embedding vector({int(dim)}),
            tsv tsvector GENERATED ALWAYS AS
                (to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, text)) STORED)""",
        "CREATE INDEX ON {records} (user_id, ledger)",
        "CREATE INDEX ON {records} (user_id, slot, subject)",
        "CREATE INDEX ON {records} (user_id, valid_from, recorded_at, rid)",
        "CREATE INDEX ON {records} USING gin (tsv)",
        """CREATE TABLE {links} (
            src text NOT NULL REFERENCES {records} (id) ON DELETE CASCADE,
            dst text NOT NULL REFERENCES {records} (id) ON DELETE CASCADE,
            type text NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY,
            PRIMARY KEY (src, dst, type))""",
        # Without it every cascade through links.dst would scan the whole table.
        "CREATE INDEX ON {links} (dst)",
        """CREATE TABLE {log} (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL,
            user_id text NOT NULL, text text NOT NULL, action text NOT NULL,
            relation text NOT NULL, record_id text, target_id text, resolved_id text,
            rho double precision NOT NULL, confidence double precision NOT NULL,
            reason text NOT NULL, policy text NOT NULL, at timestamptz NOT NULL,
            logged_at timestamptz NOT NULL)""",
        "CREATE INDEX ON {log} (user_id, seq)",
    ]


# Append (version, statements(dim)) pairs; never edit a released one. All pending ones run
# in the opening transaction together with the version bump, so a failure leaves the old
# version intact.
def _migrate_v2(dim: int) -> list[str]:
    """Scopes and metadata (agent_id, run_id, a JSON object), filters for reads."""
    return [
        "ALTER TABLE {records} ADD COLUMN agent_id text, ADD COLUMN run_id text, "
        "ADD COLUMN metadata jsonb",
        "CREATE INDEX ON {records} (user_id, agent_id, run_id)",
    ]


def _migrate_v3(dim: int) -> list[str]:
    """The words of a statement's message before it (Record.context)."""
    return ["ALTER TABLE {records} ADD COLUMN context text"]


def _migrate_v4(dim: int) -> list[str]:
    """A change number on every record, for stores that keep a user's vectors in memory.

    ``changed`` takes the next value of one sequence when a record is inserted and again
    whenever its status or ledger changes. A user's commits are serialised by their
    advisory lock, so a change committed later always carries a larger number, and a
    process that cached the user's vectors reads only the rows changed since its last
    look (``PostgresStore.search_vector``).
    """
    return [
        "CREATE SEQUENCE {changes}",
        # Rows already there keep NULL (no table rewrite): they changed before any index
        # could have read them, and an update numbers them like any other.
        "ALTER TABLE {records} ADD COLUMN changed bigint",
        "ALTER TABLE {records} ALTER COLUMN changed SET DEFAULT nextval('{changes_seq}')",
        "CREATE INDEX ON {records} (user_id, changed)",
    ]


def _migrate_v5(dim: int) -> list[str]:
    """A user's rows in insertion order without a sort: a large user's vector index is
    built from them in that order (``PostgresStore._build_index``), and sorting a
    100,000-row user's rows with their vectors spilled 155 MB to the server's disk."""
    return ["CREATE INDEX ON {records} (user_id, rid)"]


MIGRATIONS: tuple[tuple[int, Callable[[int], list[str]]], ...] = (
    (1, _migrate_v1), (2, _migrate_v2), (3, _migrate_v3), (4, _migrate_v4), (5, _migrate_v5))
SCHEMA_VERSION = MIGRATIONS[-1][0]

RECORD_FIELDS = (
    "id", "user_id", "text", "subject", "slot", "value", "source", "confidence", "valid_from",
    "valid_to", "recorded_at", "status", "ledger", "provenance", "context", "agent_id",
    "run_id", "metadata", "embedding",
)  # fmt: skip
TX_FIELDS = (
    "id", "user_id", "text", "action", "relation", "record_id", "target_id", "resolved_id",
    "rho", "confidence", "reason", "policy", "at", "logged_at",
)  # fmt: skip
_RECORD_COLUMNS = ", ".join(RECORD_FIELDS)
_SELECT_RECORDS = (
    "SELECT " + ", ".join(f"r.{f}" for f in RECORD_FIELDS) + ", lk.dsts, lk.types "
    "FROM {records} r LEFT JOIN LATERAL ("
    "SELECT array_agg(l.dst ORDER BY l.seq) AS dsts, array_agg(l.type ORDER BY l.seq) AS types "
    "FROM {links} l WHERE l.src = r.id) lk ON true "
)
_RECORD_ORDER = " ORDER BY r.valid_from, r.recorded_at, r.rid"
# NaN (a zero vector on either side) becomes distance 1, i.e. similarity 0, as in SQLite.
_DISTANCE = "COALESCE(NULLIF(embedding <=> %(q)s, 'NaN'), 1.0)"


def tsquery_terms(text: str) -> list[str]:
    """The distinct lowercased word terms of ``text`` that a text query searches for.

    Each term is passed to ``plainto_tsquery`` as a bound parameter and the results are
    OR-ed, so no user input is ever parsed as tsquery syntax (``&``, ``!``, ``:*``...).
    Stop words need no list here: the text search configuration drops them.
    """
    terms = dict.fromkeys(_WORD.findall(text.lower()))
    return list(terms)[:_MAX_QUERY_TERMS]


def statements(names: dict[str, str]) -> dict[str, str]:
    """Every statement of the store with the schema-qualified table names filled in."""
    marks = ", ".join(["%s"] * len(RECORD_FIELDS))
    tx_marks = ", ".join(["%s"] * len(TX_FIELDS))
    statements = {
        # One advisory lock per user (a 64-bit hash of the id), held to the end of the
        # transaction; see PostgresStore.commit.
        "lock_user": "SELECT pg_advisory_xact_lock(hashtextextended(%s, 7305))",
        "ids_with_prefix": "SELECT id FROM {records} WHERE starts_with(id, %s) "
        "AND (%s::text IS NULL OR user_id = %s) ORDER BY id COLLATE \"C\" LIMIT %s",
        "version": "SELECT coalesce(max(seq), 0) FROM {log} WHERE user_id = %s",
        "lock_statuses": "SELECT id, status FROM {records} WHERE id = ANY(%s) "
        "ORDER BY id FOR UPDATE",
        "insert_record": f"INSERT INTO {{records}} ({_RECORD_COLUMNS}) VALUES ({marks})",
        "update_record": "UPDATE {records} SET status = %s, ledger = %s, valid_to = %s, "
        "changed = nextval('{changes_seq}') WHERE id = %s",
        "insert_link": "INSERT INTO {links} (src, dst, type) VALUES (%s, %s, %s) "
        "ON CONFLICT DO NOTHING",
        "insert_tx": f"INSERT INTO {{log}} ({', '.join(TX_FIELDS)}) VALUES ({tx_marks})",
        "delete": "DELETE FROM {records} WHERE id = ANY(%s) RETURNING id, user_id",
        "delete_user": "DELETE FROM {records} WHERE user_id = %s",
        "orphan_links": "SELECT count(*) FROM {links} l WHERE NOT EXISTS "
        "(SELECT 1 FROM {records} r WHERE r.id = l.dst) OR NOT EXISTS "
        "(SELECT 1 FROM {records} r WHERE r.id = l.src)",
        "one_way_links": "SELECT count(*) FROM {links} a WHERE NOT EXISTS "
        "(SELECT 1 FROM {links} b WHERE b.src = a.dst AND b.dst = a.src)",
        "delete_user_log": "DELETE FROM {log} WHERE user_id = %s",
        # forget erases what the log remembers of the deleted records' text and decisions
        "scrub_log": "UPDATE {log} SET text = '', reason = 'forgotten' WHERE record_id = ANY(%s) "
        "OR target_id = ANY(%s) OR resolved_id = ANY(%s)",
        "get": _SELECT_RECORDS + "WHERE r.id = ANY(%s)",
        "records": _SELECT_RECORDS + "WHERE r.user_id = %s "
        "AND (%s::text[] IS NULL OR r.ledger = ANY(%s))" + _RECORD_ORDER + " LIMIT %s",
        "slot": _SELECT_RECORDS + "WHERE r.user_id = %s AND r.slot = %s AND r.subject = %s "
        "AND r.ledger = ANY(%s)" + _RECORD_ORDER,
        "users": 'SELECT DISTINCT user_id COLLATE "C" AS u FROM {records} ORDER BY u',
        "log": f"SELECT {', '.join(TX_FIELDS)} FROM {{log}} WHERE user_id = %s "
        "ORDER BY seq DESC LIMIT %s OFFSET %s",
        # How common each lexeme of the text column is (a share of the rows), and the
        # rows: PostgreSQL's statistics, for leaving common terms out of a text search.
        "term_stats": "SELECT s.most_common_elems::text::text[], "
        "s.most_common_elem_freqs, c.reltuples FROM pg_stats s "
        "JOIN pg_namespace n ON n.nspname = s.schemaname "
        "JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename "
        "WHERE s.schemaname = %s AND s.tablename = %s AND s.attname = 'tsv'",
        "lexemes": f"SELECT t, (SELECT array_agg(lexeme) FROM "
        f"unnest(to_tsvector('{TEXT_SEARCH_CONFIG}'::regconfig, t))) "
        "FROM unnest(%s::text[]) t",
        # TSQUERY is replaced per call by the OR of one plainto_tsquery per term.
        "search_text": "SELECT id, ts_rank_cd(tsv, TSQUERY) AS score FROM {records} "
        "WHERE user_id = %s AND ledger = ANY(%s) AND tsv @@ TSQUERY "
        "ORDER BY score DESC, rid LIMIT %s",
        # The in-process vector index of a large user (PostgresStore._indexed_search): the
        # largest change number says whether anything was inserted or moved since the
        # index's last look, the rows changed since then bring it up to date, and its hits
        # are checked to exist (a deletion leaves no number).
        "changed_upto": "SELECT coalesce(max(changed), 0) FROM {records} WHERE user_id = %s",
        "existing": "SELECT id FROM {records} WHERE id = ANY(%s)",
        "vector_rows": "SELECT count(*) FROM {records} WHERE user_id = %s "
        "AND embedding IS NOT NULL",
        "vectors": "SELECT id, ledger, embedding, coalesce(changed, 0) FROM {records} "
        "WHERE user_id = %s AND embedding IS NOT NULL ORDER BY rid",
        "vectors_since": "SELECT id, ledger, embedding, changed, rid FROM {records} "
        "WHERE user_id = %s AND changed > %s AND embedding IS NOT NULL",
        "vector_rows_upto": "SELECT count(*) FROM (SELECT 1 FROM {records} WHERE user_id = %s "
        "AND embedding IS NOT NULL LIMIT %s) s",
        "search_vector": f"SELECT id, 1.0 - {_DISTANCE} AS similarity FROM {{records}} "
        "WHERE user_id = %(user)s AND ledger = ANY(%(ledgers)s) AND embedding IS NOT NULL "
        "ORDER BY similarity DESC, rid LIMIT %(limit)s",
    }
    return {key: value.format(**names) for key, value in statements.items()}
