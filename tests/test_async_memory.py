"""AsyncMemory: the Memory API from asyncio, without blocking the event loop."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from stateledger import AsyncMemory, Memory, Status
from stateledger.models.embedder import MiniLMEmbedder


def test_same_results_as_memory(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    async def scenario() -> None:
        async with AsyncMemory(tmp_path / "m.db", embedder=embedder) as mem:
            first = await mem.add("I live in Portland.", "alice", at="2023-01-03")
            second = await mem.add("I moved to Seattle.", "alice", at="2023-02-14")
            assert second.target is not None and first.record is not None
            assert second.target.id == first.record.id
            assert "Seattle" in (await mem.answer("Where do I live now?", "alice")).text
            assert "Portland" in (await mem.answer("Where did I live before?", "alice")).text
            assert [r.value for r in await mem.records("alice", "all")] == ["Portland",
                                                                            "Seattle"]
            chain = await mem.history(await mem.full_id(first.record.id[:8]))
            assert [r.status for r in chain] == [Status.SUPERSEDED, Status.ACTIVE]
            assert len(await mem.transactions("alice")) == 2
            assert await mem.users() == ["alice"] and await mem.check() == []
            await mem.put("alice", "plan", {"text": "Trip to Oslo."})
            plan = await mem.get("alice", "plan")
            assert plan is not None and plan.text == "Trip to Oslo."
            lines = await mem.export("alice")
            assert lines[0]["type"] == "header"
            assert await mem.forget_user("alice") == 3
            assert (await mem.restore(lines))["records"] == 3
            assert await mem.forget_user("alice") == 3

    asyncio.run(scenario())
    with Memory(tmp_path / "m.db", embedder=embedder, create=False) as mem:
        assert mem.users() == []  # closed cleanly, everything committed


def test_the_event_loop_keeps_running_during_calls(embedder: MiniLMEmbedder) -> None:
    """A heartbeat task ticks while a long add runs: the add is off the loop. Had it run on
    the loop, the longest gap between ticks would be the whole add."""
    long_message = " ".join(f"My colleague number {i} works in building {i}." for i in range(150))

    async def scenario() -> tuple[float, float]:
        gaps: list[float] = []
        stop = asyncio.Event()

        async def heartbeat() -> None:
            last = time.perf_counter()
            while not stop.is_set():
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        async with AsyncMemory(":memory:", embedder=embedder) as mem:
            beat = asyncio.create_task(heartbeat())
            await asyncio.sleep(0.05)
            t0 = time.perf_counter()
            await mem.add(long_message, "u")
            took = time.perf_counter() - t0
            stop.set()
            await beat
        return took, max(gaps)

    took, worst_gap = asyncio.run(scenario())
    assert took > 0.3, took  # long enough that a blocked loop would show
    assert worst_gap < took / 3, (worst_gap, took)


def test_concurrent_calls_from_an_asgi_app(embedder: MiniLMEmbedder, tmp_path: Path) -> None:
    """Concurrent requests to an ASGI app that awaits one AsyncMemory: every request is
    served, and racing relocations of one user leave one live location."""
    mem = AsyncMemory(tmp_path / "m.db", embedder=embedder)

    async def remember(request: Request) -> JSONResponse:
        body = await request.json()
        tx = await mem.add(body["text"], body["user_id"], at=body.get("at"))
        return JSONResponse({"action": tx.action.value})

    async def ask(request: Request) -> JSONResponse:
        ans = await mem.answer(request.query_params["q"], request.query_params["user_id"])
        return JSONResponse({"text": ans.text, "found": ans.found})

    app = Starlette(routes=[Route("/remember", remember, methods=["POST"]),
                            Route("/ask", ask)])

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            r = await client.post("/remember", json={"text": "I live in Lisbon.",
                                                      "user_id": "u", "at": "2023-01-01"})
            assert r.status_code == 200
            moves = [client.post("/remember", json={"text": f"I moved to {city}.",
                                                    "user_id": "u", "at": "2023-06-01"})
                     for city in ("Osaka", "Quito", "Tallinn", "Denver")]
            asks = [client.get("/ask", params={"q": "Where do I live?", "user_id": "u"})
                    for _ in range(4)]
            replies = await asyncio.gather(*moves, *asks)
            assert all(r.status_code == 200 for r in replies)
        live = [r for r in await mem.records("u") if r.slot == "location"
                and r.status is Status.ACTIVE]  # fmt: skip
        assert len(live) == 1, [r.text for r in live]
        assert await mem.check() == []
        await mem.aclose()

    asyncio.run(scenario())


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="workers"):
        AsyncMemory(":memory:", workers=0)
    with pytest.raises(TypeError, match="either"):
        AsyncMemory(":memory:", memory=object())  # type: ignore[arg-type]
