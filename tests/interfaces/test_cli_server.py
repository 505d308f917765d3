"""``stateledger keys``, ``stateledger resolve`` and the serve/mcp parsers, in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stateledger.interfaces import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_keys_create_list_revoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "mem.db")
    code, out, err = run(capsys, "keys", "create", "--tenant", "acme", "--db", db)
    key = out.strip()
    assert code == 0 and key.startswith("sl_") and "shown only now" in err
    assert (tmp_path / "mem.keys.db").exists()  # beside the db by default
    code, out, _ = run(capsys, "keys", "create", "--tenant", "globex", "--db", db, "--json")
    issued = json.loads(out)
    assert issued["tenant"] == "globex" and issued["keys_file"].endswith("mem.keys.db")

    code, out, _ = run(capsys, "keys", "list", "--db", db, "--json")
    listed = json.loads(out)
    assert {k["tenant"] for k in listed} == {"acme", "globex"}
    assert key not in out and issued["key"] not in out  # secrets are never shown again

    code, out, _ = run(capsys, "keys", "revoke", issued["key_id"], "--db", db)
    assert code == 0 and "revoked" in out
    with pytest.raises(SystemExit):
        cli.main(["keys", "revoke", issued["key_id"], "--db", db])
    code, _, err = run(capsys, "keys", "create", "--tenant", "bad:name", "--db", db)
    assert code == 2 and "tenant must be" in err
    code, _, err = run(capsys, "keys", "create", "--tenant", "x", "--db", ":memory:")
    assert code == 2 and "--keys PATH" in err


def test_resolve_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "mem.db")
    for text, at in (("I live in Boston", "2023-01-10T09:00:00Z"),
                     ("I might move to Denver next year", "2023-03-01T10:00:00Z")):
        code, out, _ = run(capsys, "add", text, "--at", at, "--user", "al", "--db", db, "--json")
        assert code == 0
    pending = json.loads(out)
    assert pending["action"] == "defer_verify"
    rid = pending["record"]["id"]
    code, out, _ = run(capsys, "resolve", rid, "--confirm", "--db", db, "--json")
    tx = json.loads(out)
    assert code == 0 and tx["action"] == "revise" and tx["resolved"]["id"] == rid
    assert tx["policy"] == "resolve" and tx["record"]["status"] == "active"
    code, _, err = run(capsys, "resolve", rid, "--deny", "--db", db)
    assert code == 2 and "not pending" in err
    code, _, err = run(capsys, "resolve", "nope", "--deny", "--db", db)
    assert code == 2 and "no record with id" in err
    with pytest.raises(SystemExit):  # exactly one of --confirm / --deny
        cli.main(["resolve", rid, "--db", db])


def test_serve_and_mcp_parse() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["serve", "--db", "m.db", "--port", "9000", "--keys", "k.db",
                              "--controller", "shadow", "--policy", "llm-judge"])
    assert (args.port, args.host, args.keys) == (9000, "127.0.0.1", "k.db")
    assert args.max_body == 8 * 1024 * 1024
    assert args.controller == "shadow" and args.policy == "llm-judge"
    args = parser.parse_args(["mcp", "--db", "m.db", "--user-default", "me"])
    assert args.user_default == "me" and args.answerer == "auto"
