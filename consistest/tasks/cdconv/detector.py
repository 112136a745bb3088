"""Dialogue contradiction detectors over the last bot turn (CDConv's three architectures) on any encoder.

- ``pair``: one 4-class classifier on (b1, b2), the bot's previous turn against its last;
- ``flatten``: one 4-class classifier on the whole dialogue (earlier turns, last turn);
- ``hierarchical``: three binary classifiers in the order intra -> role -> history, each with its own
  window: intra on (u2, b2), role on (b1 u2, b2), history on (u1 b1 u2, b2); the first positive decides.

Every classifier is a sequence-pair classifier trained by ``training.loop.fit`` (resumable per epoch).
Encoders: ``minilm`` (offline), any hub id or folder, or ``scratch[-LxH]``: a small BERT trained from scratch
with a WordPiece vocabulary built from the training texts (Chinese splits into characters), the honest lower
bound where no pretrained encoder for the language can be had.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json
from consistest.core.records import DETECTOR_LABELS, DialogueExample
from consistest.core.rundir import read_manifest
from consistest.training.nli_data import NLIExample

Architecture = Literal["pair", "flatten", "hierarchical"]
ARCHITECTURES: tuple[Architecture, ...] = get_args(Architecture)
View = Literal["pair", "intra", "role", "all"]
DETECTOR_FILE = "detector.json"
SCRATCH = re.compile(r"^scratch(?:-(\d+)x(\d+))?$")
SEP = " | "  # joins context turns when the tokenizer has no separator token
ALPHABET = 1000  # characters a scratch vocabulary keeps, the most frequent (as the tokenizers trainer did)


@dataclass(frozen=True)
class Stage:
    """One classifier: its name (its folder), the turns it reads, and its labels (index = class id)."""

    name: str
    view: View
    labels: tuple[str, ...]

    @property
    def binary(self) -> bool:
        return len(self.labels) == 2


STAGES: dict[Architecture, tuple[Stage, ...]] = {
    "pair": (Stage("pair", "pair", DETECTOR_LABELS),),
    "flatten": (Stage("flatten", "all", DETECTOR_LABELS),),
    "hierarchical": (
        Stage("intra", "intra", ("other", "intra")),
        Stage("role", "role", ("other", "role")),
        Stage("history", "all", ("other", "history")),
    ),
}


def view(turns: Sequence[str], kind: View, sep: str = SEP, persona: Sequence[str] = ()) -> tuple[str, str]:
    """(context, last turn) as a classifier reads them; missing turns are empty strings. The speaker's
    persona sentences, when given, close the context of the views that look for history contradictions
    (``pair`` and ``all``), right before the judged turn, so that cutting long inputs from the left drops
    the oldest turns first and the persona last."""
    last = turns[-1]
    before = list(turns[:-1])
    if kind == "pair":
        context = [before[-2]] if len(before) >= 2 else []
    elif kind == "intra":
        return (before[-1] if before else "", last)
    elif kind == "role":
        return (sep.join(before[-2:]), last)
    else:
        context = before
    facts = [" ".join(p.split()) for p in persona if p.strip()]
    return (sep.join(context + [" ".join(facts)] * bool(facts)), last)


def stage_label(stage: Stage, label: str) -> int | None:
    """The class id of a gold label for a stage; None when the cascade never shows it this example
    (the role classifier never sees intra examples, the history one sees only none and history)."""
    if not stage.binary:
        return DETECTOR_LABELS.index(label)  # type: ignore[arg-type]
    order = [s for s in ("intra", "role", "history")]
    target = stage.labels[1]
    if label in order[: order.index(target)]:
        return None
    return int(label == target)


def stage_examples(
    stage: Stage, examples: Sequence[DialogueExample], sep: str, persona: bool = False
) -> list[NLIExample]:
    """Labelled examples as text pairs for one stage (unlabelled ones are skipped); ``persona``: the
    detector reads the speaker's persona (see ``view``)."""
    out = []
    for ex in examples:
        if ex.label is None:
            continue
        y = stage_label(stage, ex.label)
        if y is not None:
            out.append(NLIExample(*view(ex.turns, stage.view, sep, ex.persona if persona else ()), y))
    return out


def separator(tok: Any) -> str:
    """The tokenizer's separator token between context turns (`` [SEP] ``), else `` | ``."""
    sep = getattr(tok, "sep_token", None)
    return f" {sep} " if isinstance(sep, str) and sep else SEP


# ---------------------------------------------------------------- encoders
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


# ---------------------------------------------------------------- a trained detector
@dataclass(frozen=True)
class Prediction:
    """What the detector says about one dialogue's last turn."""

    id: str
    category: str
    probability: float  # of the predicted category (for none: of none, or 1 - each stage's positive)
    contradiction_probability: float
    stage_probabilities: dict[str, float]


