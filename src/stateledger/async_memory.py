"""``AsyncMemory``: the ``Memory`` API for asyncio code (ASGI apps, async agents).

Every call runs the synchronous ``Memory`` method in a worker thread of this object's own
pool, so the event loop keeps serving while an embedding or a commit runs. The engine is
safe to call from several threads at once (each commit is one store transaction, checked
against what its decision read), so concurrent awaits on one ``AsyncMemory`` are fine.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from stateledger.core.model import (
    Answer,
    Ledger,
    Message,
    Packet,
    Record,
    Source,
    Transaction,
)
from stateledger.core.validate import TimeInput
from stateledger.memory import Memory

T = TypeVar("T")

DEFAULT_WORKERS = 4  # more threads than this only queue on the embedder and the write lock


class AsyncMemory:
    """``await``-able twin of ``Memory``: same methods, same arguments, same results.

    Build it like a ``Memory`` (``AsyncMemory("memory.db", policy=...)``) or around one you
    have (``AsyncMemory(memory=mem)``). ``workers`` bounds the threads it uses.
    """

    def __init__(self, path: str | Path | None = None, *, memory: Memory | None = None,
                 workers: int = DEFAULT_WORKERS, **options: Any) -> None:
        if memory is not None and (path is not None or options):
            raise TypeError("give either memory= or Memory's own arguments, not both")
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self.memory: Memory = memory if memory is not None else Memory(path, **options)
        self._pool = ThreadPoolExecutor(max_workers=workers,
                                        thread_name_prefix="stateledger")

    async def _run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    # -- write path -------------------------------------------------------------------------

    async def add(self, text: str, user_id: str, *, at: TimeInput | None = None,
                  source: str | Source = Source.USER, speaker: str | None = None,
                  provenance: str | None = None, agent_id: str | None = None,
                  run_id: str | None = None, metadata: Mapping[str, Any] | None = None
                  ) -> Transaction:
        return await self._run(self.memory.add, text, user_id, at=at, source=source,
                               speaker=speaker, provenance=provenance, agent_id=agent_id,
                               run_id=run_id, metadata=metadata)

    async def add_many(self, messages: Iterable[Message | Mapping[str, Any]], *,
                       progress: Callable[[int, int], None] | None = None
                       ) -> list[Transaction]:
        return await self._run(self.memory.add_many, list(messages), progress=progress)

    async def put(self, user_id: str, key: str, value: Mapping[str, Any], *,
                  at: TimeInput | None = None) -> Transaction:
        return await self._run(self.memory.put, user_id, key, value, at=at)

    async def get(self, user_id: str, key: str) -> Record | None:
        return await self._run(self.memory.get, user_id, key)

    async def resolve(self, record_id: str, confirm: bool,
                      at: TimeInput | None = None) -> Transaction:
        return await self._run(self.memory.resolve, record_id, confirm, at)

    async def forget(self, record_id: str) -> list[str]:
        return await self._run(self.memory.forget, record_id)

    async def forget_user(self, user_id: str) -> int:
        return await self._run(self.memory.forget_user, user_id)

    # -- read path --------------------------------------------------------------------------

    async def search(self, query: str, user_id: str, *, k: int = 5,
                     at: TimeInput | None = None, agent_id: str | None = None,
                     run_id: str | None = None, metadata: Mapping[str, Any] | None = None
                     ) -> Packet:
        return await self._run(self.memory.search, query, user_id, k=k, at=at,
                               agent_id=agent_id, run_id=run_id, metadata=metadata)

    async def answer(self, question: str, user_id: str, *, k: int = 5,
                     at: TimeInput | None = None, agent_id: str | None = None,
                     run_id: str | None = None, metadata: Mapping[str, Any] | None = None
                     ) -> Answer:
        return await self._run(self.memory.answer, question, user_id, k=k, at=at,
                               agent_id=agent_id, run_id=run_id, metadata=metadata)

    async def records(self, user_id: str, ledger: str | Ledger = Ledger.ACCEPTED, *,
                      agent_id: str | None = None, run_id: str | None = None,
                      metadata: Mapping[str, Any] | None = None) -> list[Record]:
        return await self._run(self.memory.records, user_id, ledger, agent_id=agent_id,
                               run_id=run_id, metadata=metadata)

    async def history(self, record_id: str) -> list[Record]:
        return await self._run(self.memory.history, record_id)

    async def full_id(self, record_id: str) -> str:
        return await self._run(self.memory.full_id, record_id)

    async def transactions(self, user_id: str, limit: int = 100) -> list[dict[str, Any]]:
        return await self._run(self.memory.transactions, user_id, limit)

    async def users(self) -> list[str]:
        return await self._run(self.memory.users)

    async def check(self) -> list[str]:
        return await self._run(self.memory.check)

    async def export(self, user_id: str | None = None) -> list[dict[str, Any]]:
        return await self._run(lambda: list(self.memory.export(user_id)))

    async def restore(self, lines: Iterable[Mapping[str, Any]]) -> dict[str, int]:
        return await self._run(self.memory.restore, list(lines))

    # -- lifecycle --------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Wait for the calls already running or queued, then close the memory."""
        await asyncio.to_thread(self._pool.shutdown, wait=True)
        await asyncio.to_thread(self.memory.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
