"""``bench dialogues``: the format of the hand-written conversations (each error named by its
line), the shipped halves, the scoring of an answer by where it came from, and a run of the
bench through the CLI on both the default engine and a value-less baseline."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from stateledger.bench.dialogues import (
    NONE,
    SPLITS,
    DialogueQuestion,
    dialogue_outcome,
    load_dialogues,
    parse_dialogues,
    run_dialogues,
)
from stateledger.bench.systems import EvidenceRow, Prediction
from stateledger.errors import DataError
from stateledger.interfaces.cli import main

TEXT = """
# a comment
== tea | update
t1 2024-01-04 | I drink green tea every afternoon.
t2 2024-03-02 | I switched from green tea to coffee.
? What do I drink in the afternoon? => t2
? When did I switch to coffee? => t2 @2024-03-02
? What is my blood type? => NONE
? Do I drink tea? => t2 | NONE
"""


def test_the_format_reads_turns_questions_and_alternatives() -> None:
    (d,) = parse_dialogues(TEXT, "dev")
    assert (d.name, d.kind, d.split) == ("tea", "update", "dev")
    assert [t for t, _, _ in d.turns] == ["t1", "t2"]
    assert d.turns[1][1].isoformat() == "2024-03-02T00:00:00+00:00"
    q1, q2, q3, q4 = d.questions
    assert (q1.turns, q1.none_ok, q1.date) == (frozenset({"t2"}), False, None)
    assert q2.date == "2024-03-02"
    assert (q3.turns, q3.none_ok) == (frozenset(), True)
    assert (q4.turns, q4.none_ok) == (frozenset({"t2"}), True)
    assert [t.dia_id for t in d.replay()] == ["tea:t1", "tea:t2"]


@pytest.mark.parametrize(("text", "message"), [
    ("t1 2024-01-01 | hi", "before the first"),
    ("== a | k\nt1 2024-01-01 | hi\n? q? => t7", "unknown turns"),
    ("== a | k\nt1 2024-13-01 | hi\n? q? => t1", "bad date"),
    ("== a | k\nt1 2024-01-01 | hi", "needs turns and questions"),
    ("== a | k\nt1 2024-01-01 | hi\nwhat is this", "not a turn"),
    ("== a | k\nt1 2024-01-01 | x\n? q => t1\n== a | k\nt1 2024-01-01 | y\n? q => t1",
     "used twice"),
])
def test_a_bad_file_is_a_data_error_that_says_where(text: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        parse_dialogues(text, "dev", "f.txt")


def test_the_shipped_parts_parse_and_share_no_conversation() -> None:
    every = load_dialogues()
    parts = {s: {d.name for d in every if d.split == s} for s in SPLITS}
    assert set(parts) == {"dev", "heldout", "heldout2"}
    assert all(len(names) >= 30 for names in parts.values())
    assert sum(len(names) for names in parts.values()) == len({d.name for d in every})
    with pytest.raises(DataError, match="unknown dialogue split"):
        load_dialogues(["test"])


def _pred(found: bool, prov: str | None = None, text: str = "x") -> Prediction:
    used = EvidenceRow(text, prov) if prov else None
    return Prediction(text, found, (used,) if used else (), used, text)


def test_an_answer_passes_only_from_a_right_turn() -> None:
    q = DialogueQuestion("q", frozenset({"t2"}), False)
    assert dialogue_outcome(_pred(True, "tea:t2"), q, "tea") == (True, "t2")
    assert dialogue_outcome(_pred(True, "tea:t1"), q, "tea") == (False, "t1")
    assert dialogue_outcome(_pred(True, "other:t2"), q, "tea") == (False, "elsewhere")
    assert dialogue_outcome(_pred(False), q, "tea") == (False, NONE)
    assert dialogue_outcome(_pred(False), DialogueQuestion("q", frozenset(), True),
                            "tea")[0]
    dated = DialogueQuestion("q", frozenset({"t2"}), False, "2024-03-02")
    assert not dialogue_outcome(_pred(True, "tea:t2", "since March"), dated, "tea")[0]
    assert dialogue_outcome(_pred(True, "tea:t2", "2024-03-02: ..."), dated, "tea")[0]


def test_the_engine_answers_from_the_update_and_a_vector_store_does_not() -> None:
    dialogues = parse_dialogues(TEXT, "dev")
    result = run_dialogues(systems=["stateledger", "append-only"], dialogues=dialogues)
    rows = {r["question"]: r for r in result.details["stateledger"]}
    assert rows["What do I drink in the afternoon?"]["passed"]
    assert rows["What is my blood type?"]["passed"]  # not in memory
    assert rows["When did I switch to coffee?"]["passed"]
    baseline = {r["question"]: r for r in result.details["append-only"]}
    assert not baseline["What is my blood type?"]["passed"]  # it always answers
    m = result.systems["stateledger"]
    assert m["n"] == 4 and m["dev"]["n"] == 4 and m["heldout"]["n"] == m["heldout2"]["n"] == 0
    assert set(m["kinds"]) == {"update"}


def test_cli_writes_the_report_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    main(["bench", "dialogues", "--split", "dev", "--systems", "append-only", "--json",
          "--out", str(tmp_path)])
    payload = json.loads(capsys.readouterr().out)
    assert payload["suite"] == "dialogues"
    metrics = payload["systems"]["append-only"]
    assert metrics["dev"]["n"] > 0 and metrics["heldout"]["n"] == 0
    assert 0.0 <= metrics["pass_rate"] < 0.6  # a plain vector store misses most changes
    assert (tmp_path / "external_dialogues.md").exists()
    assert (tmp_path / "external_dialogues.png").exists()


def test_no_turn_of_the_second_held_out_part_is_a_near_copy_of_another_part() -> None:
    # heldout2 estimates conversations in other words than the bench's own: a first draft,
    # written by a session that had read the other parts, recalled a third of its
    # sentences from them (docs/BENCHMARKS.md, thirty-second session).
    every = load_dialogues()
    seen = [text.lower() for d in every if d.split != "heldout2" for _, _, text in d.turns]
    for d in (d for d in every if d.split == "heldout2"):
        for _, _, text in d.turns:
            new = difflib.SequenceMatcher(None, "", text.lower())
            for old in seen:
                new.set_seq1(old)
                if new.real_quick_ratio() >= 0.8 and new.quick_ratio() >= 0.8:
                    assert new.ratio() < 0.8, (d.name, text, old)
