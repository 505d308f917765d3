"""Export and restore (``core.transfer``'s format over a store) and reading/writing JSONL.

``Memory.export`` / ``Memory.restore`` are the API; ``stateledger export`` / ``stateledger
import`` the CLI. An export restores into an empty store exactly: the same records (ids,
every field, links, embeddings), ledgers and log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from stateledger.core import validate
from stateledger.core.model import Record
from stateledger.core.transfer import header_line, log_line, parse_log, parse_record, record_line
from stateledger.errors import InvalidInputError
from stateledger.stores.base import Store


def export_lines(store: Store, users: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The header, then every record of ``users`` (all ledgers), then their log entries."""
    chosen = list(users)
    yield header_line(chosen)
    for user in chosen:
        for record in store.records(user):
            yield record_line(record)
    for user in chosen:
        # The store returns its log newest first; the export is oldest first.
        for entry in reversed(store.transactions(user, validate.MAX_LIMIT)):
            yield log_line(entry)


def restore_lines(store: Store, lines: Iterable[tuple[str, Mapping[str, Any]]]
                  ) -> dict[str, int]:
    """Check every line (``(where, object)``), then put them back in one transaction."""
    records: list[Record] = []
    log: list[dict[str, Any]] = []
    for where, line in lines:
        kind = line.get("type") if isinstance(line, Mapping) else None
        if kind == "record":
            records.append(parse_record(line, where))
        elif kind == "log":
            log.append(parse_log(line, where))
        elif kind != "header":
            raise InvalidInputError(f"{where}: not a stateledger export line (type {kind!r})")
    ids = {r.id for r in records}
    if len(ids) != len(records):
        raise InvalidInputError("the export holds a record id twice")
    dangling = sorted({lk.dst for r in records for lk in r.links} - ids)
    if dangling:
        raise InvalidInputError(f"links to records missing from the export: {dangling[:3]}")
    store.restore(records, log)
    return {"records": len(records), "log": len(log)}


def write_jsonl(lines: Iterable[Mapping[str, Any]], out: IO[str]) -> int:
    count = 0
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
        count += 1
    return count


def read_jsonl(path: str | Path) -> Iterator[tuple[str, Any]]:
    """``(where, object)`` per non-empty line; a line that is not JSON is InvalidInputError."""
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            if raw.strip():
                try:
                    yield f"{path}:{n}", json.loads(raw)
                except json.JSONDecodeError as exc:
                    raise InvalidInputError(f"{path}:{n}: not JSON ({exc.msg})") from None
