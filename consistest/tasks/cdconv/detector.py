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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json
from consistest.core.records import DETECTOR_LABELS, DialogueExample
from consistest.core.rundir import read_manifest
from consistest.tasks.cdconv.encoders import left_truncating
from consistest.training.nli_data import NLIExample

Architecture = Literal["pair", "flatten", "hierarchical"]
ARCHITECTURES: tuple[Architecture, ...] = get_args(Architecture)
View = Literal["pair", "intra", "role", "all"]
DETECTOR_FILE = "detector.json"
SEP = " | "  # joins context turns when the tokenizer has no separator token


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


def view(
    turns: Sequence[str], kind: View, sep: str = SEP, persona: Sequence[str] = (), user: bool = False
) -> tuple[str, str]:
    """(context, last turn) as a classifier reads them; missing turns are empty strings. The speaker's
    persona sentences, when given, close the context of the views that look for history contradictions
    (``pair`` and ``all``), right before the judged turn, so that cutting long inputs from the left drops
    the oldest turns first and the persona last. ``user``: the ``pair`` view also reads the user's turn
    the judged one answers (u2), after the persona ("do you have a dog ?" makes "no" a statement)."""
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
    asked = [before[-1]] if user and kind == "pair" and before else []
    return (sep.join(context + [" ".join(facts)] * bool(facts) + asked), last)


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
    stage: Stage, examples: Sequence[DialogueExample], sep: str, persona: bool = False, user: bool = False
) -> list[NLIExample]:
    """Labelled examples as text pairs for one stage (unlabelled ones are skipped); ``persona``, ``user``:
    what else the views read (see ``view``)."""
    out = []
    for ex in examples:
        if ex.label is None:
            continue
        y = stage_label(stage, ex.label)
        if y is not None:
            out.append(NLIExample(*view(ex.turns, stage.view, sep, ex.persona if persona else (), user), y))
    return out


def separator(tok: Any) -> str:
    """The tokenizer's separator token between context turns (`` [SEP] ``), else `` | ``."""
    sep = getattr(tok, "sep_token", None)
    return f" {sep} " if isinstance(sep, str) and sep else SEP


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

    def __init__(
        self,
        directory: str | Path,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        info: dict[str, Any] | None = None,
    ) -> None:
        """``info``: the content of ``DETECTOR_FILE`` when it is not written yet (train-detector picks tau
        before writing it once, so an interrupted run never leaves a detector without its threshold)."""
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.dir = Path(directory)
        self.info = self.read_info(self.dir) if info is None else self.check_info(info, self.dir)
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
        tau = self.info.get("tau")  # --decision tau: a threshold on P(contradiction) picked on dev
        self.tau = float(tau) if isinstance(tau, int | float) else None
        self.persona = bool(self.info.get("persona", False))  # detectors trained before it read none
        self.user = bool(self.info.get("user_turn", False))

    @staticmethod
    def read_info(directory: Path) -> dict[str, Any]:
        """``DETECTOR_FILE`` checked: a known architecture, a max length, and a model folder for every stage
        (else transformers would take a missing folder's path for a hub id)."""
        spec = Path(directory) / DETECTOR_FILE
        if not spec.is_file():
            raise InputError(f"not a trained detector (no {DETECTOR_FILE})", path=str(directory))
        return Detector.check_info(read_manifest(spec), Path(directory))

    @staticmethod
    def check_info(info: dict[str, Any], directory: Path) -> dict[str, Any]:
        """A detector's settings checked (see ``read_info``); errors name ``DETECTOR_FILE``."""
        spec = Path(directory) / DETECTOR_FILE
        if (arch := architecture_of(info)) not in STAGES:
            got = repr(arch) if arch is not None else "nothing"
            raise InputError(
                f"expected one of {', '.join(ARCHITECTURES)}, got {got}", path=str(spec), field="architecture"
            )
        check_tau(info.get("tau"), spec)
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
        persona = lambda ex: ex.persona if self.persona else ()  # noqa: E731
        pairs = [view(ex.turns, stage.view, sep, persona(ex), self.user) for ex in examples]
        return predict_proba(model, tok, pairs, self.batch_size, self.max_length)

    def predict(self, examples: Sequence[DialogueExample]) -> list[Prediction]:
        probs = {st.name: self.stage_probs(st, examples) for st in self.stages}
        return [
            decide(self.stages, ex.id, {k: v[i] for k, v in probs.items()}, self.tau)
            for i, ex in enumerate(examples)
        ]

    def contradiction_scores(self, examples: Sequence[DialogueExample]) -> list[float]:
        return [p.contradiction_probability for p in self.predict(examples)]


def check_tau(tau: Any, spec: Path, required: bool = False, field: str = "tau") -> None:
    """A stored threshold is a number in [0, 1] (absent: argmax, unless ``required``)."""
    if tau is None and not required:
        return
    if isinstance(tau, bool) or not isinstance(tau, int | float) or not 0 <= tau <= 1:
        raise InputError(f"expected a number in [0, 1], got {tau!r}", path=str(spec), field=field)


def decide(
    stages: Sequence[Stage], item_id: str, probs: dict[str, list[float]], tau: float | None = None
) -> Prediction:
    """The category from stage probabilities. Without ``tau``: argmax of a 4-class stage, or the first
    binary stage (intra -> role -> history) whose positive probability exceeds 0.5, else none. With
    ``tau``: a contradiction when P(contradiction) exceeds it, of the most probable contradiction category."""
    if len(stages) == 1 and not stages[0].binary:
        p = probs[stages[0].name]
        by_label = dict(zip(DETECTOR_LABELS, p, strict=True))
        k = max(range(len(p)), key=p.__getitem__)
        if tau is not None:
            k = max(range(1, len(p)), key=p.__getitem__) if 1.0 - p[0] > tau else 0
        return Prediction(item_id, DETECTOR_LABELS[k], p[k], 1.0 - p[0], by_label)
    pos = {st.labels[1]: probs[st.name][1] for st in stages}
    none_p = 1.0
    for v in pos.values():
        none_p *= 1.0 - v
    if tau is not None:
        top = max(pos, key=pos.__getitem__)
        if 1.0 - none_p > tau:
            return Prediction(item_id, top, pos[top], 1.0 - none_p, pos)
        return Prediction(item_id, "none", none_p, 1.0 - none_p, pos)
    for st in stages:
        if pos[st.labels[1]] > 0.5:
            return Prediction(item_id, st.labels[1], pos[st.labels[1]], 1.0 - none_p, pos)
    return Prediction(item_id, "none", none_p, 1.0 - none_p, pos)


def write_detector_info(out: Path, info: dict[str, Any]) -> None:
    atomic_write_json(out / DETECTOR_FILE, info)


def check_version(stored: Any, current: int, spec: Path, field: str = "role_nli") -> bool:
    """Whether tau was picked with a versioned reading (absent or ``false``: without it), refusing another
    version than this consistest's."""
    if stored is False or stored is None:
        return False
    if not isinstance(stored, int) or isinstance(stored, bool):
        raise InputError(f"expected a rules version number, got {stored!r}", path=str(spec), field=field)
    if stored != current:
        what, name = {"qa_rules": ("the answer rules", "qa"), "role_nli": ("the role reading", "role")}[field]
        raise InputError(
            f"tau was picked with {what} {name}:{stored}, this consistest has {name}:{current}: "
            "calibrate again (train-detector --architecture nli-pairs --qa-rules)",
            path=str(spec),
            field=field,
        )
    return True
