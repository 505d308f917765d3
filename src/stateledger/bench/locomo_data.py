"""Typed loader for LoCoMo (``locomo10.json``, snap-research/LoCoMo, CC BY-NC 4.0).

The benchmarks replay LoCoMo turn by turn into a memory bank, so every turn needs a strict,
timezone-aware timestamp; the raw file only dates whole sessions ("1:56 pm on 8 May, 2023").
This module gives each turn its session time plus one second per position in the session, so
the replay order is total and reproducible, and it cleans the few malformed QA fields (integer
answers, evidence strings such as ``"D8:6; D9:17"``) once, here, instead of in every scorer.

The data is never copied into the repository (its license is non-commercial): it is read at run
time from ``$STATELEDGER_LOCOMO`` or from ``../shared/data/locomo/locomo10.json`` beside the
repository.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from stateledger.errors import DataError

__all__ = [
    "ENV_VAR",
    "QA",
    "Conversation",
    "Turn",
    "clean_evidence",
    "default_locomo_path",
    "load_locomo",
    "locomo_candidates",
    "parse_session_time",
]

ENV_VAR = "STATELEDGER_LOCOMO"
"""Environment variable that points at ``locomo10.json`` (a file, or a folder holding it)."""

_FILE_NAME = "locomo10.json"
_REL_DEFAULT = Path("..") / "shared" / "data" / "locomo" / _FILE_NAME

_MONTHS = {
    name: i
    for i, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
_SESSION_TIME = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_SESSION_KEY = re.compile(r"^session_(\d+)$")
# "D8:6", also the upstream typo "D:11:26"; the id is rebuilt canonically ("D30:05" -> "D30:5").
_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True)
class Turn:
    """One utterance, with the strict replay time the benchmarks order by.

    ``inserted_unit`` is None for original LoCoMo turns; the state bench sets it to the unit id
    of the synthetic cue it inserted, so a replay can tell cues from the original dialogue.
    """

    dia_id: str
    session: int
    speaker: str
    text: str
    at: datetime
    inserted_unit: str | None = None

    @property
    def is_inserted(self) -> bool:
        """True for a cue inserted by the state bench."""
        return self.inserted_unit is not None


@dataclass(frozen=True)
class QA:
    """One LoCoMo question with its cleaned gold fields.

    ``answer`` is always a string (upstream has a few ints); it is ``""`` for adversarial
    (category 5) questions that only carry ``adversarial_answer``, because their score does not
    depend on a gold string (see ``scoring.score_qa``).
    """

    question: str
    answer: str
    evidence: list[str]
    category: int
    adversarial_answer: str | None = None

    @property
    def is_adversarial(self) -> bool:
        """Category 5: unanswerable from the conversation; the right answer is an abstention."""
        return self.category == 5


@dataclass
class Conversation:
    """One LoCoMo sample: two speakers, their time-ordered turns, and the QA over them."""

    sample_id: str
    speaker_a: str
    speaker_b: str
    turns: list[Turn] = field(default_factory=list)
    qa: list[QA] = field(default_factory=list)

    @property
    def speakers(self) -> tuple[str, str]:
        """Both speaker names, ``speaker_a`` first."""
        return (self.speaker_a, self.speaker_b)

    def turn_by_id(self) -> dict[str, Turn]:
        """Map dia_id -> turn, for evidence look-ups."""
        return {t.dia_id: t for t in self.turns}


def parse_session_time(text: str) -> datetime:
    """Parse a LoCoMo session stamp such as ``"1:56 pm on 8 May, 2023"`` into UTC.

    Parsed by hand rather than with ``strptime`` so the result does not depend on the process
    locale's month names. LoCoMo gives no timezone; UTC is a stable convention, not a claim.
    """
    m = _SESSION_TIME.match(text)
    if m is None:
        raise DataError(f"unrecognised LoCoMo session time {text!r}")
    hour, minute, ampm, day, month_name, year = m.groups()
    month = _MONTHS.get(month_name.lower())
    h = int(hour)
    if month is None or not 1 <= h <= 12:
        raise DataError(f"unrecognised LoCoMo session time {text!r}")
    h = h % 12 + (12 if ampm.lower() == "p" else 0)
    try:
        return datetime(int(year), month, int(day), h, int(minute), tzinfo=UTC)
    except ValueError as exc:
        raise DataError(f"invalid LoCoMo session time {text!r}: {exc}") from exc


def clean_evidence(raw: Iterable[Any]) -> list[str]:
    """Return the well-formed dia ids in ``raw``, canonical, deduplicated, in order.

    Upstream has a handful of malformed entries: several ids in one string (``"D8:6; D9:17"``,
    ``"D9:1 D4:4"``), a stray ``"D"``, ``"D:11:26"`` and a zero-padded ``"D30:05"``. Splitting
    them keeps the gold evidence usable for recall@k; junk with no id in it is dropped.
    """
    out: list[str] = []
    for item in raw:
        if not isinstance(item, str):
            continue
        for sess, turn in _EVIDENCE_ID.findall(item):
            dia = f"D{int(sess)}:{int(turn)}"
            if dia not in out:
                out.append(dia)
    return out


def _repo_root() -> Path:
    """The repository root: the first parent of this file holding pyproject.toml or .git."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists() or (parent / ".git").exists():
            return parent
    return here.parents[3]  # src/stateledger/bench/locomo_data.py -> repo root


