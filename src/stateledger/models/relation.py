"""The open-world update detector: does a new statement change the state a record holds?

One learned model, tied to no slot name: a small cross-encoder (the first ``layers``
transformer layers of the bundled all-MiniLM-L6-v2, fine-tuned; the word embeddings stay
frozen and are read from the MiniLM package at load time, so the shipped weights hold only
what training changed) with three heads over its [CLS] state and token mean:

- *relation*, over ``[CLS] record [SEP] statement [SEP]``: how a new statement relates to
  a stored record: ``unrelated`` (another state variable, or no state at all), ``same`` (a
  restatement), ``update`` (another value of the same variable: a change, a correction, a
  newer statement), ``end`` (the state stops, no replacement) or ``coexist`` (one more value
  of a many-valued variable);
- *relevance*, over ``[CLS] question [SEP] record [SEP]``: does the record state the
  variable the question asks about?
- *stance*, over ``[CLS] statement [SEP]``: does the text state a fact at all, is it a
  question, hedged, reported by someone else, about a past state, a change in progress, a
  correction, an ending? Read off the tokens, so "might", "used to" or "Sam says" count
  whatever the topic (a sentence embedding is dominated by the topic).

It is trained on generated data (``synth.statements``) by ``models.relation_training``
(``stateledger train relation``); inference runs on CPU in the write path's budget.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from stateledger.core.open_world import RELATIONS
from stateledger.errors import ModelError
from stateledger.models import threads
from stateledger.models.embedder import model_dir

FORMAT_VERSION = 2  # 2: the stance head joined the cross-encoder
STANCES: tuple[str, ...] = (
    "fact", "question", "hedged", "reported", "past", "transition", "correction", "ending",
)
MAX_PAIR_TOKENS = 96


@dataclass(frozen=True)
class PairConfig:
    layers: int = 3
    hidden: int = 384
    heads: int = 12
    intermediate: int = 1536
    dropout: float = 0.1


class _Layer(nn.Module):
    """One BERT encoder layer (post-norm), op for op as in MiniLM."""

    def __init__(self, cfg: PairConfig) -> None:
        super().__init__()
        self.heads = cfg.heads
        self.qkv = nn.Linear(cfg.hidden, 3 * cfg.hidden)
        self.out = nn.Linear(cfg.hidden, cfg.hidden)
        self.ln1 = nn.LayerNorm(cfg.hidden, eps=1e-12)
        self.ff_in = nn.Linear(cfg.hidden, cfg.intermediate)
        self.ff_out = nn.Linear(cfg.intermediate, cfg.hidden)
        self.ln2 = nn.LayerNorm(cfg.hidden, eps=1e-12)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        batch, length, d = x.shape
        q, k, v = self.qkv(x).view(batch, length, 3, self.heads, d // self.heads).permute(
            2, 0, 3, 1, 4)
        attn = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        x = self.ln1(x + self.drop(self.out(attn.transpose(1, 2).reshape(batch, length, d))))
        out: torch.Tensor = self.ln2(x + self.drop(self.ff_out(F.gelu(self.ff_in(x)))))
        return out


def _head(cfg: PairConfig, outputs: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(2 * cfg.hidden, cfg.hidden), nn.GELU(),
                         nn.Dropout(cfg.dropout), nn.Linear(cfg.hidden, outputs))


class CrossEncoder(nn.Module):
    """MiniLM's first ``cfg.layers`` layers with a relation, a relevance and a stance head.

    ``word`` (the frozen word embeddings) is passed in, not a parameter: it comes from the
    MiniLM package and is never saved with the fine-tuned weights.
    """

    word: torch.Tensor

    def __init__(self, cfg: PairConfig, word: torch.Tensor) -> None:
        super().__init__()
        self.cfg = cfg
        self.register_buffer("word", word, persistent=False)
        self.position = nn.Parameter(torch.zeros(512, cfg.hidden))
        self.token_type = nn.Parameter(torch.zeros(2, cfg.hidden))
        self.emb_ln = nn.LayerNorm(cfg.hidden, eps=1e-12)
        self.layers = nn.ModuleList(_Layer(cfg) for _ in range(cfg.layers))
        self.relation = _head(cfg, len(RELATIONS))
        self.relevance = _head(cfg, 1)
        self.stance = _head(cfg, len(STANCES))

    def encode(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """[CLS] state and mean of the real tokens, concatenated: (batch, 2 * hidden)."""
        length = ids.shape[1]
        x = self.word[ids] + self.position[:length] + self.token_type[types]
        x = self.emb_ln(x)
        bias = None
        if not bool(mask.all()):
            bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, bias)
        m = mask.unsqueeze(-1).to(x.dtype)
        mean = (x * m).sum(1) / m.sum(1).clamp(min=1.0)
        return torch.cat([x[:, 0], mean], dim=-1)

    def forward(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """(relation logits (batch, 5), relevance logit (batch,)) of text pairs."""
        h = self.encode(ids, types, mask)
        return self.relation(h), self.relevance(h).squeeze(-1)

    def stance_logits(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Stance logits (batch, len(STANCES)) of single texts."""
        logits: torch.Tensor = self.stance(self.encode(ids, torch.zeros_like(ids), mask))
        return logits