def architecture_of(info: dict[str, Any]) -> str | None:
    """The architecture a ``detector.json`` names: ``architecture``, or ``method`` in files written before the
    rename (the same values)."""
    value = info.get("architecture", info.get("method"))
    return value if isinstance(value, str) else None


class Detector:
    """A trained detector directory (``DETECTOR_FILE`` + one model folder per stage) ready to predict."""

    def __init__(self, directory: str | Path, *, batch_size: int = 64, device: str = "cpu") -> None:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.dir = Path(directory)
        self.info = self.read_info(self.dir)
        self.architecture: Architecture = architecture_of(self.info)  # type: ignore[assignment]
        self.stages = STAGES[self.architecture]
        self.batch_size, self.device = batch_size, device
        self.models = {}
        for st in self.stages:
            folder = self.dir / st.name
            tok = left_truncating(AutoTokenizer.from_pretrained(str(folder)))
            model = AutoModelForSequenceClassification.from_pretrained(str(folder)).to(device).eval()
            self.models[st.name] = (tok, model)
        self.max_length = int(self.info["max_length"])
        self.persona = bool(self.info.get("persona", False))  # detectors trained before it read none

    @staticmethod
    def read_info(directory: Path) -> dict[str, Any]:
        """``DETECTOR_FILE`` checked: a known architecture, a max length, and a model folder for every stage
        (else transformers would take a missing folder's path for a hub id)."""
        spec = Path(directory) / DETECTOR_FILE
        if not spec.is_file():
            raise InputError(f"not a trained detector (no {DETECTOR_FILE})", path=str(directory))
        info = read_manifest(spec)
        if (arch := architecture_of(info)) not in STAGES:
            got = repr(arch) if arch is not None else "nothing"
            raise InputError(
                f"expected one of {', '.join(ARCHITECTURES)}, got {got}", path=str(spec), field="architecture"
            )
        if not isinstance(info.get("max_length"), int):
            raise InputError("expected an integer", path=str(spec), field="max_length")
        for st in STAGES[arch]:
            if not (Path(directory) / st.name / "config.json").is_file():
                raise InputError(
                    f"the {arch} detector's stage {st.name!r} is missing ({st.name}/config.json); "
                    "train it again with consistest train-detector",
                    path=str(directory),
                )
        return info

    @staticmethod
    def unknown_share(directory: str | Path, texts: Sequence[str]) -> float:
        """The share of the texts' words (as the first stage's tokenizer splits them) that its vocabulary
        does not hold whole: high for text in a language or domain the detector never saw."""
        from transformers import AutoTokenizer

        info = Detector.read_info(Path(directory))
        tok = AutoTokenizer.from_pretrained(str(Path(directory) / STAGES[architecture_of(info)][0].name))
        backend, vocab = tok.backend_tokenizer, tok.get_vocab()
        words = []
        for text in texts:
            norm = backend.normalizer.normalize_str(text) if backend.normalizer else text
            pre = backend.pre_tokenizer.pre_tokenize_str(norm) if backend.pre_tokenizer else [(norm, None)]
            words += [w for w, _ in pre if any(c.isalnum() for c in w)]
        return sum(w not in vocab for w in words) / len(words) if words else 0.0

    def stage_probs(self, stage: Stage, examples: Sequence[DialogueExample]) -> list[list[float]]:
        from consistest.training.loop import predict_proba

        tok, model = self.models[stage.name]
        sep = separator(tok)
        pairs = [view(ex.turns, stage.view, sep, ex.persona if self.persona else ()) for ex in examples]
        return predict_proba(model, tok, pairs, self.batch_size, self.max_length)

    def predict(self, examples: Sequence[DialogueExample]) -> list[Prediction]:
        probs = {st.name: self.stage_probs(st, examples) for st in self.stages}
        return [
            decide(self.stages, ex.id, {k: v[i] for k, v in probs.items()}) for i, ex in enumerate(examples)
        ]


def decide(stages: Sequence[Stage], item_id: str, probs: dict[str, list[float]]) -> Prediction:
    """The category from stage probabilities: argmax of a 4-class stage, or the first binary stage
    (intra -> role -> history) whose positive probability exceeds 0.5, else none."""
    if len(stages) == 1 and not stages[0].binary:
        p = probs[stages[0].name]
        k = max(range(len(p)), key=p.__getitem__)
        return Prediction(
            item_id, DETECTOR_LABELS[k], p[k], 1.0 - p[0], dict(zip(DETECTOR_LABELS, p, strict=True))
        )
    pos = {st.labels[1]: probs[st.name][1] for st in stages}
    none_p = 1.0
    for v in pos.values():
        none_p *= 1.0 - v
    for st in stages:
        if pos[st.labels[1]] > 0.5:
            return Prediction(item_id, st.labels[1], pos[st.labels[1]], 1.0 - none_p, pos)
    return Prediction(item_id, "none", none_p, 1.0 - none_p, pos)


def write_detector_info(out: Path, info: dict[str, Any]) -> None:
    atomic_write_json(out / DETECTOR_FILE, info)
