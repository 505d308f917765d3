"""Whether a capitalised word names a person (or a pet) or a thing: a small learned model.

A chat sentence that opens with a capitalised word and a verb is read as about the person
it names ("Nina moved to Oslo"), but many such words name a thing: "Coffee has become a
problem, I drink six a day now", "Tennis has replaced squash for me", "Spanish is going
well". Read as people, those statements are nobody's the user asks about. A word list
cannot hold every name and every noun, so this model reads the word's meaning: the mean of
its word pieces' input embeddings in the bundled MiniLM (no forward pass: a lookup), and
how many pieces it has, through one hidden layer.

Trained by ``models.person_names_training`` (``stateledger train person-names``).

The shipped weights (``data/person_names.npz``, float16) fold the feature standardisation
into the first layer; inference is numpy only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from stateledger.errors import MissingDependencyError, ModelError
from stateledger.models.embedder import model_dir

FORMAT_VERSION = 1
WEIGHTS = "person_names.npz"
MAX_PIECES = 4  # one-hot of the word-piece count: 1, 2, 3, 4 or more
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
            self.table: np.ndarray = np.asarray(  # float32 already: no copy
                f.get_tensor("embeddings.word_embeddings.weight"), dtype=np.float32)
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
class NameNet:
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

    def __init__(self, pieces: PieceEmbeddings, net: NameNet) -> None:
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
            net = NameNet(z["w1"].astype(np.float32), z["b1"].astype(np.float32),
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