def minilm_init(cfg: PairConfig) -> tuple[CrossEncoder, Any]:
    """A CrossEncoder initialised from MiniLM's own layers, and MiniLM's tokenizer."""
    from safetensors.torch import load_file
    from tokenizers import Tokenizer

    path = model_dir()
    w = {k.removeprefix("bert."): v for k, v in load_file(str(path / "model.safetensors")).items()}
    model = CrossEncoder(cfg, w["embeddings.word_embeddings.weight"])
    with torch.no_grad():
        model.position.copy_(w["embeddings.position_embeddings.weight"])
        model.token_type.copy_(w["embeddings.token_type_embeddings.weight"])
        model.emb_ln.weight.copy_(w["embeddings.LayerNorm.weight"])
        model.emb_ln.bias.copy_(w["embeddings.LayerNorm.bias"])
        for i, layer in enumerate(model.layers):
            assert isinstance(layer, _Layer)
            p = f"encoder.layer.{i}."
            a = p + "attention.self."
            layer.qkv.weight.copy_(torch.cat([w[f"{a}{n}.weight"] for n in ("query", "key",
                                                                               "value")]))
            layer.qkv.bias.copy_(torch.cat([w[f"{a}{n}.bias"] for n in ("query", "key",
                                                                           "value")]))
            layer.out.weight.copy_(w[p + "attention.output.dense.weight"])
            layer.out.bias.copy_(w[p + "attention.output.dense.bias"])
            layer.ln1.weight.copy_(w[p + "attention.output.LayerNorm.weight"])
            layer.ln1.bias.copy_(w[p + "attention.output.LayerNorm.bias"])
            layer.ff_in.weight.copy_(w[p + "intermediate.dense.weight"])
            layer.ff_in.bias.copy_(w[p + "intermediate.dense.bias"])
            layer.ff_out.weight.copy_(w[p + "output.dense.weight"])
            layer.ff_out.bias.copy_(w[p + "output.dense.bias"])
            layer.ln2.weight.copy_(w[p + "output.LayerNorm.weight"])
            layer.ln2.bias.copy_(w[p + "output.LayerNorm.bias"])
    return model, pair_tokenizer(Tokenizer.from_file(str(path / "tokenizer.json")))


def pair_tokenizer(tokenizer: Any) -> Any:
    tokenizer.enable_truncation(max_length=MAX_PAIR_TOKENS, strategy="longest_first")
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def tokenize_texts(tokenizer: Any, texts: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
    encodings = tokenizer.encode_batch(list(texts))
    ids = torch.tensor([e.ids for e in encodings], dtype=torch.long)
    mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)
    return ids, mask


def tokenize_pairs(tokenizer: Any, firsts: Sequence[str], seconds: Sequence[str]
                   ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    encodings = tokenizer.encode_batch(list(zip(firsts, seconds, strict=True)))
    ids = torch.tensor([e.ids for e in encodings], dtype=torch.long)
    types = torch.tensor([e.type_ids for e in encodings], dtype=torch.long)
    mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)
    return ids, types, mask


# --- the shipped model ----------------------------------------------------------------------


def shipped_path(name: str) -> Path:
    return Path(str(resources.files("stateledger").joinpath(f"data/{name}")))


MODEL_FILE = "relation_model.pt"


BF16_ENV = "STATELEDGER_BF16"  # "1" / "0" forces bfloat16 inference on or off


