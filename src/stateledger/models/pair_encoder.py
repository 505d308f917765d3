"""The transformer both learned readers of text pairs share: MiniLM's first layers.

``PairEncoder`` is the first ``layers`` transformer layers of the bundled all-MiniLM-L6-v2
(initialised from them, then fine-tuned), reading one text or a pair ``[CLS] a [SEP] b
[SEP]`` and giving its [CLS] state and token mean. The word embeddings stay frozen and are
read from the MiniLM package at load time, so shipped weights hold only what training
changed. Two models put heads on it:

- ``models.relation.CrossEncoder`` (the write path's relation, stance and relevance heads);
- ``models.relevance.RelevanceEncoder`` (the answer step's reranker: does this record state
  what the question asks?).

Also here: the tokenizer set-up, the weights file format (float16, a format number and the
config), and the CPU inference context (bfloat16 autocast where the CPU runs it natively).
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

import torch
from torch import nn
from torch.nn import functional as F

from stateledger import threads
from stateledger.errors import ModelError
from stateledger.models.embedder import model_dir

MAX_PAIR_TOKENS = 96
# A forward over at most this many rows runs on two intra-op threads, a longer one as two
# halves of its rows (``Inference.encode``).
BOTH_CORES_MAX_ROWS = 16


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


def head(cfg: PairConfig, outputs: int) -> nn.Sequential:
    """A two-layer head over the encoder's [CLS] state and token mean."""
    return nn.Sequential(nn.Linear(2 * cfg.hidden, cfg.hidden), nn.GELU(),
                         nn.Dropout(cfg.dropout), nn.Linear(cfg.hidden, outputs))


class PairEncoder(nn.Module):
    """MiniLM's first ``cfg.layers`` layers; subclasses add their heads.

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

    def encode(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor, *,
               padded: bool | None = None) -> torch.Tensor:
        """[CLS] state and mean of the real tokens, concatenated: (batch, 2 * hidden).
        ``padded``: whether attention masks out padding (default: where ``mask`` has any);
        rows split off a batch pass the whole batch's, so each row runs as in the batch."""
        length = ids.shape[1]
        x = self.word[ids] + self.position[:length] + self.token_type[types]
        x = self.emb_ln(x)
        bias = None
        if (padded if padded is not None else not bool(mask.all())):
            bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, bias)
        m = mask.unsqueeze(-1).to(x.dtype)
        mean = (x * m).sum(1) / m.sum(1).clamp(min=1.0)
        return torch.cat([x[:, 0], mean], dim=-1)


E = TypeVar("E", bound=PairEncoder)


def minilm_init(cls: type[E], cfg: PairConfig) -> tuple[E, Any]:
    """A ``cls`` whose encoder starts as MiniLM's own first layers, and MiniLM's tokenizer."""
    from safetensors.torch import load_file
    from tokenizers import Tokenizer

    path = model_dir()
    w = {k.removeprefix("bert."): v for k, v in load_file(str(path / "model.safetensors")).items()}
    model = cls(cfg, w["embeddings.word_embeddings.weight"])
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


def encode_rows(model: PairEncoder, tok: Any, firsts: Sequence[str],
                seconds: Sequence[str] | None, batch: int,
                progress: Callable[[str, int, int], None] | None = None,
                stage: str = "encode") -> torch.Tensor:
    """The features a head reads, (len, 2 * hidden): of each text, or with ``seconds`` of
    each (first, second) pair. Rows of similar length share a batch; they come back in
    order."""
    model.eval()
    size = [len(a) + (len(seconds[i]) if seconds is not None else 0)
            for i, a in enumerate(firsts)]
    order = sorted(range(len(firsts)), key=lambda i: size[i])
    out = torch.zeros((len(firsts), 2 * model.cfg.hidden))
    steps = math.ceil(len(firsts) / batch)
    with torch.inference_mode():
        for step, start in enumerate(range(0, len(firsts), batch)):
            idx = order[start : start + batch]
            if seconds is None:
                ids, mask = tokenize_texts(tok, [firsts[i] for i in idx])
                types = torch.zeros_like(ids)
            else:
                ids, types, mask = tokenize_pairs(tok, [firsts[i] for i in idx],
                                                  [seconds[i] for i in idx])
            out[idx] = model.encode(ids, types, mask).float()
            if progress is not None:
                progress(stage, step + 1, steps)
    return out


# --- shipped weights ---------------------------------------------------------------------------


def shipped_path(name: str) -> Path:
    return Path(str(resources.files("stateledger").joinpath(f"data/{name}")))


def save_encoder(model: PairEncoder, path: Path, fmt: int, extra: Mapping[str, Any]) -> None:
    """The fine-tuned weights in float16 (the frozen word embeddings are not saved)."""
    state = {k: v.detach().to(torch.float16) for k, v in model.state_dict().items()}
    blob = {"format": fmt, "config": json.dumps(asdict(model.cfg)), "state": state,
            "info": json.dumps(dict(extra), default=str)}  # a path as its text
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(blob, path)


