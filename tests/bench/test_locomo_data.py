"""LoCoMo loader: counts, timestamps, caption suffixes, cleaned QA fields, missing-file errors."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from stateledger.bench.locomo_data import (
    ENV_VAR,
    Conversation,
    clean_evidence,
    default_locomo_path,
    load_locomo,
    parse_session_time,
)
from stateledger.errors import DataError


@pytest.fixture(scope="module")
def convs(locomo_path: Path) -> list[Conversation]:
    return load_locomo(locomo_path)


@pytest.fixture(scope="module")
def raw(locomo_path: Path) -> list[dict[str, Any]]:
    with locomo_path.open(encoding="utf-8") as fh:
        data: list[dict[str, Any]] = json.load(fh)
    return data


# --- no data needed -------------------------------------------------------------------------


def test_parse_session_time() -> None:
    assert parse_session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_session_time("12:40 am on 27 March, 2022") == datetime(
        2022, 3, 27, 0, 40, tzinfo=UTC
    )
    assert parse_session_time("12:05 pm on 1 January, 2024").hour == 12
    for bad in ("yesterday", "13:00 pm on 1 May, 2023", "1:00 pm on 31 February, 2023"):
        with pytest.raises(DataError):
            parse_session_time(bad)


def test_clean_evidence() -> None:
    assert clean_evidence(["D8:6; D9:17", "D", "D:11:26", "D30:05", "D1:2", 7]) == [
        "D8:6",
        "D9:17",
        "D11:26",
        "D30:5",
        "D1:2",
    ]
    assert clean_evidence(["D9:1 D4:4 D4:6", "D4:4"]) == ["D9:1", "D4:4", "D4:6"]
    assert clean_evidence([]) == []


def test_missing_file_is_a_clear_data_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "locomo10.json"
    with pytest.raises(DataError, match="nope"):
        load_locomo(missing)


def test_env_var_pointing_nowhere_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "missing.json"))
    with pytest.raises(DataError) as info:
        default_locomo_path()
    assert ENV_VAR in str(info.value)
    assert "missing.json" in str(info.value)


def test_malformed_json_is_a_data_error(tmp_path: Path) -> None:
    bad = tmp_path / "locomo10.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError):
        load_locomo(bad)
    bad.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(DataError):
        load_locomo(tmp_path)  # a folder holding the file works as a path


# --- on the real file -----------------------------------------------------------------------


def test_env_var_may_name_the_folder(locomo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(locomo_path.parent))
    assert default_locomo_path() == locomo_path


def test_counts(convs: list[Conversation]) -> None:
    assert len(convs) == 10
    assert convs[0].sample_id == "conv-26"
    assert (convs[0].speaker_a, convs[0].speaker_b) == ("Caroline", "Melanie")
    assert sum(len(c.turns) for c in convs) == 5882
    assert sum(len(c.qa) for c in convs) == 1986
    cats = Counter(q.category for c in convs for q in c.qa)
    assert cats == {1: 282, 2: 321, 3: 96, 4: 841, 5: 446}


def test_turn_times_strict_utc(convs: list[Conversation]) -> None:
    first = convs[0].turns[0]
    assert first.dia_id == "D1:1"
    assert first.session == 1
    assert first.at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert convs[0].turns[1].at == first.at + timedelta(seconds=1)
    for c in convs:
        assert all(t.at.utcoffset() == timedelta(0) for t in c.turns)
        assert all(a.at < b.at for a, b in zip(c.turns, c.turns[1:], strict=False))
        assert all(t.speaker in c.speakers for t in c.turns)
        assert all(not t.is_inserted for t in c.turns)
        assert len({t.dia_id for t in c.turns}) == len(c.turns)


def test_photo_captions_are_suffixed(convs: list[Conversation], raw: list[dict[str, Any]]) -> None:
    n_caption = 0
    for sample, conv in zip(raw, convs, strict=True):
        by_id = conv.turn_by_id()
        for key, turns in sample["conversation"].items():
            if not re.fullmatch(r"session_\d+", key):
                continue
            for t in turns:
                if t.get("blip_caption"):
                    n_caption += 1
                    text = by_id[t["dia_id"]].text
                    assert text == f"{t['text'].strip()} [shares a photo: {t['blip_caption']}]"
                else:
                    assert by_id[t["dia_id"]].text == t["text"].strip()
    assert n_caption > 0


def test_qa_fields_are_cleaned(convs: list[Conversation], raw: list[dict[str, Any]]) -> None:
    well_formed = re.compile(r"D\d+:\d+")
    for c in convs:
        for q in c.qa:
            assert isinstance(q.answer, str)
            assert all(well_formed.fullmatch(e) for e in q.evidence)
    # the malformed "D8:6; D9:17" entry is split, int answers become strings
    flat = [
        (rq, q)
        for s, c in zip(raw, convs, strict=True)
        for rq, q in zip(s["qa"], c.qa, strict=True)
    ]
    split = [q for rq, q in flat if "D8:6; D9:17" in rq["evidence"]]
    assert split and {"D8:6", "D9:17"} <= set(split[0].evidence)
    ints = [(rq, q) for rq, q in flat if isinstance(rq.get("answer"), int)]
    assert ints
    assert all(q.answer == str(rq["answer"]) for rq, q in ints)
    adversarial = [q for q in (q for _, q in flat) if q.is_adversarial]
    assert len(adversarial) == 446
    assert all(q.adversarial_answer is not None for q in adversarial)
    assert sum(1 for q in adversarial if q.answer) == 2  # two items carry both answers
