"""The CLI mirrors the API: every command with --json prints one JSON object or list."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stateledger.interfaces.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    first = run(capsys, "add", "I live in Portland.", "--user", "alice", "--db", db,
                "--at", "2023-01-03T09:00:00+00:00", "--json")
    second = run(capsys, "add", "I moved to Seattle last weekend", "--user", "alice", "--db", db,
                 "--at", "2023-02-14T18:00:00+00:00", "--json")
    assert isinstance(first, dict) and isinstance(second, dict)
    assert (first["action"], second["action"]) == ("append", "revise")
    assert second["target"]["id"] == first["record"]["id"]

    now = run(capsys, "answer", "Where do I live now?", "--user", "alice", "--db", db, "--json")
    before = run(capsys, "answer", "Where did I live before?", "--user", "alice", "--db", db,
                 "--json")
    assert isinstance(now, dict) and isinstance(before, dict)
    assert "Seattle" in now["text"] and now["view"] == "current"
    assert "Portland" in before["text"] and before["view"] == "historical"

    pkt = run(capsys, "search", "where did I live?", "--user", "alice", "--db", db, "--k", "3",
              "--json")
    assert isinstance(pkt, dict) and len(pkt["items"]) <= 3
    assert {i["label"] for i in pkt["items"]} <= {"current memory", "historical memory"}

    hist = run(capsys, "records", "--user", "alice", "--ledger", "history", "--db", db, "--json")
    assert isinstance(hist, list) and [r["value"] for r in hist] == ["Portland"]
    chain = run(capsys, "history", second["record"]["id"], "--db", db, "--json")
    assert isinstance(chain, list) and [r["value"] for r in chain] == ["Portland", "Seattle"]
    gone = run(capsys, "forget", first["record"]["id"], "--db", db, "--json")
    assert isinstance(gone, dict) and len(gone["deleted"]) == 2


def test_cli_errors_exit_2_with_a_message(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    assert main(["add", "   ", "--user", "alice", "--db", db]) == 2
    assert "empty" in capsys.readouterr().err
    assert main(["add", "I moved", "--user", "alice", "--db", db, "--at",
                 "2023-01-01T10:00"]) == 2
    assert "timezone" in capsys.readouterr().err
    missing = str(tmp_path / "typo.db")
    for argv in (["answer", "where?", "--user", "alice"], ["records", "--user", "alice"],
                 ["history", "abcdef12"], ["check"]):
        assert main([*argv, "--db", missing]) == 2
        assert f"no stateledger database at {missing!r}" in capsys.readouterr().err
    assert not Path(missing).exists()  # reading never creates a database


def test_console_script_runs_as_a_process(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    exe = Path(sys.executable).with_name("stateledger")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "stateledger.interfaces.cli"]
    proc = subprocess.run([*cmd, "add", "I live in Oslo.", "--user", "u1", "--db", db, "--json"],
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["action"] == "append"


def test_building_the_cli_does_not_load_torch() -> None:
    """`stateledger --help`, `users`, `records`, `keys` must start fast: torch (~2 s to import)
    loads only when a command needs the embedder or a learned model."""
    code = (
        "import sys\n"
        "from stateledger.interfaces.cli import build_parser\n"
        "build_parser()\n"
        "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') "
        "if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_read_commands_do_not_load_the_models(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """records, history, check and the log read the store only: the embedder and the
    relation model (torch, seconds) load on first add, search or answer."""
    db = str(tmp_path / "m.db")
    tx = run(capsys, "add", "I live in Oslo.", "--user", "a", "--db", db, "--json")
    assert isinstance(tx, dict)
    code = (
        "import sys\n"
        "from stateledger.interfaces.cli import main\n"
        f"assert main(['records', '--user', 'a', '--ledger', 'all', '--db', {db!r}]) == 0\n"
        f"assert main(['history', {tx['record']['id'][:8]!r}, '--db', {db!r}]) == 0\n"
        f"assert main(['check', '--db', {db!r}]) == 0\n"
        "print('LOADED', 'torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert "LOADED False" in out.stdout, out.stdout + out.stderr


def test_stored_terminal_controls_are_printed_escaped(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    assert main(["add", "I live in \x1b]0;owned\x07Oslo\x1b[2J.", "--user", "alice",
                 "--db", db]) == 0
    assert main(["records", "--user", "alice", "--db", db]) == 0
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and "\x07" not in shown
    assert "\\x1b" in shown  # shown as an escape, so the reader still sees it is there


def test_cli_forget_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    run(capsys, "add", "I live in Oslo.", "--user", "alice", "--db", db, "--json")
    run(capsys, "add", "I live in Rome.", "--user", "bob", "--db", db, "--json")
    erased = run(capsys, "forget-user", "--user", "alice", "--db", db, "--json")
    assert erased == {"user_id": "alice", "deleted_records": 1}
    bob = run(capsys, "records", "--user", "bob", "--db", db, "--json")
    assert isinstance(bob, list) and [r["value"] for r in bob] == ["Rome"]
    again = run(capsys, "forget-user", "--user", "alice", "--db", db, "--json")
    assert again == {"user_id": "alice", "deleted_records": 0}  # a retried erasure succeeds


def test_cli_check_passes_a_sound_store_and_fails_a_broken_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    db = str(tmp_path / "m.db")
    run(capsys, "add", "I live in Oslo.", "--user", "alice", "--db", db, "--json")
    run(capsys, "add", "I moved to Rome.", "--user", "alice", "--db", db, "--json")
    assert run(capsys, "check", "--db", db, "--json") == {"users": 1, "problems": []}
    conn = sqlite3.connect(db)  # break invariant 1 behind the engine's back
    conn.execute("UPDATE records SET status = 'active', ledger = 'accepted'")
    conn.execute("DELETE FROM links WHERE type = 'supersedes'")
    conn.commit()
    conn.close()
    assert main(["check", "--db", db]) == 1
    out = capsys.readouterr().out
    assert "2 active records" in out and "without an inverse" in out


def test_cli_unknown_user_is_not_in_memory(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    run(capsys, "add", "I live in Oslo.", "--user", "alice", "--db", db, "--json")
    ans = run(capsys, "answer", "Where do I live?", "--user", "ghost", "--db", db, "--json")
    assert isinstance(ans, dict) and (ans["found"], ans["text"]) == (False, "not in memory")
    assert run(capsys, "records", "--user", "ghost", "--db", db, "--json") == []


def test_cli_short_ids_and_unique_prefixes(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    first = run(capsys, "add", "I live in Portland.", "--user", "alice", "--db", db, "--at",
                "2023-01-03", "--json")
    run(capsys, "add", "I moved to Seattle.", "--user", "alice", "--db", db, "--at",
        "2023-02-14", "--json")
    assert isinstance(first, dict)
    rid = first["record"]["id"]
    assert main(["records", "--user", "alice", "--ledger", "all", "--db", db]) == 0
    table = capsys.readouterr().out
    assert rid[:8] in table and rid not in table  # tables show the short id
    everything = run(capsys, "records", "--user", "alice", "--ledger", "all", "--db", db,
                     "--json")
    assert isinstance(everything, list)
    assert [r["value"] for r in everything] == ["Portland", "Seattle"]
    chain = run(capsys, "history", rid[:8], "--db", db, "--json")
    assert isinstance(chain, list) and [r["value"] for r in chain] == ["Portland", "Seattle"]
    assert main(["history", rid[:3], "--db", db]) == 2  # too short to look up
    assert "no record" in capsys.readouterr().err
    assert main(["history", "ffffffffff", "--db", db]) == 2
    assert "no record" in capsys.readouterr().err


def test_cli_tenant_reads_what_the_server_stored(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    run(capsys, "add", "I live in Oslo.", "--user", "dave", "--tenant", "acme", "--db", db,
        "--json")
    from stateledger import Memory

    with Memory(db, create=False) as mem:
        assert mem.users() == ["acme:dave"]  # the id the REST server stores for acme's dave
    ans = run(capsys, "answer", "Where do I live?", "--user", "dave", "--tenant", "acme",
              "--db", db, "--json")
    assert isinstance(ans, dict) and "Oslo" in ans["text"]
    assert run(capsys, "users", "--db", db, "--json") == {"users": ["acme:dave"]}
    assert run(capsys, "users", "--tenant", "acme", "--db", db, "--json") == {"users": ["dave"]}
    assert run(capsys, "users", "--tenant", "globex", "--db", db, "--json") == {"users": []}
    plain = run(capsys, "answer", "Where do I live?", "--user", "dave", "--db", db, "--json")
    assert isinstance(plain, dict) and not plain["found"]
    assert main(["records", "--user", "dave", "--tenant", "bad:tenant", "--db", db]) == 2
    assert "tenant must be" in capsys.readouterr().err


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    from stateledger import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"stateledger {__version__}"


def test_cli_scopes_and_metadata(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    run(capsys, "add", "I live in Oslo.", "--user", "u", "--agent", "travel", "--run", "s1",
        "--metadata", '{"topic": "home", "n": 2}', "--db", db, "--json")
    run(capsys, "add", "I have a dog named Rex.", "--user", "u", "--agent", "pets", "--db", db,
        "--json")
    home = run(capsys, "records", "--user", "u", "--where", "topic=home", "--where", "n=2",
               "--db", db, "--json")
    assert isinstance(home, list) and [r["text"] for r in home] == ["I live in Oslo."]
    assert home[0]["metadata"] == {"topic": "home", "n": 2} and home[0]["run_id"] == "s1"
    pets = run(capsys, "search", "what do I have?", "--user", "u", "--agent", "pets", "--db",
               db, "--json")
    assert isinstance(pets, dict)
    assert [i["record"]["text"] for i in pets["items"]] == ["I have a dog named Rex."]
    assert main(["add", "I have a cat.", "--user", "u", "--metadata", "[1]", "--db", db]) == 2
    assert "must be a JSON object" in capsys.readouterr().err
    assert main(["records", "--user", "u", "--where", "novalue", "--db", db]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