def load_encoder(cls: type[E], path: Path, fmt: int, what: str, train: str) -> tuple[E, Any]:
    """A ``cls`` with the weights saved at ``path``, and its tokenizer; ModelError names the
    file when it is missing, damaged, of another format or of other weights."""
    if not path.exists():
        raise ModelError(f"no {what} at {path}; run `stateledger train {train}`")
    threads.configure(torch)  # outside the try: a bad override is not a damaged file
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises several types for a damaged file
        raise ModelError(f"cannot read {what} {path}: {exc}") from exc
    if not isinstance(blob, dict) or blob.get("format") != fmt:
        found = blob.get("format") if isinstance(blob, dict) else None
        raise ModelError(f"{path}: format {found!r}, expected {fmt}")
    cfg = PairConfig(**json.loads(blob["config"]))
    model, tokenizer = minilm_init(cls, cfg)
    state = {k: v.float() for k, v in blob["state"].items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ModelError(f"{path}: weights do not match (missing {missing[:3]}, "
                         f"unexpected {unexpected[:3]})")
    return model, tokenizer


# --- inference ---------------------------------------------------------------------------------


BF16_ENV = "STATELEDGER_BF16"  # "1" / "0" forces bfloat16 inference on or off


def bf16_pays_off() -> bool:
    """Whether this CPU runs bfloat16 matrix products natively (AVX-512 BF16 or AMX).

    There a forward runs about 1.7x faster under bfloat16 autocast, with probabilities
    within ~0.01 of float32 (at most 0.012 on ``tests/models/test_inference_precision.py``'s
    pairs); elsewhere bfloat16 is emulated and slower. Read from the CPU flags Linux reports
    (no flags, no bfloat16); ``$STATELEDGER_BF16`` = 1 or 0 overrides it."""
    forced = os.environ.get(BF16_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return False
    return re.search(r"\b(?:avx512_bf16|amx_bf16)\b", flags) is not None


class Inference(Generic[E]):
    """Thread-safe inference over one encoder: torch inference mode, and bfloat16 autocast
    where the CPU runs it natively (``bf16_pays_off``). ``with inference() as net`` gives
    the module to run.

    Under bfloat16 ``net`` is a twin of ``model`` whose linear layers hold bfloat16
    weights (the frozen word embeddings are shared, not copied): autocast would otherwise
    cast every float32 weight matrix on every call, a quarter of the time of a forward
    over the write path's few short texts (6.8 -> 5.0 ms for a statement and three pairs,
    docs/BENCHMARKS.md). The products are the same bfloat16 products either way:
    autocast casts the weights to bfloat16 before multiplying. ``model`` itself stays in
    float32 (other wrappers, and training, read it)."""

    def __init__(self, model: E, bf16: bool | None = None) -> None:
        self.bf16 = bf16_pays_off() if bf16 is None else bf16
        self.net: E = _bfloat16_linears(model) if self.bf16 else model
        self._lock = threading.Lock()

    @contextmanager
    def __call__(self) -> Iterator[E]:
        with self._lock, _mode(self.bf16):
            yield self.net

    def encode(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor, *,
               padded: bool | None = None) -> torch.Tensor:
        """``net.encode`` of the rows on both cores; call inside ``with inference()``.
        ``padded``: as ``PairEncoder.encode`` (default: whether ``mask`` masks any token).

        A few rows run on a second intra-op thread (``threads.both_cores``: three rows
        cannot be split evenly by rows); more than ``BOTH_CORES_MAX_ROWS`` run as two
        halves, one on the side worker (``threads.in_parallel``), which is faster for many
        rows (the reranker over 40 records, development script on a 2-core AMD EPYC: 71-78
        ms in halves, 83-84 on two intra-op threads; 20 records 37-38 ms either way; 5
        records 14.2-14.5 in halves, 12.1-12.4 on two threads). Each row's numbers are
        those of the whole batch: a row's products do not depend on the other rows, and
        the padding flag is the batch's."""
        padded = not bool(mask.all()) if padded is None else padded
        if ids.shape[0] <= BOTH_CORES_MAX_ROWS:
            with threads.both_cores():  # as it is where no core is spare
                return self.net.encode(ids, types, mask, padded=padded)
        if not threads.has_side():
            return self.net.encode(ids, types, mask, padded=padded)

        def rows(part: slice) -> torch.Tensor:
            with _mode(self.bf16):  # per thread in torch: the helper enters its own
                return self.net.encode(ids[part], types[part], mask[part], padded=padded)

        half = ids.shape[0] // 2
        return torch.cat(threads.in_parallel(partial(rows, slice(None, half)),
                                             partial(rows, slice(half, None))))


@contextmanager
def _mode(bf16: bool) -> Iterator[None]:
    """Inference mode and, where it pays, bfloat16 autocast (both are per thread in torch)."""
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
        yield


def _bfloat16_linears(model: E) -> E:
    twin = copy.deepcopy(model, {id(model.word): model.word}).eval()
    for module in twin.modules():
        if isinstance(module, nn.Linear):
            module.to(torch.bfloat16)
    return twin
