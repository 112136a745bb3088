"""Encoders for the detectors' classifiers: a small BERT trained from scratch over a vocabulary counted
from the training texts (``scratch[-LxH]``), our own first-stage folders, and left truncation."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError

SCRATCH = re.compile(r"^scratch(?:-(\d+)x(\d+))?$")
ALPHABET = 1000  # characters a scratch vocabulary keeps, the most frequent (as the tokenizers trainer did)


def is_scratch(base: str) -> bool:
    return bool(SCRATCH.match(base.strip().lower()))


def scratch_size(base: str) -> tuple[int, int]:
    """(layers, hidden) of ``scratch`` (2x128) or ``scratch-LxH``."""
    m = SCRATCH.match(base.strip().lower())
    if m is None:
        raise InputError(f"not a scratch encoder spec: {base!r}", field="base")
    layers, hidden = (int(m[1]), int(m[2])) if m[1] else (2, 128)
    if layers < 1 or hidden < 32 or hidden % 32:
        raise InputError("scratch-LxH needs L >= 1 and H a multiple of 32", field="base")
    return layers, hidden


def left_truncating(tok: Any) -> Any:
    """Cut long inputs from the left (the oldest context turns go first), also after save and reload."""
    tok.truncation_side = "left"
    tok.init_kwargs["truncation_side"] = "left"
    return tok


def train_scratch_tokenizer(
    texts: Sequence[str], directory: Path, vocab: int = 8000, max_length: int = 128
) -> Any:
    """A lower-cased WordPiece tokenizer over a vocabulary counted from ``texts`` (CJK characters are words
    of their own): the ``ALPHABET`` most frequent characters, word-initial and as ``##`` continuations,
    then the words seen twice or more, most frequent first (ties by the word), up to ``vocab`` entries.
    Counting, not the
    ``tokenizers`` trainer: its merges break ties in hash-map order, so two identical runs learnt
    different vocabularies (1,034 vs 1,036 tokens) under one signature."""
    from tokenizers import BertWordPieceTokenizer
    from transformers import PreTrainedTokenizerFast

    words = _words(BertWordPieceTokenizer(lowercase=True, handle_chinese_chars=True), texts)
    chars: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    rests: Counter[str] = Counter()
    for w, n in words.items():
        firsts[w[0]] += n
        for c in w[1:]:
            rests["##" + c] += n
        for c in w:
            chars[c] += n
    by_count = lambda c: sorted(c, key=lambda k: (-c[k], k))  # noqa: E731
    alphabet = set(by_count(chars)[:ALPHABET])
    firsts = Counter({c: n for c, n in firsts.items() if c in alphabet})
    rests = Counter({c: n for c, n in rests.items() if c[2:] in alphabet})
    whole = Counter({w: n for w, n in words.items() if n >= 2 and len(w) > 1})
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    entries = [*specials, *by_count(firsts), *by_count(rests), *by_count(whole)]
    table = {t: i for i, t in enumerate(list(dict.fromkeys(entries))[:vocab])}
    wp = BertWordPieceTokenizer(vocab=table, lowercase=True, handle_chinese_chars=True)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=wp._tokenizer,
        unk_token="[UNK]",
        sep_token="[SEP]",
        cls_token="[CLS]",
        pad_token="[PAD]",
        mask_token="[MASK]",
        model_max_length=max_length,
    )
    left_truncating(tok).save_pretrained(str(directory))
    return tok


def _words(wp: Any, texts: Sequence[str]) -> Counter[str]:
    """Word counts as the tokenizer's normaliser and pre-tokeniser split the texts."""
    norm, pre = wp._tokenizer.normalizer, wp._tokenizer.pre_tokenizer
    return Counter(w for t in texts for w, _ in pre.pre_tokenize_str(norm.normalize_str(t)))


def scratch_model(base: str, tok: Any, num_labels: int, seed: int, max_length: int) -> Any:
    """A randomly initialised BERT classifier of ``scratch``'s size over ``tok``'s vocabulary."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    layers, hidden = scratch_size(base)
    cfg = BertConfig(
        vocab_size=len(tok),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=max(1, hidden // 64),
        intermediate_size=hidden * 4,
        max_position_embeddings=max_length + 2,
        pad_token_id=tok.pad_token_id,
        num_labels=num_labels,
    )
    torch.manual_seed(seed)
    return BertForSequenceClassification(cfg)


def load_stage_start(folder: Path, labels: Sequence[str]) -> tuple[Any, Any]:
    """Tokenizer and classifier from our own first-stage folder, with a new head when the label count
    differs (no hub checks: we wrote the folder)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    id2label = dict(enumerate(labels))
    model = AutoModelForSequenceClassification.from_pretrained(
        str(folder), num_labels=len(labels), id2label=id2label, label2id={v: k for k, v in id2label.items()},
        ignore_mismatched_sizes=True,
    )  # fmt: skip
    return AutoTokenizer.from_pretrained(str(folder)), model


def with_labels(model: Any, labels: Sequence[str]) -> Any:
    model.config.id2label = dict(enumerate(labels))
    model.config.label2id = {v: k for k, v in enumerate(labels)}
    return model
