"""The LTP-like state bench runner: replay each profile into one bank per system, then probe.

Protocol (A-TMA appendix A.3): every turn of the profile (the LoCoMo conversation with the
cues planted in it), in time order and with its session time, goes through each system's write
path into one fresh bank per (profile, system). Only then are the profile's 80 probes asked,
top-k evidence (default 5), with no further writes. The bank is read once at the end for the
bank-level metrics. Metric definitions: ``state_metrics``.

Each text is embedded once per run: the profile's turns, their speaker-labelled variants and
the probe questions are embedded in batches up front into a ``SharedEmbedder`` every system
reads from.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stateledger.bench.state_builder import StateBench, build_state_bench
from stateledger.bench.state_metrics import (
    ProbeOutcome,
    UnitBank,
    aggregate,
    probe_outcome,
    unit_bank,
)
from stateledger.bench.systems import BenchSystem, SharedEmbedder, labelled, select_systems
from stateledger.models.embedder import Embedder, default_embedder

Progress = Callable[[str, int, int], None]


@dataclass
class StateBenchResult:
    """Metrics per system (``systems``), probe-level outcomes, and run facts."""

    systems: dict[str, dict[str, Any]] = field(default_factory=dict)
    outcomes: dict[str, list[ProbeOutcome]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"systems": self.systems, "skipped": self.skipped, "info": self.info}


def run_state_bench(
    profiles: int = 10,
    *,
    systems: Sequence[str] | None = None,
    path: str | None = None,
    seed: int = 0,
    k: int = 5,
    bench: StateBench | None = None,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
) -> StateBenchResult:
    """Build (or take) the bench and run every selected system over its profiles."""
    started = time.perf_counter()
    sb = bench if bench is not None else build_state_bench(path, profiles=profiles, seed=seed)
    chosen, skipped = select_systems(systems)
    emb = SharedEmbedder(embedder or default_embedder())
    result = StateBenchResult(skipped=skipped)
    banks: dict[str, list[UnitBank]] = {name: [] for name in chosen}
    outcomes: dict[str, list[ProbeOutcome]] = {name: [] for name in chosen}
    timing = {name: {"replay_s": 0.0, "answer_s": 0.0} for name in chosen}
    total = sum(len(p.turns) + len(p.probes) for p in sb.profiles)
    done = dict.fromkeys(chosen, 0)
    embed_s = 0.0
    for prof in sb.profiles:
        t0 = time.perf_counter()
        emb.prime([t.text for t in prof.turns] + [labelled(t) for t in prof.turns]
                  + [q.question for q in prof.probes])
        embed_s += time.perf_counter() - t0
        units = prof.unit_by_id()
        for name, factory in chosen.items():
            tick = functools.partial(_tick, progress, name, done, total=total)
            b, o = _run_profile(factory(emb), prof, units, k, timing[name], tick)
            banks[name].extend(b)
            outcomes[name].extend(o)
        emb.clear()  # vectors of this profile are not needed again
    for name in chosen:
        result.systems[name] = aggregate(banks[name], outcomes[name]) | {
            key: round(v, 2) for key, v in timing[name].items()
        }
    result.outcomes = outcomes
    result.info = {
        "profiles": len(sb.profiles),
        "probes": sum(len(p.probes) for p in sb.profiles),
        "turns": sum(len(p.turns) for p in sb.profiles),
        "seed": sb.seed,
        "k": k,
        "texts_embedded": emb.computed,
        "embed_s": round(embed_s, 2),
        "wall_s": round(time.perf_counter() - started, 2),
    }
    return result


def _tick(progress: Progress | None, name: str, done: dict[str, int], n: int, *, total: int
          ) -> None:
    done[name] += n
    if progress is not None:
        progress(name, done[name], total)


def _run_profile(
    system: BenchSystem,
    prof: Any,
    units: dict[str, Any],
    k: int,
    timing: dict[str, float],
    tick: Callable[[int], None],
) -> tuple[list[UnitBank], list[ProbeOutcome]]:
    """One fresh bank: replay all turns, read the bank, answer every probe."""
    try:
        t0 = time.perf_counter()
        for i, turn in enumerate(prof.turns, start=1):
            system.add(turn, prof.speaker)
            if i % 50 == 0:
                tick(50)
        tick(len(prof.turns) % 50)
        timing["replay_s"] += time.perf_counter() - t0
        rows = system.bank(prof.speaker)
        banks = {uid: unit_bank(u, rows) for uid, u in units.items()}
        t0 = time.perf_counter()
        outs = []
        for probe in prof.probes:
            pred = system.answer(probe.question, prof.speaker, k)
            outs.append(probe_outcome(probe, units[probe.unit_id], pred, banks[probe.unit_id]))
        tick(len(prof.probes))
        timing["answer_s"] += time.perf_counter() - t0
    finally:
        system.close()
    return list(banks.values()), outs
