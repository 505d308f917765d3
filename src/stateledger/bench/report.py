"""Bench reports: a markdown file, the JSON payload and PNG bar charts in an output folder.

Charts use matplotlib's Agg backend (no display, no network). Everything written is listed
in the return value so the CLI can print where it went.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

STATE_METRICS = ("bank_coexist", "bank_role", "evidence_support", "qa_acc", "conflict_acc",
                 "fact_acc")
LOCOMO_ORDER = ("single_hop", "multi_hop", "temporal", "open_domain", "adversarial", "overall")


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_fmt(c) for c in row) + " |" for row in rows]
    return out


def _bars(path: Path, title: str, groups: Sequence[str], series: dict[str, Sequence[float]],
          ylabel: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = max(len(series), 1)
    width = 0.8 / n
    fig, ax = plt.subplots(figsize=(max(8.0, 1.3 * len(groups) * max(1, n / 3)), 4.5))
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, values, width=width, label=name)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=15)
    ax.set_ylim(0, 1.3)  # headroom for the legend above the bars
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8, ncol=min(6, n), loc="upper center")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_state_report(payload: dict[str, Any], out: Path, command: str) -> list[Path]:
    """``state_bench.md``, ``state_bench.json`` and ``state_bench.png`` under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    systems: dict[str, dict[str, Any]] = payload["systems"]
    info = payload.get("info", {})
    cols = [*STATE_METRICS, "wrong", "fail_bank", "fail_retrieval", "fail_answer", "replay_s",
            "answer_s"]
    lines = [
        "# State bench (LTP-like)", "",
        f"Command: `{command}`", "",
        f"{info.get('profiles')} profiles, {info.get('probes')} probes, {info.get('turns')} "
        f"turns, top-k {info.get('k')}, seed {info.get('seed')}; wall {info.get('wall_s')} s "
        f"(embedding {info.get('embed_s')} s for {info.get('texts_embedded')} texts); "
        f"network attempts: {info.get('network_attempts', 'not checked')}.", "",
    ]
    lines += _table(["system", *cols], [[n, *[m.get(c) for c in cols]] for n, m in
                                        systems.items()])
    for name, reason in payload.get("skipped", {}).items():
        lines += ["", f"Skipped `{name}`: {reason}"]
    md = out / "state_bench.md"
    md.write_text("\n".join(lines) + "\n")
    js = out / "state_bench.json"
    js.write_text(json.dumps(payload, indent=2) + "\n")
    png = out / "state_bench.png"
    _bars(png, "State bench (LTP-like)", STATE_METRICS,
          {n: [float(m[c]) for c in STATE_METRICS] for n, m in systems.items()}, "score")
    return [md, js, png]


def write_locomo_report(payload: dict[str, Any], out: Path, command: str) -> list[Path]:
    """``locomo.md``, ``locomo.json``, ``locomo_f1.png`` and ``locomo_recall.png``."""
    out.mkdir(parents=True, exist_ok=True)
    systems: dict[str, dict[str, dict[str, float]]] = payload["systems"]
    info = payload.get("info", {})
    k = info.get("k", 5)
    rkey = f"recall@{k}"
    lines = [
        "# LoCoMo QA", "",
        f"Command: `{command}`", "",
        f"{info.get('conversations')} conversations, {info.get('questions')} questions, "
        f"{info.get('turns')} turns, top-k {k}; wall {info.get('wall_s')} s (embedding "
        f"{info.get('embed_s')} s); network attempts: "
        f"{info.get('network_attempts', 'not checked')}.", "",
    ]
    for metric in ("f1", "bleu1", rkey):
        lines += [f"## {metric}", ""]
        lines += _table(["system", *LOCOMO_ORDER],
                        [[n, *[c.get(cat, {}).get(metric) for cat in LOCOMO_ORDER]]
                         for n, c in systems.items()])
        lines.append("")
    counts = next(iter(systems.values()), {})
    lines.append("Questions per category: " + ", ".join(
        f"{cat} {int(counts.get(cat, {}).get('n', 0))}" for cat in LOCOMO_ORDER))
    for name, reason in payload.get("skipped", {}).items():
        lines += ["", f"Skipped `{name}`: {reason}"]
    md = out / "locomo.md"
    md.write_text("\n".join(lines) + "\n")
    js = out / "locomo.json"
    js.write_text(json.dumps(payload, indent=2) + "\n")
    pngs = []
    for metric, fname, label in (("f1", "locomo_f1.png", "token F1"),
                                 (rkey, "locomo_recall.png", f"evidence recall@{k}")):
        png = out / fname
        _bars(png, f"LoCoMo {label} per category", LOCOMO_ORDER,
              {n: [float(c.get(cat, {}).get(metric, 0.0)) for cat in LOCOMO_ORDER]
               for n, c in systems.items()}, label)
        pngs.append(png)
    return [md, js, *pngs]


BEAM_RATES = ("from_updated", "stale", "other", "abstained")