def bf16_pays_off() -> bool:
    """Whether this CPU runs bfloat16 matrix products natively (AVX-512 BF16 or AMX).

    There the relation model's forward runs about 1.7x faster under bfloat16 autocast, with
    probabilities within 0.003 of float32; elsewhere bfloat16 is emulated and slower. Read
    from the CPU flags Linux reports (no flags, no bfloat16); ``$STATELEDGER_BF16`` = 1 or
    0 overrides it."""
    forced = os.environ.get(BF16_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return False
    return re.search(r"\b(?:avx512_bf16|amx_bf16)\b", flags) is not None


class RelationModel:
    """Inference over the shipped cross-encoder (thread-safe; torch inference mode, and
    bfloat16 autocast where the CPU runs it natively: ``bf16_pays_off``)."""

    def __init__(self, model: CrossEncoder, tokenizer: Any, *, bf16: bool | None = None) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.bf16 = bf16_pays_off() if bf16 is None else bf16
        self._lock = threading.Lock()

    @contextmanager
    def _inference(self) -> Iterator[None]:
        with self._lock, torch.inference_mode(), torch.autocast(
                "cpu", torch.bfloat16, enabled=self.bf16):
            yield

    @classmethod
    def load(cls, path: str | Path | None = None) -> RelationModel:
        p = Path(path) if path is not None else shipped_path(MODEL_FILE)
        if not p.exists():
            raise ModelError(f"no relation model at {p}; run `stateledger train relation`")
        threads.configure(torch)  # outside the try: a bad override is not a damaged file
        try:
            blob = torch.load(p, map_location="cpu", weights_only=True)
        except Exception as exc:  # torch raises several types for a damaged file
            raise ModelError(f"cannot read relation model {p}: {exc}") from exc
        if blob.get("format") != FORMAT_VERSION:
            raise ModelError(f"{p}: format {blob.get('format')!r}, expected {FORMAT_VERSION}")
        cfg = PairConfig(**json.loads(blob["config"]))
        model, tokenizer = minilm_init(cfg)
        state = {k: v.float() for k, v in blob["state"].items()}
        missing, unexpected = model.load_state_dict(state, strict=False)
        if missing or unexpected:
            raise ModelError(f"{p}: weights do not match (missing {missing[:3]}, "
                             f"unexpected {unexpected[:3]})")
        return cls(model, tokenizer)

    def relations(self, records: Sequence[str], statement: str) -> np.ndarray:
        """Probabilities over RELATIONS for each (record, statement) pair: (len, 5)."""
        return self.pair_relations(records, [statement] * len(records))

    def pair_relations(self, records: Sequence[str], statements: Sequence[str]) -> np.ndarray:
        """Probabilities over RELATIONS for each (records[i], statements[i]): (len, 5)."""
        if not records:
            return np.zeros((0, len(RELATIONS)), dtype=np.float32)
        ids, types, mask = tokenize_pairs(self.tokenizer, records, statements)
        with self._inference():
            logits, _ = self.model(ids, types, mask)
            return torch.softmax(logits.float(), dim=-1).numpy()

    def relevance(self, question: str, records: Sequence[str]) -> np.ndarray:
        """Probability that each record states the variable ``question`` asks about."""
        if not records:
            return np.zeros(0, dtype=np.float32)
        ids, types, mask = tokenize_pairs(self.tokenizer, [question] * len(records), records)
        with self._inference():
            _, logit = self.model(ids, types, mask)
            return torch.sigmoid(logit.float()).numpy()

    def judge(self, statement: str, records: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The statement's stance probabilities (len(STANCES),) and its relation
        probabilities to each record (len(records), 5), from one batched forward: the
        single text and the pairs share one pass over the weights, which is what a forward
        of a few short texts costs on a CPU."""
        single = self.tokenizer.encode(statement)
        pairs = self.tokenizer.encode_batch([(r, statement) for r in records]) if records else []
        rows = [single, *pairs]
        width = max(len(e.ids) for e in rows)
        ids = torch.zeros((len(rows), width), dtype=torch.long)
        types = torch.zeros_like(ids)
        mask = torch.zeros_like(ids)
        for i, e in enumerate(rows):
            n = len(e.ids)
            ids[i, :n] = torch.tensor(e.ids)
            mask[i, :n] = 1
            if i:
                types[i, :n] = torch.tensor(e.type_ids)
        with self._inference():
            h = self.model.encode(ids, types, mask)
            stance = torch.sigmoid(self.model.stance(h[:1]).float())[0]
            relation = torch.softmax(self.model.relation(h[1:]).float(), dim=-1)
            return stance.numpy(), relation.numpy().reshape(len(records), len(RELATIONS))

    def stances(self, texts: Sequence[str]) -> np.ndarray:
        """Probabilities (len, len(STANCES)) of each stance (independent sigmoids)."""
        if not texts:
            return np.zeros((0, len(STANCES)), dtype=np.float32)
        ids, mask = tokenize_texts(self.tokenizer, texts)
        with self._inference():
            return torch.sigmoid(self.model.stance_logits(ids, mask).float()).numpy()


def save_relation_model(model: CrossEncoder, path: Path, extra: Mapping[str, Any]) -> None:
    """The fine-tuned weights in float16 (the frozen word embeddings are not saved)."""
    state = {k: v.detach().to(torch.float16) for k, v in model.state_dict().items()}
    blob = {"format": FORMAT_VERSION, "config": json.dumps(asdict(model.cfg)), "state": state,
            "info": json.dumps(dict(extra))}
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(blob, path)


_shared: dict[str, Any] = {}
_shared_lock = threading.Lock()


def shared_relation_model() -> RelationModel:
    """One process-wide shipped model (the write and the read path share it)."""
    with _shared_lock:
        if "model" not in _shared:
            _shared["model"] = RelationModel.load()
        model: RelationModel = _shared["model"]
        return model
