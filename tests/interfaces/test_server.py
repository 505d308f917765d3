"""The REST server over real HTTP: uvicorn on a free loopback port, httpx as the client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LiveServer, live_server

from unavailable import require_extra

require_extra("fastapi", "server")
httpx = require_extra("httpx", "server")

BOSTON = {"text": "I live in Boston", "at": "2023-01-10T09:00:00Z"}
SEATTLE = {"text": "I moved to Seattle last weekend", "at": "2023-02-14T18:00:00Z"}
PORTLAND = {"text": "I might move to Portland next year", "at": "2023-03-01T10:00:00Z"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("server")
    with live_server(root / "mem.db", root / "mem.keys.db") as srv:
        yield srv


@pytest.fixture(scope="module")
def keys(server: LiveServer) -> dict[str, str]:
    return {t: server.keys.create(t).key for t in ("acme", "globex")}  # type: ignore[attr-defined]


def client(server: LiveServer, key: str | None, header: str = "bearer") -> httpx.Client:
    headers = {}
    if key is not None:
        headers = {"Authorization": f"Bearer {key}"} if header == "bearer" else {"X-API-Key": key}
    return httpx.Client(base_url=server.url, headers=headers, timeout=30)


def ok(resp: httpx.Response, status: int = 200) -> Any:
    assert resp.status_code == status, resp.text
    return resp.json()


def err(resp: httpx.Response, status: int, type_: str) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert body["error"]["type"] == type_, body
    return str(body["error"]["message"])


def add(c: httpx.Client, user: str, statement: dict[str, str]) -> dict[str, Any]:
    return ok(c.post("/v1/memories", json={**statement, "user_id": user}))  # type: ignore[no-any-return]


def test_requests_without_a_valid_key_get_401(server: LiveServer, keys: dict[str, str]) -> None:
    for key in (None, "sl_000000000000_" + "x" * 43, keys["acme"] + "x", "not-a-key"):
        with client(server, key) as c:
            resp = c.post("/v1/search", json={"query": "where?", "user_id": "alice"})
            err(resp, 401, "unauthorized")
            assert resp.headers["www-authenticate"] == "Bearer"
            err(c.get("/v1/users"), 401, "unauthorized")
    with httpx.Client(base_url=server.url) as c:  # a key under another scheme is no key
        err(c.get("/v1/users", headers={"Authorization": f"Basic {keys['acme']}"}), 401,
            "unauthorized")
    revoked = server.keys.create("acme")  # type: ignore[attr-defined]
    with client(server, revoked.key, header="x-api-key") as c:
        assert "users" in ok(c.get("/v1/users"))
        assert server.keys.revoke(revoked.key_id)  # type: ignore[attr-defined]
        err(c.get("/v1/users"), 401, "unauthorized")


def test_round_trip(server: LiveServer, keys: dict[str, str]) -> None:
    with client(server, keys["acme"]) as c:
        first = add(c, "alice", BOSTON)
        assert first["action"] == "append" and first["user_id"] == "alice"
        second = add(c, "alice", SEATTLE)
        assert second["action"] == "revise" and second["target"]["id"] == first["record"]["id"]
        assert second["record"]["user_id"] == second["target"]["user_id"] == "alice"

        pkt = ok(c.post("/v1/search", json={"query": "Where did I live before?",
                                             "user_id": "alice", "k": 3}))
        assert pkt["view"] == "historical"
        labels = {e["record"]["text"]: e["label"] for e in pkt["items"]}
        assert labels[BOSTON["text"]] == "historical memory"
        assert pkt["trace"]["profile"]["view"] == "historical" and pkt["trace"]["final"]

        now = ok(c.post("/v1/answer", json={"question": "Where do I live now?",
                                            "user_id": "alice"}))
        assert now["found"] and now["view"] == "current" and now["text"] == SEATTLE["text"]
        before = ok(c.post("/v1/answer", json={"question": "Where did I live before?",
                                               "user_id": "alice"}))
        assert before["text"] == BOSTON["text"]
        as_of = ok(c.post("/v1/answer", json={"question": "Where do I live?",
                                              "user_id": "alice", "at": "2023-02-01T00:00:00Z"}))
        assert as_of["text"] == BOSTON["text"]

        accepted = ok(c.get("/v1/users/alice/records"))
        assert [r["text"] for r in accepted] == [SEATTLE["text"]]
        hist = ok(c.get("/v1/users/alice/records", params={"ledger": "history"}))
        assert [(r["text"], r["status"]) for r in hist] == [(BOSTON["text"], "superseded")]
        chain = ok(c.get(f"/v1/records/{second['record']['id']}/history"))
        assert [r["status"] for r in chain] == ["superseded", "active"]
        assert {"type": "superseded_by", "to": chain[1]["id"]} in chain[0]["links"]
        assert all(r["user_id"] == "alice" for r in chain)

        # A hedged claim waits in pending; deny it, then confirm a second one.
        pending = add(c, "alice", PORTLAND)
        assert pending["action"] == "defer_verify" and pending["record"]["status"] == "pending"
        denied = ok(c.post(f"/v1/pending/{pending['record']['id']}/resolve",
                           json={"action": "deny"}))
        assert denied["action"] == "reject_conflict" and denied["record"] is None
        assert denied["target"]["id"] == second["record"]["id"] and denied["policy"] == "resolve"
        msg = err(c.post(f"/v1/pending/{pending['record']['id']}/resolve",
                         json={"action": "confirm"}), 409, "not_pending")
        assert "rejected, not pending" in msg
        again = add(c, "alice", {**PORTLAND, "at": "2023-03-02T10:00:00Z"})
        assert again["action"] == "defer_verify"
        confirmed = ok(c.post(f"/v1/pending/{again['record']['id']}/resolve",
                              json={"action": "confirm", "at": "2023-04-01T00:00:00Z"}))
        assert confirmed["action"] == "revise" and confirmed["record"]["status"] == "active"
        assert confirmed["target"]["id"] == second["record"]["id"]
        assert confirmed["record"]["valid_from"].startswith("2023-04-01")
        now = ok(c.post("/v1/answer", json={"question": "Where do I live now?",
                                            "user_id": "alice"}))
        assert now["text"] == PORTLAND["text"]
        rejected = ok(c.get("/v1/users/alice/records", params={"ledger": "all"}))
        assert sorted(r["status"] for r in rejected) == [
            "active", "rejected", "superseded", "superseded", "superseded"]

        log = ok(c.get("/v1/transactions/alice", params={"limit": 10}))
        assert [t["action"] for t in log] == [
            "revise", "defer_verify", "reject_conflict", "defer_verify", "revise", "append"]
        assert {t["user_id"] for t in log} == {"alice"}

        gone = ok(c.delete(f"/v1/records/{first['record']['id']}"))
        assert len(gone["deleted"]) == 5
        err(c.get(f"/v1/records/{first['record']['id']}/history"), 404, "not_found")
        assert "alice" not in ok(c.get("/v1/users"))["users"]
        after = ok(c.post("/v1/answer", json={"question": "Where?", "user_id": "alice"}))
        assert (after["found"], after["text"]) == (False, "not in memory")


def test_tenants_are_isolated(server: LiveServer, keys: dict[str, str]) -> None:
    with client(server, keys["acme"]) as a, client(server, keys["globex"]) as b:
        mine = add(a, "bob", BOSTON)
        add(a, "bob", SEATTLE)
        pending = add(a, "bob", PORTLAND)
        theirs = add(b, "bob", {"text": "I live in Denver", "at": "2023-01-05T00:00:00Z"})
        assert theirs["action"] == "append"  # same user id, separate namespace: no conflict

        assert ok(a.post("/v1/answer", json={"question": "Where do I live now?",
                                             "user_id": "bob"}))["text"] == SEATTLE["text"]
        assert ok(b.post("/v1/answer", json={"question": "Where do I live now?",
                                             "user_id": "bob"}))["text"] == "I live in Denver"
        b_records = ok(b.get("/v1/users/bob/records", params={"ledger": "all"}))
        assert [r["text"] for r in b_records] == ["I live in Denver"]
        add(a, "carol", BOSTON)
        assert "carol" not in ok(b.get("/v1/users"))["users"]
        # Tenant B sees its own (empty) carol, never tenant A's.
        assert ok(b.get("/v1/users/carol/records", params={"ledger": "all"})) == []
        assert ok(b.post("/v1/search", json={"query": "where?", "user_id": "carol"}))[
            "items"] == []
        assert ok(b.post("/v1/answer", json={"question": "Where do I live?",
                                             "user_id": "carol"}))["text"] == "not in memory"
        # Naming the other tenant's stored id does not reach it either (":" is not allowed in
        # a tenant's user ids... or is scoped again under B).
        assert ok(b.get("/v1/users/acme:carol/records", params={"ledger": "all"})) == []

        rid = mine["record"]["id"]
        unknown = err(b.get("/v1/records/does-not-exist/history"), 404, "not_found")
        foreign = err(b.get(f"/v1/records/{rid}/history"), 404, "not_found")
        assert foreign == unknown.replace("does-not-exist", rid)  # indistinguishable
        err(b.delete(f"/v1/records/{rid}"), 404, "not_found")
        # B "erases" its own empty carol; A's carol is untouched.
        assert ok(b.delete("/v1/users/carol"))["deleted_records"] == 0
        assert len(ok(a.get("/v1/users/carol/records"))) == 1
        err(b.post(f"/v1/pending/{pending['record']['id']}/resolve", json={"action": "deny"}),
            404, "not_found")
        chain = ok(a.get(f"/v1/records/{rid}/history"))  # untouched by B's attempts
        assert [r["status"] for r in chain] == ["superseded", "active", "pending"]
        assert len(ok(a.get("/v1/transactions/bob"))) == 3
        assert len(ok(b.get("/v1/transactions/bob"))) == 1
        stored = server.memory.users()
        assert {"acme:bob", "globex:bob"} <= set(stored)


def test_a_user_is_erased_with_delete(server: LiveServer, keys: dict[str, str]) -> None:
    with client(server, keys["acme"]) as c:
        add(c, "gina", BOSTON)
        add(c, "gina", SEATTLE)
        assert ok(c.delete("/v1/users/gina")) == {"user_id": "gina", "deleted_records": 2}
        assert "gina" not in ok(c.get("/v1/users"))["users"]
        assert ok(c.get("/v1/transactions/gina")) == []
        assert ok(c.delete("/v1/users/gina"))["deleted_records"] == 0  # a retry succeeds
    assert not server.memory.store.transactions("acme:gina")


def test_oversized_body_gets_413(server: LiveServer, keys: dict[str, str]) -> None:
    before = server.memory.users()
    big = {"text": "I live in Boston. " * 480_000, "user_id": "dave"}  # ~8.6 MB of JSON
    with client(server, keys["acme"]) as c:
        msg = err(c.post("/v1/memories", json=big), 413, "payload_too_large")
        assert "8,388,608 bytes" in msg
        body = json.dumps(big).encode()
        chunked = c.post("/v1/memories", content=iter([body[:4_000_000], body[4_000_000:]]),
                         headers={"Content-Type": "application/json"})
        err(chunked, 413, "payload_too_large")
        # Over the engine's 1,000,000-character message limit, yet under the body limit: the
        # HTTP layer lets it through and the engine rejects it with a clear 422.
        msg = err(c.post("/v1/memories", json={"text": "x" * 1_000_001, "user_id": "dave"}),
                  422, "invalid_input")
        assert "limit is 1,000,000" in msg
    assert server.memory.users() == before


def test_a_body_that_goes_over_the_limit_in_its_last_part_gets_413_at_once() -> None:
    # The part that crossed the limit was the body's last: nothing is left to drain, and
    # waiting for more would hold the 413 until the body timeout (a flaky suite failure
    # when the server happened to read the final chunk in one piece).
    import asyncio

    from stateledger.interfaces.server.app import BodyLimit

    async def endpoint(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the endpoint must not see a refused body")

    parts = [{"type": "http.request", "body": b"x" * 60, "more_body": True},
             {"type": "http.request", "body": b"x" * 60, "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if parts:
            return parts.pop(0)
        await asyncio.Event().wait()  # a finished body: the server waits for a disconnect
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/memories", "headers": []}
    asyncio.run(asyncio.wait_for(BodyLimit(endpoint, limit=100, timeout=30)(
        scope, receive, send), timeout=5))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413


@pytest.mark.parametrize(
    ("body", "status", "type_", "needle"),
    [
        ({"text": "   ", "user_id": "erin"}, 422, "invalid_input", "empty"),
        ({"text": "I live in Oslo", "user_id": "erin", "at": "yesterday"}, 422,
         "invalid_input", "not a time"),
        ({"text": "I live in Oslo", "user_id": "erin", "at": "2023-01-01T00:00:00"}, 422,
         "invalid_input", "timezone"),
        ({"text": "I live in Oslo", "user_id": "erin", "source": "rumour"}, 422,
         "invalid_input", "source must be one of"),
        ({"text": "I live in Oslo", "user_id": "bad user!"}, 422, "invalid_input", "user_id"),
        ({"text": "I live in Oslo", "user_id": "erin\n"}, 422, "invalid_input", "user_id"),
        ({"text": "I live in Oslo", "user_id": "erin", "at": "0001-01-01T00:00:00+01:00"}, 422,
         "invalid_input", "outside the supported range"),
        ({"text": "I live in Oslo", "user_id": "erin", "at": "9999-12-31T23:59:59-01:00"}, 422,
         "invalid_input", "outside the supported range"),
        ({"text": "I live in Oslo", "user_id": "erin", "usr": 1}, 422, "invalid_input",
         "body.usr"),
        ({"user_id": "erin"}, 422, "invalid_input", "body.text: Field required"),
        ({"text": 42, "user_id": "erin"}, 422, "invalid_input", "body.text"),
    ],
)
def test_bad_input_is_a_clear_4xx_and_changes_nothing(
    server: LiveServer, keys: dict[str, str], body: dict[str, Any], status: int, type_: str,
    needle: str,
) -> None:
    before = (server.memory.users(), server.memory.store.transactions("acme:erin"))
    with client(server, keys["acme"]) as c:
        msg = err(c.post("/v1/memories", json=body), status, type_)
        assert needle in msg
        assert "acme" not in msg  # the tenant prefix never leaks into messages
    assert (server.memory.users(), server.memory.store.transactions("acme:erin")) == before


def test_other_bad_requests(server: LiveServer, keys: dict[str, str]) -> None:
    with client(server, keys["acme"]) as c:
        add(c, "frank", BOSTON)
        err(c.post("/v1/memories", content=b"{not json", headers={
            "Content-Type": "application/json"}), 400, "invalid_json")
        err(c.post("/v1/memories", content=b'{"text": "I live in \xff\xfe", "user_id": "frank"}',
                   headers={"Content-Type": "application/json"}), 400, "invalid_json")
        deep = b"[" * 100_000 + b"]" * 100_000
        err(c.post("/v1/memories", content=deep, headers={"Content-Type": "application/json"}),
            400, "invalid_json")
        msg = err(c.post("/v1/search", json={"query": "where?", "user_id": "frank", "k": 0}),
                  422, "invalid_input")
        assert "k must be" in msg
        err(c.get("/v1/users/frank/records", params={"ledger": "everything"}), 422,
            "invalid_input")
        err(c.post("/v1/pending/x/resolve", json={"action": "maybe"}), 422, "invalid_input")
        err(c.post("/v1/pending/nope/resolve", json={"action": "deny"}), 404, "not_found")
        rid = ok(c.get("/v1/users/frank/records"))[0]["id"]
        msg = err(c.post(f"/v1/pending/{rid}/resolve", json={"action": "confirm"}), 409,
                  "not_pending")
        assert "active, not pending" in msg
        err(c.get("/v1/nothing-here"), 404, "not_found")


def test_concurrent_requests(server: LiveServer, keys: dict[str, str]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    hobbies = ["chess", "climbing", "pottery", "surfing", "knitting", "rowing", "judo", "golf"]

    def write(hobby: str) -> int:
        with client(server, keys["acme"]) as c:
            body = {"text": f"I took up {hobby}", "user_id": "gina"}
            return c.post("/v1/memories", json=body).status_code

    def read(_: int) -> int:
        with client(server, keys["acme"]) as c:
            body = {"query": "what are my hobbies?", "user_id": "gina"}
            return c.post("/v1/search", json=body).status_code

    with client(server, keys["acme"]) as c:
        add(c, "gina", BOSTON)
    with ThreadPoolExecutor(max_workers=8) as pool:
        writes = list(pool.map(write, hobbies))
        reads = list(pool.map(read, range(8)))
    assert writes == [200] * len(hobbies) and reads == [200] * 8
    with client(server, keys["acme"]) as c:
        log = ok(c.get("/v1/transactions/gina"))
    assert len(log) == len(hobbies) + 1


def test_openapi_docs_and_inspector_are_served(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as c:
        spec = ok(c.get("/openapi.json"))
        assert {"/v1/memories", "/v1/search", "/v1/answer", "/v1/users/{user_id}/records",
                "/v1/records/{record_id}/history", "/v1/records/{record_id}",
                "/v1/pending/{record_id}/resolve", "/v1/transactions/{user_id}"} <= set(
                    spec["paths"])
        schemas = spec["components"]["schemas"]
        assert schemas["AddRequest"]["required"] == ["text", "user_id"]
        assert schemas["AddRequest"]["properties"]["user_id"]["pattern"].startswith("^[A-Za-z")
        assert (schemas["SearchRequest"]["properties"]["k"]["minimum"],
                schemas["SearchRequest"]["properties"]["k"]["maximum"]) == (1, 100)
        answers = spec["paths"]["/v1/memories"]["post"]["responses"]
        assert {"400", "401", "404", "413", "422"} <= set(answers)
        docs = c.get("/docs")
        assert docs.status_code == 200 and "swagger-ui" in docs.text
        if "/docs/assets/" in docs.text:  # local Swagger UI: no CDN needed
            assert c.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
        page = c.get("/inspector")
        assert page.status_code == 200 and "<script src=\"/inspector/inspector.js\"" in page.text
        assert "default-src 'none'" in page.headers["content-security-policy"]
        assert c.get("/inspector/inspector.js").headers["content-type"].startswith(
            "text/javascript")
        err(c.get("/inspector/../../keys.py"), 404, "not_found")
        assert ok(c.get("/healthz"))["status"] == "ok"


def test_keys_are_stored_hashed(tmp_path: Path) -> None:
    from stateledger.errors import InvalidInputError
    from stateledger.interfaces.server.keys import KEY_PREFIX, KeyStore, default_keys_path

    store = KeyStore(tmp_path / "k.db")
    issued = store.create("acme", note="ci")
    raw = (tmp_path / "k.db").read_bytes()
    # The secret is url-safe base64, so it may hold "_" itself: cut the known prefix off.
    secret = issued.key.removeprefix(f"{KEY_PREFIX}_{issued.key_id}_")
    assert len(secret) >= 40
    assert secret.encode() not in raw and issued.key.encode() not in raw
    assert store.verify(issued.key) == "acme"
    assert store.verify(issued.key.replace(issued.key_id, "0" * 12)) is None
    assert [k.key_id for k in store.list_keys()] == [issued.key_id]
    assert (tmp_path / "k.db").stat().st_mode & 0o077 == 0
    with pytest.raises(InvalidInputError):
        store.create("a:b")
    assert default_keys_path("/data/mem.db") == Path("/data/mem.keys.db")
    with pytest.raises(InvalidInputError, match="--keys"):
        default_keys_path("postgresql://u:secret@host/db")


def test_missing_fastapi_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import stateledger.interfaces.server as server_pkg
    from stateledger.errors import MissingDependencyError

    monkeypatch.setitem(sys.modules, "fastapi", None)
    monkeypatch.delitem(sys.modules, "stateledger.interfaces.server.app", raising=False)
    with pytest.raises(MissingDependencyError, match=r"pip install 'stateledger\[server\]'"):
        server_pkg.create_app  # noqa: B018 - the lazy import is what is tested
    from stateledger.interfaces.server.keys import KeyStore  # key management still imports

    assert KeyStore.__name__ == "KeyStore"


def test_a_body_that_trickles_in_gets_408(tmp_path: Path) -> None:
    import socket
    import time
    from urllib.parse import urlsplit

    with live_server(tmp_path / "m.db", tmp_path / "k.db", body_timeout_s=1.0) as srv:
        where = urlsplit(srv.url)
        started = time.monotonic()
        with socket.create_connection((where.hostname, where.port), timeout=10) as conn:
            conn.sendall(b"POST /v1/memories HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 100\r\n\r\n{\"te")
            # The rest of the body never comes. Read the whole reply: headers and body may
            # arrive in separate segments (the server closes the connection after it).
            chunks = []
            while chunk := conn.recv(4096):
                chunks.append(chunk)
            reply = b"".join(chunks).decode()
        assert reply.startswith("HTTP/1.1 408") and "request_timeout" in reply, reply
        assert time.monotonic() - started < 8


def test_dates_and_epoch_seconds_are_times(server: LiveServer, keys: dict[str, str]) -> None:
    """A date alone is midnight UTC, a JSON number is epoch seconds."""
    with client(server, keys["acme"]) as c:
        for at, expected in (("2023-05-01", "2023-05-01T00:00:00+00:00"),
                             (1_683_000_000, "2023-05-02T04:00:00+00:00")):
            r = c.post("/v1/memories", json={"text": "I live in Oslo.", "user_id": "tim",
                                             "at": at})
            assert r.status_code == 200, r.text
            assert r.json()["at"] == expected


def test_scopes_and_metadata_over_rest(server: LiveServer, keys: dict[str, str]) -> None:
    with client(server, keys["acme"]) as c:
        ok(c.post("/v1/memories", json={"text": "I live in Oslo.", "user_id": "sam",
                                        "agent_id": "travel", "run_id": "s1",
                                        "metadata": {"topic": "home"}}))
        ok(c.post("/v1/memories", json={"text": "I have a dog named Rex.", "user_id": "sam",
                                        "agent_id": "pets"}))
        recs = ok(c.get("/v1/users/sam/records", params={"agent_id": "travel"}))
        assert [(r["text"], r["run_id"], r["metadata"]) for r in recs] == [
            ("I live in Oslo.", "s1", {"topic": "home"})]
        hits = ok(c.post("/v1/search", json={"query": "what do I have?", "user_id": "sam",
                                             "metadata": {"topic": "home"}}))
        assert [i["record"]["text"] for i in hits["items"]] == ["I live in Oslo."]
        err(c.post("/v1/memories", json={"text": "I have a cat.", "user_id": "sam",
                                         "metadata": {"x": "y" * 20_000}}),
            422, "invalid_input")


def test_log_pages_and_export_over_rest(server: LiveServer, keys: dict[str, str]) -> None:
    with client(server, keys["acme"]) as c:
        for i in range(5):
            ok(c.post("/v1/memories", json={"text": f"I have a plant named P{i}.",
                                            "user_id": "pat"}))
        newest = ok(c.get("/v1/transactions/pat", params={"limit": 2}))
        older = ok(c.get("/v1/transactions/pat", params={"limit": 2, "offset": 2}))
        assert [t["text"] for t in newest + older] == [
            f"I have a plant named P{i}." for i in (4, 3, 2, 1)]
        resp = c.get("/v1/users/pat/export")
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(x) for x in resp.text.splitlines()]
        assert lines[0]["type"] == "header" and lines[0]["users"] == ["pat"]  # unscoped
        stored = ok(c.get("/v1/users/pat/records", params={"ledger": "all"}))
        assert sum(line["type"] == "record" for line in lines) == len(stored)
        assert sum(line["type"] == "log" for line in lines) == 5
        assert {line["user_id"] for line in lines[1:]} == {"pat"}