def write_external_report(payload: dict[str, Any], out: Path, command: str) -> list[Path]:
    """``external_<suite>.md``, ``.json`` and ``.png`` for ``bench external``.

    BEAM: one table overall and one per split (train / val), so a trained policy is judged on
    the chats it never saw. GoodAI: the pass rate per test type; the filler note says whether
    unrelated turns were interleaved at all, since without them the test is much easier.
    """
    out.mkdir(parents=True, exist_ok=True)
    suite = str(payload["suite"])
    systems: dict[str, dict[str, Any]] = payload["systems"]
    info = payload.get("info", {})
    run = (f"top-k {info.get('k')}; {info.get('turns')} turns replayed, "
           f"{info.get('questions')} questions; wall {info.get('wall_s')} s (embedding "
           f"{info.get('embed_s')} s, {info.get('texts_embedded')} texts); network attempts: "
           f"{info.get('network_attempts', 'not checked')}.")
    if suite == "beam":
        lines = ["# External bench: BEAM knowledge updates", "", f"Command: `{command}`", "",
                 f"{info.get('chats')} chats (val: {info.get('chat_ids', {}).get('val')}); "
                 + run, "",
                 "Outcome of each question from the provenance of the evidence the answer "
                 "came from: the updated message, the original (stale) one, another, or no "
                 "answer.", ""]
        cols = [*BEAM_RATES, "n", "updated_in_evidence", "add_errors", "replay_s", "answer_s"]
        lines += _table(["system", *cols], [[n, *[m.get(c) for c in cols]]
                                            for n, m in systems.items()])
        for split in ("train", "val"):
            lines += ["", f"## {split} chats", ""]
            lines += _table(["system", *BEAM_RATES, "n"],
                            [[n, *[m[split].get(c) for c in (*BEAM_RATES, "n")]]
                             for n, m in systems.items()])
        groups: Sequence[str] = BEAM_RATES
        series: dict[str, Sequence[float]] = {n: [float(m[c]) for c in BEAM_RATES]
                                              for n, m in systems.items()}
        title, ylabel = "BEAM knowledge update: where the answer came from", "rate"
    elif suite == "dialogues":
        kinds = sorted({k for m in systems.values() for k in m["kinds"]})
        lines = ["# Dialogue bench: hand-written update conversations", "",
                 f"Command: `{command}`", "", f"Conversations: {info.get('dialogues')}; " + run,
                 "", "Pass: the answer came from a right turn (or said 'not in memory' where "
                 "that is right). `heldout` and `heldout2` were written before any tuning "
                 "to them and are only measured.", ""]
        from stateledger.bench.dialogues import SPLITS  # metrics hold every part, empty or not

        lines += _table(["system", "pass_rate", *SPLITS, "n", "add_errors"],
                        [[n, m["pass_rate"], *[m[s]["pass_rate"] for s in SPLITS],
                          m["n"], m.get("add_errors")] for n, m in systems.items()])
        lines += ["", "## Pass rate per kind of change", ""]
        lines += _table(["system", *kinds], [[n, *[m["kinds"].get(k) for k in kinds]]
                                             for n, m in systems.items()])
        groups = SPLITS
        series = {n: [float(m[s]["pass_rate"]) for s in groups] for n, m in systems.items()}
        title, ylabel = "Hand-written update conversations: pass rate", "pass rate"
    else:
        kinds = list(info.get("tests", {}))
        lines = ["# External bench: GoodAI LTM state tests", "", f"Command: `{command}`", "",
                 f"Tests (deduplicated): {info.get('tests')}, from {info.get('definitions')} "
                 f"definition files; {info.get('filler')} filler turns between script lines "
                 f"(seed {info.get('seed')}): {info.get('filler_note')}. " + run, "",
                 f"Pass rate per type; `pass_rate` is over the target types "
                 f"{info.get('target_types')}.", ""]
        cols = ["pass_rate", *kinds, "add_errors", "replay_s", "answer_s"]
        rows = [[n, m["pass_rate"], *[m["types"].get(t, {}).get("pass_rate") for t in kinds],
                 m.get("add_errors"), m.get("replay_s"), m.get("answer_s")]
                for n, m in systems.items()]
        lines += _table(["system", *cols], rows)
        lines.append("")
        lines.append("Tests per type: " + ", ".join(
            f"{t} {next(iter(systems.values()), {}).get('types', {}).get(t, {}).get('n', 0)}"
            for t in kinds))
        groups = kinds
        series = {n: [float(m["types"].get(t, {}).get("pass_rate", 0.0)) for t in kinds]
                  for n, m in systems.items()}
        title, ylabel = "GoodAI LTM state tests: pass rate per type", "pass rate"
    for name, reason in payload.get("skipped", {}).items():
        lines += ["", f"Skipped `{name}`: {reason}"]
    md = out / f"external_{suite}.md"
    md.write_text("\n".join(lines) + "\n")
    js = out / f"external_{suite}.json"
    js.write_text(json.dumps(payload, indent=2) + "\n")
    png = out / f"external_{suite}.png"
    _bars(png, title, groups, series, ylabel)
    return [md, js, png]
