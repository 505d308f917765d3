"""Export is lossless (it restores into an empty store exactly, on every backend), and
transcripts in the layouts users have import through add_many."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stateledger import InvalidInputError, Memory, Status, StoreError
from stateledger.interfaces.cli import main
from stateledger.models.embedder import MiniLMEmbedder
from stateledger.models.rules import RulePolicy


def _bank(mem: Memory) -> None:
    mem.add("I live in Portland.", user_id="alice", at="2023-01-03")
    mem.add("I moved to Seattle.", user_id="alice", at="2023-02-14")
    mem.add("My sister says I moved back to Portland.", user_id="alice", at="2023-03-01")
    # Two statements: the second keeps the words before it (Record.context).
    mem.add("I have a dog named Rex. My cat is called Mo.", user_id="bob", at="2023-01-05")


def _everything(mem: Memory) -> tuple[list[dict[str, object]], list[bytes], list[object]]:
    recs = [r for u in mem.users() for r in mem.records(u, "all")]
    vectors = [np.asarray(r.embedding, np.float32).tobytes() for r in recs]
    log = [t for u in mem.users() for t in mem.transactions(u, limit=1000)]
    return [r.to_dict() for r in recs], vectors, log


def test_export_restores_exactly(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    with Memory(tmp_path / "a.db", embedder=embedder, policy=RulePolicy()) as a:
        _bank(a)
        lines = list(a.export())
        original = _everything(a)
    assert lines[0]["type"] == "header" and lines[0]["users"] == ["alice", "bob"]
    assert json.loads(json.dumps(lines)) == lines  # plain JSON all the way down
    with Memory(tmp_path / "b.db", embedder=embedder, policy=RulePolicy()) as b:
        assert b.restore(lines) == {"records": 5, "log": 5}
        assert _everything(b) == original
        assert [r.context for r in b.records("bob")] == [None, "I have a dog named Rex."]
        assert list(b.export()) == lines
        assert b.check() == []
        # The restored memory works on: search by vector, and new decisions on old states.
        assert "Seattle" in b.answer("Where do I live now?", user_id="alice").text
        tx = b.add("I moved to Denver.", user_id="alice", at="2023-04-01")
        assert tx.target is not None and tx.target.value == "Seattle"
        with pytest.raises(StoreError, match="already in this store"):
            b.restore(lines)


@pytest.mark.parametrize(("damage", "needle"), [
    (lambda ls: ls[1].update(status="lost"), "damaged record line"),
    (lambda ls: ls[1].pop("valid_from"), "record without"),
    (lambda ls: ls[1].update(embedding="%%%"), "damaged record line"),
    (lambda ls: ls[-1].update(at="2023-01-01T10:00"), "timezone"),
    (lambda ls: ls.append({"type": "nonsense"}), "not a stateledger export line"),
    (lambda ls: ls.append(dict(ls[1])), "record id twice"),
])
def test_a_damaged_export_restores_nothing(embedder: MiniLMEmbedder, damage, needle) -> None:  # type: ignore[no-untyped-def]
    with Memory(":memory:", embedder=embedder, policy=RulePolicy()) as a:
        _bank(a)
        lines = list(a.export())
    damage(lines)
    with Memory(":memory:", embedder=embedder, policy=RulePolicy()) as b:
        with pytest.raises(InvalidInputError, match=needle):
            b.restore(lines)
        assert b.users() == []


def test_cli_export_and_import(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               embedder: MiniLMEmbedder) -> None:
    src, dst, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "all.jsonl"
    with Memory(src, embedder=embedder, policy=RulePolicy()) as a:
        _bank(a)
    assert main(["export", "--db", str(src), "--out", str(out)]) == 0
    assert (out.stat().st_mode & 0o777) == 0o600
    assert main(["import", str(out), "--db", str(dst), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"format": "export", "records": 5, "log": 5}
    with Memory(dst, embedder=embedder, create=False) as b:
        assert [r.value for r in b.records("alice", "all")] == ["Portland", "Seattle",
                                                                 "Portland"]


def test_openai_transcript_import(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  embedder: MiniLMEmbedder) -> None:
    chat = {"messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "I moved to Seattle last week.", "timestamp": 1_676_400_000},
        {"role": "assistant", "content": "Congratulations on the move!"},
        {"role": "user", "content": [{"type": "text", "text": "Before that I lived in Austin."}],
         "created_at": "2023-02-15T09:00:00Z"},
        {"role": "user", "content": "I live in Portland.", "timestamp": "2022-05-01"},
    ]}
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(chat))
    db = str(tmp_path / "m.db")
    assert main(["import", str(path), "--user", "dana", "--db", db, "--policy", "rules",
                 "--json"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["format"] == "openai" and summary["messages"] == 4  # system turn skipped
    assert "imported 4/4 messages" in err
    with Memory(db, embedder=embedder, create=False) as mem:
        live = [r for r in mem.records("dana") if r.slot == "location"
                and r.status is Status.ACTIVE]  # fmt: skip
        assert [r.value for r in live] == ["Seattle"]  # the 2022 message is a past state


def test_mem0_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = {"results": [
        {"id": "m1", "memory": "Lives in Lisbon", "user_id": "x",
         "created_at": "2023-01-01T00:00:00+00:00"},
        {"id": "m2", "memory": "Has a cat named Mochi", "user_id": "x",
         "created_at": "2023-02-01T00:00:00+00:00"},
    ]}
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps(dump))
    db = str(tmp_path / "m.db")
    assert main(["import", str(path), "--user", "x", "--db", db, "--policy", "rules",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["messages"] == 2
    assert main(["records", "--user", "x", "--db", db, "--json"]) == 0
    provenance = {r["provenance"] for r in json.loads(capsys.readouterr().out)}
    assert provenance == {"mem0:m1", "mem0:m2"}


def test_import_errors_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "m.db")
    assert main(["import", str(tmp_path / "nope.json"), "--user", "x", "--db", db]) == 2
    assert "no file or folder" in capsys.readouterr().err
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}')
    assert main(["import", str(junk), "--user", "x", "--db", db]) == 2
    assert "cannot tell the format" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"role": "user", "content": "hi", "timestamp": "tomorrow"}]))
    assert main(["import", str(bad), "--user", "x", "--db", db]) == 2
    assert "message 0" in capsys.readouterr().err


def test_locomo_and_beam_layouts_import(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The benchmarks' layouts, in miniature: LoCoMo turns are said by their speakers (one
    user per conversation); a BEAM chat folder gives its user messages in time order."""
    locomo = [{"sample_id": "s1", "qa": [], "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bo",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Oslo."},
                      {"speaker": "Bo", "dia_id": "D1:2", "text": "I live in Rome."}]}}]
    (tmp_path / "locomo.json").write_text(json.dumps(locomo))
    chat = tmp_path / "beam-chat"
    chat.mkdir()
    (chat / "chat.json").write_text(json.dumps([{"turns": [[
        {"id": 1, "role": "user", "content": "I live in Lisbon. ->-> 1,1",
         "time_anchor": "March-15-2024"},
        {"id": 2, "role": "assistant", "content": "Lisbon is lovely."},
        {"id": 3, "role": "user", "content": "Actually I moved to Porto last week."}]]}]))
    db = str(tmp_path / "m.db")
    for argv in (["import", str(tmp_path / "locomo.json"), "--user", "lc"],
                 ["import", str(chat), "--user", "bm"]):
        assert main([*argv, "--db", db, "--policy", "rules", "--json"]) == 0
        capsys.readouterr()
    with Memory(db, create=False, policy=RulePolicy()) as mem:
        assert mem.users() == ["bm", "lc-s1"]
        subjects = {r.subject for r in mem.records("lc-s1", "all")}
        assert len(subjects) == 2  # Ann's and Bo's facts are about each of them
        beam = mem.records("bm", "all")
        assert [(r.value, r.status) for r in beam] == [("Lisbon", Status.SUPERSEDED),
                                                      ("Porto", Status.ACTIVE)]
        assert [r.provenance for r in beam] == ["1", "3"]
