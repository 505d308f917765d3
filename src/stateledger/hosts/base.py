"""The ``Host`` seam: the storage and retrieval of another memory system under the state layer.

A-TMA is an *overlay*: the host keeps doing what it does (store turns, return relevant hits)
and the state layer (ledgers, roles, links, the view-aware packet, labels and the resolver)
wraps it. ``Memory`` talks to its host through two calls only:

- ``put(turn)`` after every write: the host stores the turn in its native format and keeps
  the id of the state record the turn became (or restated), so later hits can be mapped back;
- ``seeds(...)`` on every read: the host's own retrieval, returned as state-record ids, best
  first. The state layer then expands, labels and resolves them exactly as for its own store.

Hits that map to no state record (a question, chit-chat: turns the policy kept out of the
ledgers) are dropped by the host and counted in the seed trace, so an attribution can tell a
host miss from a state-layer exclusion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

import numpy as np

from stateledger.core.model import Ledger

SeedHit = tuple[str, float]  # (state record id, host score), best first


@dataclass(frozen=True)
class HostTurn:
    """One statement as the host receives it, after the state layer decided it.

    ``record_id`` is the state record the turn wrote, or the live record it restated (a noop
    with a target); None when the turn carries no state (questions, chit-chat).
    """

    text: str
    user_id: str
    at: datetime
    speaker: str | None
    provenance: str | None
    vector: np.ndarray
    record_id: str | None


@runtime_checkable
class Host(Protocol):
    """Another memory's storage and retrieval, seen by the state layer."""

    @property
    def name(self) -> str:
        """Short name shown in traces ("native", "mem0")."""
        ...

    def put(self, turn: HostTurn) -> None:
        """Store one turn in the host's native way."""
        ...

    def seeds(
        self,
        user_id: str,
        query: str,
        vector: Callable[[], np.ndarray],
        limit: int,
        ledgers: Sequence[Ledger],
    ) -> tuple[list[SeedHit], dict[str, Any]]:
        """The host's top hits for ``query`` as state-record ids (best first, at most
        ``limit``), and a small trace of how they were found. ``ledgers`` says which state
        ledgers may seed a read; a host without ledgers lets the packet builder filter.
        ``vector()`` gives the query's embedding, which may still be being computed when
        the call starts: a host does what needs no vector (a text search) first."""
        ...

    def close(self) -> None:
        """Release the host's resources (idempotent)."""
        ...
