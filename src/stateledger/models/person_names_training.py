"""Training the person-name model (``models.person_names``): ``stateledger train person-names``.

Persons: first names of every Faker locale (86; the Faker package, MIT, is needed only to
train) and the generators' pet names. Things: Faker's common English words, countries and
cities, and the words of the project's own generators (``synth``), lower-case and
capitalised (brands, places, products); a word in both lists is left out. Validation holds
out one word in five; the report gives, at ``THING_MAX`` and a few other thresholds, the
share of held-out names the model would take for a thing and the share of held-out things
it catches.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from stateledger.core.statement import THING_MAX
from stateledger.errors import MissingDependencyError
from stateledger.models.person_names import FORMAT_VERSION, NameNet, PieceEmbeddings

HIDDEN = 256
REPORTED_CUTS = (0.02, 0.1)  # thresholds the report reads besides ``thing_max``


def _faker_words() -> tuple[set[str], set[str]]:
    """First names of every Faker locale, and Faker's common English words, countries and
    cities (single capitalised words)."""
    try:
        import faker.providers.address as addresses
        import faker.providers.lorem.en_US as lorem
        import faker.providers.person as people
    except ImportError as exc:
        raise MissingDependencyError(
            "training the person-name model needs Faker: pip install 'stateledger[train]'"
        ) from exc
    names: set[str] = set()
    things = {w for w in lorem.Provider.word_list if re.fullmatch(r"[a-z]{3,15}", w)}
    for package, fields, into in (
            (people, ("first_names", "first_names_male", "first_names_female",
                      "first_names_nonbinary"), names),
            (addresses, ("countries", "cities", "city_names", "states", "provinces",
                         "regions"), things)):
        for module in pkgutil.iter_modules(package.__path__):
            provider = getattr(importlib.import_module(f"{package.__name__}.{module.name}"),
                               "Provider", None)
            for field in fields:
                value = getattr(provider, field, None)
                if isinstance(value, dict | list | tuple | set):
                    into.update(w for w in value
                                if isinstance(w, str) and re.fullmatch(r"[A-Z][a-z]{1,14}", w))
    return {n.lower() for n in names}, {t.lower() for t in things}


def _strings(value: Any, depth: int = 0) -> Iterable[str]:
    if depth > 6 or isinstance(value, type):
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from _strings(v, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k, depth + 1)
            yield from _strings(v, depth + 1)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from _strings(getattr(value, name, None), depth + 1)


def _generator_words() -> tuple[set[str], set[str]]:
    """Pet names, and the words of the project's generators: lower-case ones are things,
    and so are capitalised ones (brands, places, products) unless they are also names."""
    import stateledger.synth as synth
    from stateledger.synth.episode_pools import PET_NAMES

    low: set[str] = set()
    capital: set[str] = set()
    for module in pkgutil.iter_modules(synth.__path__):
        mod = importlib.import_module(f"stateledger.synth.{module.name}")
        for key, value in vars(mod).items():
            if key.startswith("__") or key == "PET_NAMES":
                continue
            for text in _strings(value):
                for w in re.findall(r"[A-Za-z]+", text):
                    if re.fullmatch(r"[a-z]{3,15}", w):
                        low.add(w)
                    elif re.fullmatch(r"[A-Z][a-z]{2,15}", w):
                        capital.add(w.lower())
    return {p.lower() for p in PET_NAMES if re.fullmatch(r"[A-Za-z]+", p)}, low | capital


def training_words() -> tuple[list[str], list[str]]:
    """(persons, things), sorted; a word in both is left out."""
    names, faker_things = _faker_words()
    pets, generated = _generator_words()
    persons = names | pets
    things = (faker_things | generated) - persons
    return sorted(persons), sorted(things)


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 0
    epochs: int = 40
    lr: float = 1e-3
    weight_decay: float = 1e-4
    batch: int = 256
    val_share: float = 0.2
    thing_max: float = THING_MAX  # the threshold the write path reads


def train(out: Path, cfg: TrainConfig = TrainConfig(),
          log: Any = print) -> dict[str, float]:
    """Train on ``training_words`` (held-out words for validation), write ``out`` and
    return the report."""
    import torch

    persons, things = training_words()
    words = [(w, 1.0) for w in persons] + [(w, 0.0) for w in things]
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(words))
    cut = int(len(words) * (1 - cfg.val_share))
    pieces = PieceEmbeddings()
    x = pieces.features([w for w, _ in words])
    y = np.array([label for _, label in words], dtype=np.float32)
    tr, va = order[:cut], order[cut:]
    mean, std = x[tr].mean(axis=0), x[tr].std(axis=0) + 1e-6
    z = (x - mean) / std
    torch.manual_seed(cfg.seed)
    first, last = torch.nn.Linear(z.shape[1], HIDDEN), torch.nn.Linear(HIDDEN, 1)
    net = torch.nn.Sequential(first, torch.nn.ReLU(), last)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    pos = float(y[tr].mean())
    weight = torch.tensor([(1 - pos) / pos])  # classes weighed equally
    xt, yt = torch.from_numpy(z[tr]), torch.from_numpy(y[tr])
    xv, yv = torch.from_numpy(z[va]), torch.from_numpy(y[va])
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=weight)
    best, best_state = float("inf"), None
    for epoch in range(cfg.epochs):
        net.train()
        perm = torch.randperm(len(tr))
        for s in range(0, len(tr), cfg.batch):
            idx = perm[s:s + cfg.batch]
            opt.zero_grad()
            loss = loss_fn(net(xt[idx]).squeeze(-1), yt[idx])
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            val = float(loss_fn(net(xv).squeeze(-1), yv))
        if val < best:
            best, best_state = val, {k: v.clone() for k, v in net.state_dict().items()}
        log(f"epoch {epoch + 1}/{cfg.epochs}: validation loss {val:.4f}")
    assert best_state is not None
    net.load_state_dict(best_state)
    w1 = first.weight.detach().numpy().T / std[:, None]
    b1 = first.bias.detach().numpy() - (mean / std) @ first.weight.detach().numpy().T
    w2 = last.weight.detach().numpy()[0]
    b2 = float(last.bias.detach().numpy()[0])
    folded = NameNet(w1.astype(np.float16).astype(np.float32), b1.astype(np.float16).astype(
        np.float32), w2.astype(np.float16).astype(np.float32), b2)
    report: dict[str, float] = {"persons": float(len(persons)), "things": float(len(things))}
    for split, rows in (("train", tr), ("val", va)):
        p = folded.probability(x[rows])
        labels = y[rows]
        report[f"{split}_accuracy"] = float(((p >= 0.5) == (labels == 1)).mean())
        for most in sorted({cfg.thing_max, *REPORTED_CUTS}):
            report[f"{split}_names_as_things@{most:g}"] = float((p[labels == 1] <= most).mean())
            report[f"{split}_things_caught@{most:g}"] = float((p[labels == 0] <= most).mean())
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, format_version=np.array(FORMAT_VERSION),
                        w1=w1.astype(np.float16), b1=b1.astype(np.float16),
                        w2=w2.astype(np.float16), b2=np.array(b2, dtype=np.float32))
    return report