def locomo_candidates() -> list[Path]:
    """Where the loader looks, in order: ``$STATELEDGER_LOCOMO``, then the shared data folder.

    The shared folder is tried relative to the repository root and to the working directory,
    so both an editable checkout and a run from the repo root find it.
    """
    cands: list[Path] = []
    env = os.environ.get(ENV_VAR)
    if env:
        p = Path(env).expanduser()
        cands.append(p / _FILE_NAME if p.is_dir() else p)
    for base in (_repo_root(), Path.cwd()):
        p = (base / _REL_DEFAULT).resolve()
        if p not in cands:
            cands.append(p)
    return cands


def default_locomo_path() -> Path:
    """The first existing candidate from :func:`locomo_candidates`.

    Raises DataError naming every place it looked and how to point at the file; when the env
    variable is set but wrong, that is reported rather than silently falling back.
    """
    cands = locomo_candidates()
    env = os.environ.get(ENV_VAR)
    if env:
        if cands[0].is_file():
            return cands[0]
        raise DataError(
            f"LoCoMo data not found: ${ENV_VAR}={env!r} does not point at {_FILE_NAME} "
            f"(looked at {cands[0]}). Set ${ENV_VAR} to the path of {_FILE_NAME} "
            "(snap-research/LoCoMo, data/locomo10.json)."
        )
    for p in cands:
        if p.is_file():
            return p
    looked = ", ".join(str(p) for p in cands)
    raise DataError(
        f"LoCoMo data not found; looked at: {looked}. Set ${ENV_VAR} to the path of "
        f"{_FILE_NAME} (snap-research/LoCoMo, data/locomo10.json) or pass path=..."
    )


def resolve_locomo_path(path: str | os.PathLike[str] | None) -> Path:
    """The LoCoMo file ``path`` names (the file or its folder; None: the default search).
    Raises DataError when it is not there."""
    if path is None:
        return default_locomo_path()
    p = Path(path).expanduser()
    if p.is_dir():
        p = p / _FILE_NAME
    if not p.is_file():
        raise DataError(
            f"LoCoMo data not found at {p}. Pass the path of {_FILE_NAME} or set ${ENV_VAR}."
        )
    return p


def _turn_text(raw: dict[str, Any]) -> str:
    text = str(raw.get("text", "")).strip()
    caption = raw.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [shares a photo: {caption.strip()}]".strip()
    return text


def _parse_conversation(sample: dict[str, Any]) -> Conversation:
    sample_id = str(sample.get("sample_id", "?"))
    conv = sample.get("conversation")
    if not isinstance(conv, dict):
        raise DataError(f"LoCoMo sample {sample_id}: no 'conversation' object")
    try:
        speaker_a = str(conv["speaker_a"])
        speaker_b = str(conv["speaker_b"])
    except KeyError as exc:
        raise DataError(f"LoCoMo sample {sample_id}: missing {exc.args[0]}") from exc

    sessions: list[tuple[datetime, int, list[Any]]] = []
    for key, value in conv.items():
        m = _SESSION_KEY.match(key)
        if m is None or not isinstance(value, list) or not value:
            continue
        n = int(m.group(1))
        stamp = conv.get(f"session_{n}_date_time")
        if not isinstance(stamp, str):
            raise DataError(f"LoCoMo sample {sample_id}: session {n} has no date_time")
        sessions.append((parse_session_time(stamp), n, value))
    # Sort by session time (ties by number), as A-TMA's replay does; in locomo10 this is also
    # the numeric order.
    sessions.sort(key=lambda s: (s[0], s[1]))

    turns: list[Turn] = []
    for start, n, raw_turns in sessions:
        for i, raw in enumerate(raw_turns):
            if not isinstance(raw, dict) or "dia_id" not in raw or "speaker" not in raw:
                raise DataError(f"LoCoMo sample {sample_id}: malformed turn in session {n}")
            turns.append(
                Turn(
                    dia_id=str(raw["dia_id"]),
                    session=n,
                    speaker=str(raw["speaker"]),
                    text=_turn_text(raw),
                    at=start + timedelta(seconds=i),
                )
            )
    for prev, nxt in itertools.pairwise(turns):
        if not prev.at < nxt.at:
            raise DataError(
                f"LoCoMo sample {sample_id}: turns {prev.dia_id} and {nxt.dia_id} are not in "
                "strict time order (a session longer than the gap to the next one?)"
            )

    qa: list[QA] = []
    for raw in sample.get("qa", []):
        if not isinstance(raw, dict) or "question" not in raw:
            continue
        answer = raw.get("answer")
        adv = raw.get("adversarial_answer")
        qa.append(
            QA(
                question=str(raw["question"]),
                answer="" if answer is None else str(answer),
                evidence=clean_evidence(raw.get("evidence") or []),
                category=int(raw.get("category", 0)),
                adversarial_answer=None if adv is None else str(adv),
            )
        )
    return Conversation(sample_id, speaker_a, speaker_b, turns, qa)


def load_locomo(path: str | os.PathLike[str] | None = None) -> list[Conversation]:
    """Load all LoCoMo conversations, in file order.

    ``path`` may name the JSON file or the folder holding it; None means
    :func:`default_locomo_path`. Raises DataError when the file is missing or malformed.
    """
    p = resolve_locomo_path(path)
    try:
        with p.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"cannot read LoCoMo data at {p}: {exc}") from exc
    if not isinstance(data, list):
        raise DataError(f"LoCoMo data at {p} is not a JSON list of samples")
    return [_parse_conversation(s) for s in data if isinstance(s, dict)]
