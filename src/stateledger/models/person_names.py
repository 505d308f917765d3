"""Whether a capitalised word names a person (or a pet) or a thing: a small learned model.

A chat sentence that opens with a capitalised word and a verb is read as about the person
it names ("Nina moved to Oslo"), but many such words name a thing: "Coffee has become a
problem, I drink six a day now", "Tennis has replaced squash for me", "Spanish is going
well". Read as people, those statements are nobody's the user asks about. A word list
cannot hold every name and every noun, so this model reads the word's meaning: the mean of
its word pieces' input embeddings in the bundled MiniLM (no forward pass: a lookup), and
how many pieces it has, through one hidden layer.

Trained (``stateledger train person-names``) on first names of 86 locales and, as things,
common English words, place names (the Faker package, MIT, needed only to train) and the
capitalised brands, places and products of the project's own generators (``synth``); a word
in both lists is left out. Validation holds out one word in five; the report gives the share
of held-out names the model would take for a thing at ``THING_MAX`` and the share of
held-out things it catches.

The shipped weights (``data/person_names.npz``, float16) fold the feature standardisation
into the first layer; inference is numpy only.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from stateledger.core.statement import THING_MAX
from stateledger.errors import MissingDependencyError, ModelError
from stateledger.models.embedder import model_dir

FORMAT_VERSION = 1
WEIGHTS = "person_names.npz"
MAX_PIECES = 4  # one-hot of the word-piece count: 1, 2, 3, 4 or more
HIDDEN = 256
REPORTED_CUTS = (0.02, 0.1)  # thresholds the training report reads besides ``thing_max``
_WORD = re.compile(r"[^\W\d_]+")  # letters of any script, nothing else


def _weights_path() -> Path:
    return Path(str(resources.files("stateledger").joinpath("data", WEIGHTS)))


class PieceEmbeddings:
    """The bundled MiniLM's word-piece input embeddings and its tokenizer: a word's features
    are the mean of its pieces' vectors and a one-hot of how many pieces it has."""

    def __init__(self, path: Path | None = None) -> None:
        folder = path or model_dir()
        try:
            from safetensors import safe_open
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - core dependencies
            raise MissingDependencyError(
                f"the person-name model needs safetensors and tokenizers ({exc.name} is "
                "missing)") from exc
        with safe_open(str(folder / "model.safetensors"), framework="numpy") as f:
            self.table: np.ndarray = f.get_tensor("embeddings.word_embeddings.weight").astype(
                np.float32)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))

    def features(self, words: Sequence[str]) -> np.ndarray:
        """(len(words), dim + MAX_PIECES) float32."""
        out = np.zeros((len(words), self.table.shape[1] + MAX_PIECES), dtype=np.float32)
        for i, enc in enumerate(self.tokenizer.encode_batch(
                [w.lower() for w in words], add_special_tokens=False)):
            ids = enc.ids or [0]
            out[i, : self.table.shape[1]] = self.table[ids].mean(axis=0)
            out[i, self.table.shape[1] + min(len(ids), MAX_PIECES) - 1] = 1.0
        return out


@dataclass(frozen=True)
class _Net:
    w1: np.ndarray  # (features, HIDDEN), standardisation folded in
    b1: np.ndarray
    w2: np.ndarray  # (HIDDEN,)
    b2: float

    def probability(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: np.ndarray = 1.0 / (1.0 + np.exp(-(h @ self.w2 + self.b2)))
        return out


class PersonNames:
    """``probability(word)``: how likely ``word`` names a person or a pet, not a thing."""

    def __init__(self, pieces: PieceEmbeddings, net: _Net) -> None:
        self._pieces = pieces
        self._net = net
        self._cached = lru_cache(maxsize=4096)(self._probability)

    @classmethod
    def load(cls, path: Path | None = None) -> PersonNames:
        p = path or _weights_path()
        if not p.exists():
            raise ModelError(f"person-name weights not found at {p}; run "
                             "`stateledger train person-names`")
        with np.load(p) as z:
            if int(z["format_version"]) != FORMAT_VERSION:
                raise ModelError(f"{p} is person-name format {int(z['format_version'])}; "
                                 f"this version reads {FORMAT_VERSION}")
            net = _Net(z["w1"].astype(np.float32), z["b1"].astype(np.float32),
                       z["w2"].astype(np.float32), float(z["b2"]))
        return cls(PieceEmbeddings(), net)

    def probability(self, word: str) -> float:
        if _WORD.fullmatch(word) is None:
            raise ValueError(f"not a word: {word!r}")
        return float(self._cached(word.lower()))

    def _probability(self, word: str) -> float:
        return float(self._net.probability(self._pieces.features([word]))[0])


@lru_cache(maxsize=1)
def default_person_names() -> PersonNames:
    """The shipped model, loaded once per process."""
    return PersonNames.load()


# -- training ---------------------------------------------------------------------------

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
    folded = _Net(w1.astype(np.float16).astype(np.float32), b1.astype(np.float16).astype(
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
