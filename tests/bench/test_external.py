"""``bench external``: the BEAM and GoodAI loaders, the scoring rules (each shown passing and
failing), the BEAM outcome classes, and a CLI smoke run per suite on tiny fixtures written in
the real formats. The real data is never copied here; one test reads it when it is present."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from stateledger.bench.external import (
    Rubric,
    answer_evidence,
    beam_outcome,
    beam_rates,
    goodai_turns,
    rubric,
    run_goodai,
    score,
    scored_text,
)
from stateledger.bench.external_data import (
    BEAM_ENV_VAR,
    GOODAI_ENV_VAR,
    STATE_TYPES,
    BeamQuestion,
    beam_split,
    default_beam_path,
    default_goodai_path,
    load_beam,
    load_goodai,
    strip_marker,
)
from stateledger.bench.locomo_data import Turn
from stateledger.bench.systems import SYSTEMS, EvidenceRow, Prediction, VectorMemory
from stateledger.errors import DataError, InvalidTextError
from stateledger.interfaces.cli import main
from stateledger.models.embedder import MiniLMEmbedder
from unavailable import unavailable

# --- fixtures in the real formats ----------------------------------------------------------------


def _msg(mid: int, role: str, content: str, anchor: str | None = None) -> dict[str, Any]:
    m: dict[str, Any] = {"role": role, "id": mid, "content": content}
    if anchor is not None:
        m["time_anchor"] = anchor
    return m


def _beam_chat(root: Path, n: int, sessions: list[list[list[dict[str, Any]]]],
               questions: list[dict[str, Any]]) -> None:
    folder = root / "chats" / str(n)
    (folder / "probing_questions").mkdir(parents=True)
    chat = [{"batch_number": i + 1, "time_anchor": None, "turns": turns}
            for i, turns in enumerate(sessions)]
    (folder / "chat.json").write_text(json.dumps(chat))
    probes = {"knowledge_update": questions, "abstention": []}
    (folder / "probing_questions" / "probing_questions.json").write_text(json.dumps(probes))


def _ku(question: str, original: list[int], updated: list[int]) -> dict[str, Any]:
    return {"question": question, "answer": "x", "update_type": "count_change",
            "source_chat_ids": {"original_info": original, "updated_info": updated}}


def _budget_chat(root: Path, n: int) -> None:
    """Two sessions; the budget is stated (id 2) and updated on the same date (id 4)."""
    _beam_chat(root, n, [
        [[_msg(0, "user", "I'm planning a garden party for my sister. ->-> 1,1", "May-03-2024"),
          _msg(1, "assistant", "Happy to help with the party.")],
         [_msg(2, "user", "My budget for the party is $300 in total. ->-> 1,2"),
          _msg(3, "assistant", "Noted.")],
         [_msg(4, "user", "Update: my budget for the party is now $450. ->-> 1,3"),
          _msg(5, "assistant", "Got it.")]],
        [[_msg(6, "user", "I bought paper lanterns and fairy lights. ->-> 2,N/A", "June-01-2024"),
          _msg(7, "assistant", "Nice.")]],
    ], [_ku("What is my budget for the party?", [2], [4])])


def _goodai_test(root: Path, config: str, kind: str, n: int, script: list[str],
                 expected: list[Any]) -> None:
    folder = root / "data" / "tests" / config / "definitions" / kind
    folder.mkdir(parents=True, exist_ok=True)
    flags = [False] * (len(script) - 1) + [True]
    (folder / f"{n}.def.json").write_text(json.dumps({
        "script": script, "is_question": flags, "expected_responses": expected,
        "waits": [{}] * len(script), "can_be_interleaved": True, "is_temporal": False,
        "uses_callback": False}))


COLOURS = ["My favourite colour is Blue.", "Red is my favourite colour.",
           "My favourite colour could be described as Green.", "What is my favourite colour?"]
NAMES = ["Refer to me as Gary.", "My name has changed to Amy-Lee.",
         "What have been all of the names that I have given you?"]
SHOPPING = ["Please add 3 Toothpaste to my shopping list", "I want to buy 2 Carrot.",
            "Please remove 3 Toothpaste from my shopping list",
            "I require another 1 Carrot, please put it on the list.",
            "What is on my current shopping list?"]
SALLY = ["(On TV) Ava entered the porch.\n", "(On TV) The pear is in the bottle.\n",
         "(On TV) Ava moved the pear to the treasure_chest.\n",
         "(On TV) Isla dislikes the carrot\n",
         "The TV program has ended for today. Where was the pear at the beginning?"]
ROUTE = ["There is a Town Hall in the center of my hometown.",
         "High Street is a location in my home town, it is 4 KM, East from Town Hall.",
         "About 2 km West of the High Street there is a Park",
         "Given the points of interest that I have told you about, how would I travel from "
         "Town Hall to Park following those interesting points?"]


def _goodai(root: Path) -> Path:
    for config in ("Benchmark 1 - 1k Filler", "Benchmark 3 - 32k"):  # same scripts twice
        _goodai_test(root, config, "Colours", 0, COLOURS, ["Green"])
        _goodai_test(root, config, "NameList", 0, NAMES, ["Gary", "Amy-Lee"])
        _goodai_test(root, config, "Shopping", 0, SHOPPING, [["carrot", 3]])
        _goodai_test(root, config, "SallyAnne", 0, SALLY, ["bottle"])
        _goodai_test(root, config, "Locations Directions", 0, ROUTE,
                     ["From Town Hall, go 4km East to High Street.\n"
                      "From High Street, go 2km West to Park."])
    _goodai_test(root, "Benchmark 3 - 32k", "Colours", 1, COLOURS[1:], ["Green"])
    _goodai_test(root, "Benchmark 3 - 32k", "Jokes", 0, ["Tell me a joke."], ["a joke"])
    return root


# --- BEAM parsing --------------------------------------------------------------------------------


def test_beam_parsing_strips_markers_and_orders_by_id(tmp_path: Path) -> None:
    _budget_chat(tmp_path, 1)
    (chat,) = load_beam(tmp_path)
    assert [m.id for m in chat.messages] == [0, 2, 4, 6]  # user messages only
    assert chat.messages[1].text == "My budget for the party is $300 in total."
    assert chat.messages[3].text == "I bought paper lanterns and fairy lights."
    assert all("->->" not in m.text for m in chat.messages)
    first = datetime(2024, 5, 3, 9, 0, tzinfo=UTC)
    # one minute per message position (assistant messages included) within the session
    assert [m.at.minute for m in chat.messages[:3]] == [0, 2, 4]
    assert chat.messages[0].at == first and chat.messages[3].at == datetime(
        2024, 6, 1, 9, 0, tzinfo=UTC)
    assert [m.at for m in chat.messages] == sorted(m.at for m in chat.messages)
    (q,) = chat.questions
    assert (q.original_ids, q.updated_ids) == ((2,), (4,))


def test_strip_marker_variants() -> None:
    assert strip_marker("How do I fix this? ->-> 3,13") == "How do I fix this?"
    assert strip_marker("evaluate my approach ->-> 5,14)") == "evaluate my approach"
    assert strip_marker("draft my will? ->-> 2,22, 24") == "draft my will?"
    assert strip_marker("the arrow ->-> is part of it here") == "the arrow ->-> is part of it here"


def test_beam_same_date_sessions_stay_in_order(tmp_path: Path) -> None:
    _beam_chat(tmp_path, 2, [
        [[_msg(0, "user", "First. ->-> 1,1", "March-15-2024"), _msg(1, "assistant", "ok")]],
        [[_msg(2, "user", "Second. ->-> 2,1", "March-15-2024"), _msg(3, "assistant", "ok")]],
    ], [])
    (chat,) = load_beam(tmp_path)
    assert chat.messages[0].at < chat.messages[1].at


def test_beam_split() -> None:
    assert [n for n in range(1, 21) if beam_split(n) == "val"] == [4, 8, 12, 16, 20]
    assert beam_split("7") == "train"
    with pytest.raises(DataError):
        beam_split("seven")


def test_beam_errors_name_the_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DataError, match="chats/"):
        load_beam(tmp_path)
    _budget_chat(tmp_path, 1)
    (tmp_path / "chats" / "1" / "probing_questions" / "probing_questions.json").unlink()
    with pytest.raises(DataError, match="missing file"):
        load_beam(tmp_path)
    (tmp_path / "chats" / "1" / "chat.json").write_text("[{\"turns\": [[{\"id\": \"x\"}]]}]")
    with pytest.raises(DataError, match="integer id"):
        load_beam(tmp_path)
    with pytest.raises(DataError, match=r"chats \[9\] not found"):
        load_beam(tmp_path, chats=[9])
    monkeypatch.setenv(BEAM_ENV_VAR, str(tmp_path / "nowhere"))
    with pytest.raises(DataError, match=BEAM_ENV_VAR):
        default_beam_path()
    monkeypatch.setenv(BEAM_ENV_VAR, str(tmp_path))
    assert default_beam_path() == tmp_path


def test_bad_time_anchor(tmp_path: Path) -> None:
    _beam_chat(tmp_path, 1, [[[_msg(0, "user", "Hi. ->-> 1,1", "Smarch-15-2024")]]], [])
    with pytest.raises(DataError, match="time_anchor"):
        load_beam(tmp_path)


# --- BEAM outcomes -------------------------------------------------------------------------------


def _ev(prov: str) -> EvidenceRow:
    return EvidenceRow(f"text of {prov}", prov)


Q = BeamQuestion("What is my budget?", "$450", "x", original_ids=(2,), updated_ids=(4,))


def test_beam_outcome_classes() -> None:
    top = (_ev("2"), _ev("4"))
    assert beam_outcome(Prediction("", True, (_ev("4"), _ev("2"))), Q) == "updated"
    assert beam_outcome(Prediction("", True, top), Q) == "stale"  # value-less: top-1
    assert beam_outcome(Prediction("", True, (_ev("6"), _ev("4"))), Q) == "other"
    assert beam_outcome(Prediction("not in memory", False, top), Q) == "abstained"
    # a stateledger row is judged on the evidence it used, not on the top item
    used = Prediction("", True, top, used=_ev("4"))
    assert answer_evidence(used) == _ev("4") and beam_outcome(used, Q) == "updated"
    both = BeamQuestion("q", "a", "x", original_ids=(8,), updated_ids=(8,))
    assert beam_outcome(Prediction("", True, (_ev("8"),)), both) == "updated"


def test_beam_rates_sum_to_one() -> None:
    rates = beam_rates(["updated", "stale", "stale", "abstained"])
    assert rates["from_updated"] == 0.25 and rates["stale"] == 0.5 and rates["other"] == 0.0
    assert rates["n"] == 4 and rates["counts"]["stale"] == 2
    assert beam_rates([])["n"] == 0


# --- GoodAI parsing and rules --------------------------------------------------------------------


def test_goodai_loader_dedups_and_groups(tmp_path: Path) -> None:
    tests = load_goodai(_goodai(tmp_path))
    assert list(tests) == list(STATE_TYPES)
    assert [len(v) for v in tests.values()] == [2, 1, 1, 1, 1]  # Jokes is not loaded
    first = tests["Colours"][0]
    assert first.sources == ("Benchmark 1 - 1k Filler/definitions/Colours/0.def.json",
                             "Benchmark 3 - 32k/definitions/Colours/0.def.json")
    assert first.question == "What is my favourite colour?" and len(first.statements) == 3
    shop = tests["Shopping"][0]
    assert (shop.expected, shop.quantities) == (("carrot",), (3,))
    assert tests["SallyAnne"][0].lines[0] == "(On TV) Ava entered the porch."  # trimmed


def test_goodai_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DataError, match="GoodAI LTM data not found"):
        load_goodai(tmp_path)
    _goodai_test(tmp_path, "B", "Colours", 0, ["a", "b"], ["Red"])
    bad = tmp_path / "data" / "tests" / "B" / "definitions" / "Colours" / "0.def.json"
    bad.write_text(json.dumps({"script": ["a", "b"], "is_question": [False, False],
                               "expected_responses": ["Red"]}))
    with pytest.raises(DataError, match="exactly one question"):
        load_goodai(tmp_path, types=["Colours"])
    monkeypatch.setenv(GOODAI_ENV_VAR, str(tmp_path))
    assert default_goodai_path() == tmp_path


def _rubrics(tmp_path: Path) -> dict[str, Rubric]:
    return {kind: rubric(v[0]) for kind, v in load_goodai(_goodai(tmp_path)).items()}


def test_colours_rule(tmp_path: Path) -> None:
    rb = _rubrics(tmp_path)["Colours"]
    assert rb.forbidden == ("Blue", "Red")
    assert score(rb, "My favourite colour could be described as Green. Green")[0]
    assert score(rb, "user: GREEN is my favourite colour.")[0]  # case-insensitive
    assert not score(rb, "My favourite colour is Blue.")[0]  # the stale value
    assert not score(rb, "It was Red, now it is Green.")[0]  # mixes states
    assert not score(rb, "Greenland is lovely")[0]  # whole words only


def test_namelist_rule(tmp_path: Path) -> None:
    rb = _rubrics(tmp_path)["NameList"]
    assert score(rb, "Your names: Gary, Amy-Lee")[0]
    ok, why = score(rb, "My name has changed to Amy-Lee.")
    assert not ok and "Gary" in why


def test_shopping_rule(tmp_path: Path) -> None:
    rb = _rubrics(tmp_path)["Shopping"]
    assert rb.forbidden == ("toothpaste",)  # added, then removed
    assert score(rb, "3 carrots")[0]  # plural is the same item
    assert score(rb, '[{"item": "Carrot", "quantity": 3}]')[0]  # JSON keeps its objects whole
    assert not score(rb, "I want to buy 2 Carrot.")[0]  # the old quantity
    assert not score(rb, "carrot: 2, milk: 3")[0]  # the 3 belongs to another item
    assert not score(rb, "3 carrots, 3 toothpaste")[0]  # a removed item


def test_sally_anne_rule(tmp_path: Path) -> None:
    rb = _rubrics(tmp_path)["SallyAnne"]
    assert rb.forbidden == ("treasure_chest",)
    assert score(rb, '{"answer": "bottle"}')[0]
    assert not score(rb, "(On TV) Ava moved the pear to the treasure_chest.")[0]
    assert not score(rb, "moved to the treasure chest from the bottle")[0]  # '_' = ' '
    assert not score(rb, "in the bottles")[0]  # no plural match outside Shopping


def test_locations_rule(tmp_path: Path) -> None:
    rb = _rubrics(tmp_path)["Locations Directions"]
    assert rb.required == ("Town Hall", "High Street", "Park") and rb.ordered
    assert score(rb, "From Town Hall go east to High Street, then west to the Park.")[0]
    ok, why = score(rb, "Park, then High Street, then Town Hall")
    assert not ok and why == "places out of order"
    assert not score(rb, "There is a Town Hall in the center of my hometown.")[0]


def test_scored_text_and_filler_turns(tmp_path: Path) -> None:
    assert scored_text(Prediction("Green", True, (), answer_text="It is Green. Green")) == \
        "It is Green. Green"
    assert scored_text(Prediction("x", True, (_ev("1"),))) == "text of 1"
    test = load_goodai(_goodai(tmp_path))["Colours"][0]
    at = datetime(2023, 1, 1, tzinfo=UTC)
    pool = [Turn(f"D1:{i}", 1, "Jo", f"filler {i}", at) for i in range(50)]
    turns = goodai_turns(test, pool, 2, seed=0)
    assert len(turns) == 3 + 2 * 3  # three statements, two filler turns before each next line
    assert [t.text for t in turns if t.dia_id.startswith("line:")] == list(test.statements)
    assert turns[0].text == test.statements[0] and turns[-1].dia_id.startswith("filler:")
    assert all(a.at < b.at for a, b in itertools.pairwise(turns))
    assert {t.speaker for t in turns} == {"user"}
    assert goodai_turns(test, pool, 2, seed=0) == turns  # seeded
    assert goodai_turns(test, pool, 2, seed=1) != turns


# --- CLI smoke runs ------------------------------------------------------------------------------


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    payload: dict[str, Any] = json.loads(capsys.readouterr().out)
    return payload


def test_cli_beam_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        embedder: MiniLMEmbedder) -> None:
    data = tmp_path / "beam"
    _budget_chat(data, 1)
    _budget_chat(data, 4)
    out = tmp_path / "out"
    payload = _cli(["bench", "external", "--suite", "beam", "--data", str(data), "--systems",
                    "stateledger,append-only", "--json", "--out", str(out)], capsys)
    assert {"suite", "systems", "details", "skipped", "info"} <= set(payload)
    assert payload["suite"] == "beam" and set(payload["systems"]) == {"stateledger",
                                                                      "append-only"}
    for name, m in payload["systems"].items():
        assert m["n"] == 2 and m["train"]["n"] == 1 and m["val"]["n"] == 1
        total = sum(m[k] for k in ("from_updated", "stale", "other", "abstained"))
        assert total == pytest.approx(1.0)
        assert m["add_errors"] == 0
        row = payload["details"][name][0]
        assert {"question", "outcome", "answer", "provenance"} <= set(row)
    assert payload["info"]["network_attempts"] == 0
    assert payload["info"]["chat_ids"] == {"train": [1], "val": [4]}
    for suffix in ("md", "json", "png"):
        assert (out / f"external_beam.{suffix}").stat().st_size > 0


def test_cli_goodai_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          embedder: MiniLMEmbedder) -> None:
    out = tmp_path / "out"
    payload = _cli(["bench", "external", "--suite", "goodai", "--data",
                    str(_goodai(tmp_path / "g")), "--systems", "append-only", "--filler", "0",
                    "--json", "--out", str(out)], capsys)
    m = payload["systems"]["append-only"]
    assert set(m["types"]) == set(STATE_TYPES) and m["n"] == 5  # Colours has two tests
    assert 0.0 <= m["pass_rate"] <= 1.0
    assert payload["info"]["filler"] == 0 and "--filler 0" in payload["info"]["filler_note"]
    assert "filler" in (out / "external_goodai.md").read_text()


class _Picky(VectorMemory):
    """A system that refuses some messages, as a store with a text limit would."""

    def add(self, turn: Turn, user: str) -> None:
        if "Gary" in turn.text:
            raise InvalidTextError("text is too long")
        super().add(turn, user)


def test_add_errors_are_counted_not_fatal(tmp_path: Path, embedder: MiniLMEmbedder,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SYSTEMS, "picky", _Picky)
    tests = load_goodai(_goodai(tmp_path), types=["NameList"])
    result = run_goodai(tests=tests, systems=["picky"], filler=0, embedder=embedder)
    m = result.systems["picky"]
    assert m["add_errors"] == 1 and m["add_error_types"] == {"InvalidTextError": 1}
    assert m["n"] == 1 and m["passed"] == 0  # Gary was never stored
    assert result.details["picky"][0]["reason"] == "missing 'Gary'"


# --- the real data, when present -----------------------------------------------------------------


def _real(find: Any) -> Path:
    try:
        path: Path = find()
    except DataError as exc:
        unavailable(f"shared external data not available ({exc})")
    return path


def test_real_data_parses_and_rubrics_are_sound(embedder: MiniLMEmbedder) -> None:
    """Every real BEAM chat parses cleanly, and for every real GoodAI test an ideal answer
    passes its rubric while the first stated value (when superseded) fails it."""
    chats = load_beam(_real(default_beam_path))
    assert len(chats) == 20 and sum(len(c.questions) for c in chats) == 40
    assert [c.chat_id for c in chats if c.split == "val"] == [4, 8, 12, 16, 20]
    for chat in chats:
        ids = {m.id for m in chat.messages}
        assert all("->->" not in m.text for m in chat.messages)
        assert all(set(q.original_ids + q.updated_ids) <= ids for q in chat.questions)
    tests = load_goodai(_real(default_goodai_path))
    assert all(len(v) == 9 for v in tests.values())
    for kind, group in tests.items():
        for test in group:
            rb = rubric(test)
            if kind == "Shopping":
                ideal = "\n".join(f"{q} {i}" for i, q in zip(test.expected, test.quantities,
                                                             strict=True))
            elif kind == "Locations Directions":
                ideal = test.expected[0]
            else:
                ideal = ", ".join(test.expected)
            assert score(rb, ideal)[0], (test.key, ideal, rb)
            if kind in ("Colours", "SallyAnne") and rb.forbidden:
                assert not score(rb, f"{ideal} or {rb.forbidden[0]}")[0]
    # and a few real tests replay end to end (one per type, no filler: fast)
    few = {kind: group[:1] for kind, group in tests.items()}
    result = run_goodai(tests=few, systems=["stateledger", "append-only"], filler=0,
                        embedder=embedder)
    for m in result.systems.values():
        assert m["n"] == 4 and m["add_errors"] == 0
        assert m["types"]["Locations Directions"]["n"] == 1
