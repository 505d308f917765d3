"""Read filters on the scopes and metadata a caller attached to its adds.

A ``Scope`` keeps the records of one agent, one run (session) and/or with given metadata
values. Decisions never use it: a fact about a user holds across agents and sessions, so a
move said in one session revises the city said in another. Reads use it to narrow what
they return (``Memory.search``, ``answer``, ``records``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stateledger.core import validate
from stateledger.core.model import Record


@dataclass(frozen=True)
class Scope:
    agent_id: str | None = None
    run_id: str | None = None
    metadata: Mapping[str, Any] | None = None  # every key given must hold this value

    @classmethod
    def of(cls, agent_id: object = None, run_id: object = None, metadata: object = None
           ) -> Scope:
        return cls(validate.scope_id(agent_id, "agent_id"), validate.scope_id(run_id, "run_id"),
                   validate.metadata(metadata, what="metadata filter"))

    def __bool__(self) -> bool:
        return self.agent_id is not None or self.run_id is not None or bool(self.metadata)

    def matches(self, record: Record) -> bool:
        if self.agent_id is not None and record.agent_id != self.agent_id:
            return False
        if self.run_id is not None and record.run_id != self.run_id:
            return False
        if self.metadata:
            held = record.metadata or {}
            return all(k in held and held[k] == v for k, v in self.metadata.items())
        return True

    def to_dict(self) -> dict[str, Any]:
        return {"agent_id": self.agent_id, "run_id": self.run_id,
                "metadata": None if self.metadata is None else dict(self.metadata)}
