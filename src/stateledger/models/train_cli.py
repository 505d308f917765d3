"""``stateledger train sentry|policy``: reproduce the shipped weights from the generator.

Both commands generate the ledger-bench episodes (train and val splits, seed 0 by default),
embed each unique text once with MiniLM into the embedding cache, train, and write the
weights into the package data folder (``--out`` to write elsewhere).

* ``train sentry``  -> ``sentry.npz`` (topic + logic heads, gate thresholds)
* ``train policy``  -> ``ledger_policy.pt`` and the ablations ``ledger_policy_no_cf.pt``,
  ``ledger_policy_no_reliability.pt``, ``ledger_policy_no_grounding.pt``, plus the binary
  write/hold baseline ``binary_policy.pt``.
* ``train relation`` -> ``relation_model.pt`` (the open-world cross-encoder: relation,
  relevance and stance heads), from the generated statement pairs, question pairs and
  stance examples of ``synth.statements`` (split by attribute and value; validation
  reported).
* ``train stance`` / ``train relevance-head`` -> ``relation_model.pt`` / ``relevance_model.pt``
  with one head refit on the frozen encoder (``models.head_refit``): the encoder and the
  other heads stay as they are.
* ``train person-names`` -> ``person_names.npz`` (whether a capitalised word opening a
  sentence names a person or a thing: ``models.person_names``), from Faker's names and
  words and the generators' vocabulary; needs the ``train`` extra.
* ``train relevance`` -> ``relevance_model.pt`` (the answer step's reranker), from the
  generated question pairs and, when the shared data is there, pairs mined from the LoCoMo
  and BEAM training conversations (validation reported apart for each).

Small models train fastest on one CPU thread (``--threads``): two threads on two shared
cores spend most of their time waiting for each other.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stateledger import threads

if TYPE_CHECKING:  # torch is imported only by the commands that train
    from stateledger.models.relation_training import PairTrainConfig
    from stateledger.models.relevance_training import RelevanceTrainConfig

VARIANTS: tuple[str, ...] = ("learned", "learned_no_cf", "learned_no_reliability",
                             "learned_no_grounding")


def data_dir() -> Path:
    return Path(str(resources.files("stateledger").joinpath("data")))


def add_commands(sub: Any) -> None:
    train = sub.add_parser("train", help="train the Sentry gate, the ledger policies or the "
                           "open-world relation models")
    tsub = train.add_subparsers(dest="train", required=True, metavar="MODEL")

    p = tsub.add_parser("sentry", help="Sentry topic/logic heads over frozen MiniLM")
    _common(p)
    p.add_argument("--epochs", type=int, default=25)
    p.add_argument("--topic", type=float, default=0.60, help="gate threshold on topic")
    p.add_argument("--logic", type=float, default=0.45, help="gate threshold on logic")
    p.add_argument("--gap", type=float, default=0.15, help="gate threshold on topic - logic")
    p.set_defaults(func=cmd_sentry)

    p = tsub.add_parser("policy", help="the TARL ledger policy, its ablations and binary")
    _common(p)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--members", type=int, default=5, help="ensemble members per variant")
    p.add_argument("--variants", default=",".join((*VARIANTS, "binary")),
                   help="comma-separated subset of: " + ", ".join((*VARIANTS, "binary")))
    p.set_defaults(func=cmd_policy)

    p = tsub.add_parser("person-names", help="whether a capitalised word names a person or "
                        "a thing (needs Faker: the train extra)")
    p.add_argument("--seed", type=int, default=0, help="split and training seed")
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--out", type=Path, default=None, help="output folder (default: package)")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_person_names)

    _relation_parser(tsub)
    _relevance_parser(tsub)
    _head_parser(tsub, "stance", "the relation model's stance head", "statements", 40_000,
                 cmd_stance)
    _head_parser(tsub, "relevance-head", "the reranker's head", "question pairs", 24_000,
                 cmd_relevance_head)


def cmd_person_names(args: argparse.Namespace) -> None:
    import torch

    from stateledger.bench.cli import emit, metrics_table
    from stateledger.interfaces.render import console
    from stateledger.models.person_names import WEIGHTS
    from stateledger.models.person_names_training import TrainConfig, train

    threads.use(torch, args.threads)
    out = (args.out or data_dir()) / WEIGHTS
    started = time.perf_counter()
    say = (lambda _: None) if args.json else (lambda line: console().print(line))
    report = train(out, TrainConfig(seed=args.seed, epochs=args.epochs), log=say)
    payload = {"model": "person-names", "out": str(out), "report": report,
               "seconds": round(time.perf_counter() - started, 1)}
    emit(args, payload, metrics_table(f"train person-names -> {out} (validation: held-out "
                                      "words)", {"person-names": report}))


def _relation_parser(tsub: Any) -> None:
    p = tsub.add_parser("relation", help="the open-world relation model (cross-encoder)")
    p.add_argument("--seed", type=int, default=0, help="generator and training seed")
    p.add_argument("--pairs", type=int, default=60_000, help="train (record, statement) pairs")
    p.add_argument("--questions", type=int, default=40_000, help="train (question, record) pairs")
    p.add_argument("--statements", type=int, default=30_000, help="train stance examples")
    p.add_argument("--val", type=int, default=3_000, help="validation pairs (and 1/3 as many "
                   "questions, as many statements)")
    p.add_argument("--layers", type=int, default=3, help="MiniLM layers in the cross-encoder")
    p.add_argument("--epochs", type=int, default=2, help="cross-encoder epochs")
    p.add_argument("--mine", action="store_true",
                   help="add weakly labelled pairs mined from the LoCoMo and BEAM dev data "
                   "(training conversations only; needs the shared data)")
    p.add_argument("--held-out", action="store_true",
                   help="train on the training attributes only, so validation measures "
                   "transfer to attributes never seen (the shipped weights train on every "
                   "attribute)")
    p.add_argument("--chat-noise", action="store_true",
                   help="word generated texts as chats do (asides after a fact, emphasis, "
                   "a subject left out); the shipped weights were trained without it")
    p.add_argument("--from", dest="start", type=Path, default=None, metavar="WEIGHTS",
                   help="go on from these weights (a relation_model.pt) instead of MiniLM's "
                   "own layers: a fine-tune of trained weights on new data")
    p.add_argument("--lr", type=float, default=None,
                   help="encoder learning rate (default 6e-5; the heads' rate scales with it)")
    p.add_argument("--number-forms", type=int, default=0,
                   help="more pairs whose statement writes the number in another form than "
                   "its record (three / 3, $1,450 / $1450): restated or changed")
    p.add_argument("--keep", type=float, default=0.0,
                   help="with --from: the starting weights' own outputs' share (0-1) in the "
                   "target of every example but the --number-forms pairs, so a fine-tune "
                   "moves what those pairs teach and holds the rest (default 0: labels)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: package)")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_relation)


def cmd_relation(args: argparse.Namespace) -> None:
    import torch

    from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
    from stateledger.models.keep import check_keep
    from stateledger.models.relation import MODEL_FILE
    from stateledger.models.relation_training import (
        generate_data,
        train_relation_model,
    )
    from stateledger.synth.number_forms import number_form_pairs
    from stateledger.synth.statements import split_vocabulary
    from stateledger.synth.vocab import vocabulary

    check_keep(args.keep, args.start)  # before minutes of data generation, not after
    threads.use(torch, args.threads)
    out = (args.out or data_dir()) / MODEL_FILE
    started = time.perf_counter()
    sizes = {"train": (args.pairs, args.questions, args.statements),
             "val": (args.val, args.val // 3, args.val)}
    extra = mined_pairs(args.seed) if args.mine else None
    data = generate_data(vocabulary(), sizes, seed=args.seed, extra=extra,
                         held_out=args.held_out, loose=args.chat_noise)
    new, new_val = [], []
    if args.number_forms:
        splits = split_vocabulary(vocabulary(), args.seed)
        new = number_form_pairs(splits["train"] if args.held_out else vocabulary(),
                                args.number_forms, args.seed)
        new_val = number_form_pairs(splits["val"], max(200, args.val // 4), args.seed + 1)
    with progress_bar() as bar:
        report = train_relation_model(
            data, _relation_config(args),
            out, progress=staged_progress(bar), new=new, new_val=new_val)
    best = min(report["history"], key=lambda h: h["loss"])
    rows = {"validation": {**{k: round(v, 4) for k, v in best.items()}, "weights": str(out)}}
    payload = {"seconds": round(time.perf_counter() - started, 1), "sizes": sizes,
               "number_forms": {"train": len(new), "val": len(new_val)},
               "mined": {split: {"pairs": len(p), "questions": len(q)}
                         for split, (p, q) in (extra or {}).items()},
               "history": report["history"], "models": rows}
    emit(args, payload, metrics_table("train relation (validation: held-out attributes and "
                                      "values)", rows))


def _relation_config(args: argparse.Namespace) -> PairTrainConfig:
    from stateledger.models.relation_training import PairTrainConfig

    cfg = PairTrainConfig(layers=args.layers, epochs=args.epochs, seed=args.seed,
                          threads=args.threads, start=args.start, keep=args.keep)
    if args.lr is None:
        return cfg
    scale = args.lr / cfg.lr
    return replace(cfg, lr=args.lr, head_lr=cfg.head_lr * scale)


def _head_parser(tsub: Any, name: str, what: str, examples: str, default_n: int,
                 func: Callable[[argparse.Namespace], None]) -> None:
    p = tsub.add_parser(name, help=f"refit {what} on its frozen encoder (the rest of the model "
                        "is kept bit for bit)")
    p.add_argument("--from", dest="start", type=Path, default=None, metavar="WEIGHTS",
                   help="the weights whose head is refit (default: the shipped ones)")
    p.add_argument("--seed", type=int, default=0, help="generator and training seed")
    p.add_argument("--examples", type=int, default=default_n,
                   help=f"generated training {examples} (training attributes only)")
    p.add_argument("--val", type=int, default=default_n // 8,
                   help=f"validation {examples} (held-out attributes and values)")
    p.add_argument("--epochs", type=int, default=10, help="head epochs (the best is kept)")
    p.add_argument("--lr", type=float, default=1e-4, help="head learning rate")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: package)")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=func)


def cmd_stance(args: argparse.Namespace) -> None:
    from stateledger.models.head_refit import refit_stance
    from stateledger.models.relation import MODEL_FILE
    from stateledger.synth.stance_examples import statement_examples

    _refit(args, "train stance", MODEL_FILE, statement_examples, refit_stance)


def cmd_relevance_head(args: argparse.Namespace) -> None:
    from stateledger.models.head_refit import refit_relevance
    from stateledger.models.relevance import MODEL_FILE
    from stateledger.synth.statements import question_pairs

    _refit(args, "train relevance-head", MODEL_FILE, question_pairs, refit_relevance)


def _refit(args: argparse.Namespace, title: str, file: str, generate: Callable[..., Any],
           refit: Callable[..., dict[str, Any]]) -> None:
    from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
    from stateledger.models.head_refit import HeadRefitConfig
    from stateledger.synth.statements import split_vocabulary
    from stateledger.synth.vocab import vocabulary

    out = (args.out or data_dir()) / file
    started = time.perf_counter()
    splits = split_vocabulary(vocabulary(), args.seed)
    train = generate(splits["train"], args.examples, args.seed)
    val = generate(splits["val"], args.val, args.seed)
    cfg = HeadRefitConfig(epochs=args.epochs, lr=args.lr, seed=args.seed, threads=args.threads)
    with progress_bar() as bar:
        report = refit(train, val, cfg, out, args.start, progress=staged_progress(bar))
    rows = {name: {k.removeprefix("f1_"): round(v, 4) for k, v in metrics.items()}
            for name, metrics in (("start head", report["before"]), ("refit head",
                                                                      report["best"]))}
    payload = {"seconds": round(time.perf_counter() - started, 1),
               "sizes": {"train": len(train), "val": len(val)}, "weights": str(out),
               "history": report["history"], "models": rows}
    emit(args, payload, metrics_table(f"{title} -> {out} (validation: held-out attributes "
                                      "and values)", rows))


def mined_sources(*, for_relevance: bool = False) -> dict[str, list[Any]]:
    """The real conversations mined for weak labels, per split: LoCoMo conversations (every
    fifth is validation) and BEAM chats (``beam_split``), split by conversation so
    validation never shares one. ``for_relevance`` adds what only the reranker is trained
    on: LoCoMo's unanswerable questions, and BEAM's update and fact questions with the
    messages that state their answers."""
    from stateledger.bench.external_data import beam_split, load_beam
    from stateledger.bench.locomo_data import load_locomo
    from stateledger.synth.mined import Source

    sources: dict[str, list[Source]] = {"train": [], "val": []}
    for i, conv in enumerate(load_locomo()):
        qa = [(q.question, q.answer, tuple(q.evidence)) for q in conv.qa
              if q.category != 5 and q.answer]
        unanswerable = [q.question for q in conv.qa if q.category == 5] if for_relevance else []
        sources["val" if i % 5 == 4 else "train"].append(
            Source(f"locomo-{conv.sample_id}", {t.dia_id: t.text for t in conv.turns}, qa,
                   complete=True, unanswerable=unanswerable))
    for chat in load_beam():
        updates = [(q.question, tuple(map(str, q.original_ids)), tuple(map(str, q.updated_ids)))
                   for q in chat.questions]
        asked: list[tuple[str, str, tuple[str, ...]]] = []
        if for_relevance:
            asked = [(q.question, "", tuple(map(str, (*q.original_ids, *q.updated_ids))))
                     for q in chat.questions]
            asked += [(f.question, f.answer, tuple(map(str, f.source_ids))) for f in chat.facts]
        sources[beam_split(chat.chat_id)].append(
            Source(f"beam-{chat.chat_id}", {str(m.id): m.text for m in chat.messages}, asked,
                   updates=[] if for_relevance else updates))
    return sources


def mined_pairs(seed: int) -> dict[str, tuple[list[Any], list[Any]]]:
    """Mined relation and relevance pairs per split (``synth.mined.mine``)."""
    from stateledger.synth.mined import mine

    return {split: mine(srcs, seed) for split, srcs in mined_sources().items()}


def _relevance_parser(tsub: Any) -> None:
    p = tsub.add_parser("relevance", help="the answer step's reranker (cross-encoder)")
    p.add_argument("--seed", type=int, default=0, help="generator and training seed")
    p.add_argument("--questions", type=int, default=60_000,
                   help="generated training (question, record) pairs")
    p.add_argument("--entity-questions", type=int, default=0,
                   help="more question pairs about one facet of a named thing, beside the "
                   "generated ones (which hold 6%% of them)")
    p.add_argument("--val", type=int, default=2_000, help="generated validation pairs")
    p.add_argument("--epochs", type=int, default=1, help="epochs")
    p.add_argument("--from", dest="start", type=Path, default=None, metavar="WEIGHTS",
                   help="go on from these weights (a relevance_model.pt) instead of MiniLM's "
                   "own layers: a fine-tune of trained weights on new data")
    p.add_argument("--lr", type=float, default=None,
                   help="encoder learning rate (default 5e-5; the head's rate scales with it)")
    p.add_argument("--keep", type=float, default=0.0,
                   help="with --from: the starting weights' own score's share (0-1) in the "
                   "target of every pair but the --entity-questions ones, so a fine-tune "
                   "moves what those pairs teach and holds the rest (default 0: labels)")
    p.add_argument("--no-mine", action="store_true",
                   help="train on generated pairs only (no shared data needed)")
    p.add_argument("--held-out", action="store_true",
                   help="train on the training attributes only, so the generated validation "
                   "measures transfer to attributes never seen (the shipped weights train on "
                   "every attribute)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: package)")
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_relevance)


def cmd_relevance(args: argparse.Namespace) -> None:
    import torch

    from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
    from stateledger.models.keep import check_keep
    from stateledger.models.relevance import MODEL_FILE
    from stateledger.models.relevance_training import train_relevance_model
    from stateledger.synth.statements import (
        entity_question_pairs,
        question_pairs,
        split_vocabulary,
    )
    from stateledger.synth.vocab import vocabulary

    check_keep(args.keep, args.start)  # before minutes of mining, not after
    threads.use(torch, args.threads)
    out = (args.out or data_dir()) / MODEL_FILE
    started = time.perf_counter()
    splits = split_vocabulary(vocabulary(), args.seed)
    vocab = splits["train"] if args.held_out else vocabulary()
    train = question_pairs(vocab, args.questions, args.seed)
    new = entity_question_pairs(vocab, args.entity_questions, args.seed)
    seen = "held-out" if args.held_out else "seen"
    val = {f"generated ({seen} attributes)": question_pairs(splits["val"], args.val, args.seed)}
    if new:
        val[f"entity questions ({seen} kinds)"] = entity_question_pairs(
            splits["val"], max(200, args.val // 4), args.seed)
    with progress_bar() as bar:
        step = staged_progress(bar)
        if not args.no_mine:
            mined = mine_relevance_pairs(args.seed, step)
            train = train + mined["train"]
            val["mined"] = mined["val"]
        report = train_relevance_model(train, val, _relevance_config(args), out,
                                       progress=step, new=new)
    best = min(report["history"], key=lambda h: h["loss"])
    rows = {name: {**{k: round(v, 4) for k, v in best[name].items()}, "epoch": best["epoch"]}
            for name in val}
    payload = {"seconds": round(time.perf_counter() - started, 1),
               "train_pairs": len(train) + len(new),
               "val_pairs": {k: len(v) for k, v in val.items()}, "history": report["history"],
               "weights": str(out), "models": rows}
    emit(args, payload, metrics_table(f"train relevance -> {out} (mined validation: "
                                      "held-out conversations)", rows))


def _relevance_config(args: argparse.Namespace) -> RelevanceTrainConfig:
    from stateledger.models.relevance_training import RelevanceTrainConfig

    cfg = RelevanceTrainConfig(epochs=args.epochs, seed=args.seed, threads=args.threads,
                               start=args.start, keep=args.keep)
    if args.lr is None:
        return cfg
    return replace(cfg, lr=args.lr, head_lr=cfg.head_lr * args.lr / cfg.lr)


def mine_relevance_pairs(seed: int, step: Callable[[str, int, int], None]
                         ) -> dict[str, list[Any]]:
    """Reranker pairs mined per split (``synth.mined.mine_relevance``), hard negatives
    ranked by MiniLM cosine over each conversation's statements (each embedded once)."""
    import numpy as np

    from stateledger.models.embedder import default_embedder
    from stateledger.synth.mined import mine_relevance

    embedder = default_embedder()
    cache: dict[str, Any] = {}

    def similar(question: str, texts: Any) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        for start in range(0, len(missing), 256):
            chunk = missing[start:start + 256]
            cache.update(zip(chunk, embedder.embed(chunk), strict=True))
        q = embedder.embed([question])[0]
        return np.stack([cache[t] for t in texts]) @ q if texts else []

    out: dict[str, list[Any]] = {}
    for split, srcs in mined_sources(for_relevance=True).items():
        pairs: list[Any] = []
        for i, src in enumerate(srcs, 1):
            pairs += mine_relevance([src], similar, seed)
            step(f"mining {split} conversations", i, len(srcs))
        out[split] = pairs
    return out


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="episode generator and training seed")
    p.add_argument("--train-size", type=int, default=None, help="train episodes (default 9000)")
    p.add_argument("--val-size", type=int, default=None, help="val episodes (default 700)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: package)")
    p.add_argument("--cache", type=Path, default=None, help="embedding cache folder")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _prepare(args: argparse.Namespace, bar: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Episodes (train, val) and their MiniLM vectors, with progress on ``bar``."""
    import torch

    from stateledger.bench.cli import staged_progress
    from stateledger.models.features import EmbeddingCache, LazyEmbedder
    from stateledger.synth.episodes import episode_texts, generate

    threads.use(torch, args.threads)
    step = staged_progress(bar)
    sizes = {k: v for k, v in (("train", args.train_size), ("val", args.val_size)) if v}
    step("generating episodes", 0, 1)
    episodes = generate(args.seed, sizes=sizes, splits=("train", "val"))
    step("generating episodes", 1, 1)
    cache = EmbeddingCache(LazyEmbedder(), args.cache)
    texts = episode_texts([*episodes["train"], *episodes["val"]])
    vectors = cache.vectors(texts, progress=lambda d, n: step("embedding texts", d, n))
    return episodes, vectors


def _stage(step: Callable[[str, int, int], None], name: str) -> Callable[[int, int], None]:
    return lambda done, total: step(name, done, total)


def cmd_sentry(args: argparse.Namespace) -> None:
    from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
    from stateledger.models.sentry import GateThresholds, gate_report, train_sentry

    started = time.perf_counter()
    with progress_bar() as bar:
        episodes, vectors = _prepare(args, bar)
        prepared = time.perf_counter() - started
        sentry, report = train_sentry(episodes["train"], episodes["val"], vectors,
                                      epochs=args.epochs, seed=args.seed,
                                      progress=_stage(staged_progress(bar), "training Sentry"))
    sentry = sentry.with_thresholds(GateThresholds(args.topic, args.logic, args.gap))
    out = (args.out or data_dir()) / "sentry.npz"
    sentry.save(out)
    gate = gate_report(episodes["val"], vectors, sentry)
    elapsed = time.perf_counter() - started
    payload = {
        "weights": str(out), "seconds": round(elapsed, 1), "prepare_seconds": round(prepared, 1),
        "train_pairs": report.train_pairs, "val_pairs": report.val_pairs,
        "best_epoch": report.best_epoch, "val_loss": report.val_loss,
        **{f"val_{k}": v for k, v in gate.items()},
    }
    emit(args, payload, metrics_table("train sentry", {"sentry": payload}))


def cmd_policy(args: argparse.Namespace) -> None:
    from stateledger.bench.cli import emit, metrics_table, progress_bar, staged_progress
    from stateledger.models.binary import train_binary
    from stateledger.models.ledger_policy import NetConfig
    from stateledger.models.training import LossWeights, build_data, train_policy

    wanted = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = set(wanted) - {*VARIANTS, "binary"}
    if unknown:
        from stateledger.errors import InvalidInputError

        raise InvalidInputError(f"unknown variant(s): {', '.join(sorted(unknown))}")
    setups = {
        "learned": (NetConfig(), LossWeights()),
        "learned_no_cf": (NetConfig(), LossWeights(cf=0.0)),
        "learned_no_reliability": (NetConfig(reliability=False), LossWeights()),
        "learned_no_grounding": (NetConfig(grounding=False), LossWeights()),
    }
    files = {"learned": "ledger_policy", "learned_no_cf": "ledger_policy_no_cf",
             "learned_no_reliability": "ledger_policy_no_reliability",
             "learned_no_grounding": "ledger_policy_no_grounding", "binary": "binary_policy"}
    out_dir = args.out or data_dir()
    rows: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    with progress_bar() as bar:
        step = staged_progress(bar)
        episodes, vectors = _prepare(args, bar)
        train = build_data(episodes["train"], vectors, progress=_stage(step, "counterfactuals"))
        val = build_data(episodes["val"], vectors)
        prepared = time.perf_counter() - started
        for name in wanted:
            t0 = time.perf_counter()
            path = out_dir / f"{files[name]}.pt"
            if name == "binary":
                policy, brep = train_binary(train, val, seed=args.seed,
                                            progress=_stage(step, "training binary"))
                policy.save(path)
                rows[name] = {"val_loss": brep.val_loss, "temperature": brep.temperature}
            else:
                cfg, weights = setups[name]
                learned, rep = train_policy(train, val, name=name, config=cfg, weights=weights,
                                            members=args.members, epochs=args.epochs,
                                            seed=args.seed,
                                            progress=_stage(step, f"training {name}"))
                learned.save(path)
                rows[name] = {"val_loss": sum(rep.val_losses) / len(rep.val_losses),
                              "temperature": rep.temperature}
            rows[name].update(seconds=round(time.perf_counter() - t0, 1), weights=str(path))
    elapsed = time.perf_counter() - started
    payload = {"seconds": round(elapsed, 1), "prepare_seconds": round(prepared, 1),
               "train_episodes": len(episodes["train"]), "val_episodes": len(episodes["val"]),
               "variants": rows}
    emit(args, payload, metrics_table(
        f"train policy: {elapsed:.0f} s ({prepared:.0f} s data and counterfactuals)", rows))
