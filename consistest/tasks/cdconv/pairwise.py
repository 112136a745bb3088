"""``nli-pairs``: a contradiction detector without training, the NLI guard applied pairwise.

The last bot turn is checked against each earlier bot turn (``history``) and each persona sentence of the
bot (``persona``), and, when asked, its sentences against each other (``intra``); with ``unit=sentence``
every turn is split into sentences first. The dialogue's contradiction score is the largest
P(contradiction) over its pairs; above ``tau`` the last turn is a contradiction, of the category of that
pair's source (history and persona -> ``history``, intra -> ``intra``).

With ``qa`` (``--qa-rules``) the last turn is read with the user's question before it, when the user asked
one (:mod:`consistest.metrics.answers`): a yes/no answer is spelled out as the statement it makes ("no ." to
"do you have a dog ?" -> "i don't have a dog ."), the guard reads only the sentences on the question's topic
(where none is, or the user asked nothing, only pairs of sentences that share a topic: ``shares_topic``),
with contractions spelled out (:mod:`consistest.metrics.contractions`), and where the answer rules can tell
(the reply only returns the question, contradicts its own yes/no word, takes the other stand than the
persona and earlier turns, or gives another value) they decide and the guard does not read the dialogue.

``tau`` is picked on labelled dev dialogues (``pick_tau``: the threshold that maximises balanced accuracy,
the mean of the recall of contradictions and of consistent turns; among equally good thresholds the
lower median) and stored with the guard's name and weight hash in ``detector.json``, so ``consistest detect``
reproduces the decisions, and refuses a guard whose weights changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.io import read_json
from consistest.core.records import DialogueExample
from consistest.metrics.answers import (
    ANSWERS_VERSION,
    Evidence,
    answer_statement,
    is_question,
    on_topic,
    qa_evidence,
)
from consistest.metrics.clean import reply_sentences
from consistest.metrics.contractions import guard_reading
from consistest.metrics.propositions import shares_topic, states_something
from consistest.models.base import ProbabilisticNLI, label_probabilities
from consistest.tasks.cdconv.detector import DETECTOR_FILE, Prediction, check_tau, check_version
from consistest.tasks.cdconv.regimes import RegimeTaus, asks, bot_turns, question_of, regime_taus, tau_for
from consistest.tasks.cdconv.role_nli import ROLE_NLI_VERSION, role_claims
from consistest.tasks.cdconv.threshold import TAU_RULE, labelled_dev, pick_tau

ARCHITECTURE = "nli-pairs"
Source = Literal["history", "persona", "intra"]
SOURCES: tuple[Source, ...] = get_args(Source)
Unit = Literal["turn", "sentence"]
UNITS: tuple[Unit, ...] = get_args(Unit)
CATEGORY: dict[str, str] = {"history": "history", "persona": "history", "intra": "intra"}


@dataclass(frozen=True)
class PairSettings:
    """Which pairs the guard reads: their sources and whether turns are split into sentences."""

    sources: tuple[Source, ...] = ("history", "persona")
    unit: Unit = "sentence"
    qa: bool = False  # read the last turn with the user's question (the answer rules)
    roles: bool = False  # with qa: the guard reads claims of the user's facts in other words (role_nli)
    guard_pairs: bool = True  # off (with qa): the guard reads no contradiction pairs; the rules decide

    def __post_init__(self) -> None:
        if not self.guard_pairs and not self.qa:
            raise InputError("without the guard's pairs only the answer rules decide: add --qa-rules",
                             field="guard_pairs")  # fmt: skip

    def tag(self) -> str:
        qa = f"/qa:{ANSWERS_VERSION}" + (f"+role:{ROLE_NLI_VERSION}" if self.roles else "")
        off = "" if self.guard_pairs else "/no-guard-pairs"
        return f"{'+'.join(self.sources)}/{self.unit}" + (qa if self.qa else "") + off


def _parts(text: str, unit: Unit) -> list[str]:
    parts = reply_sentences(text) if unit == "sentence" else [text]
    return [p.strip() for p in parts if any(c.isalnum() for c in p)] or ([text] if text.strip() else [])


def premises(ex: DialogueExample, unit: Unit = "sentence") -> list[tuple[str, Source]]:
    """The speaker's earlier statements, earlier turns first, then persona sentences."""
    earlier = [(p, "history") for t in bot_turns(ex.turns) for p in _parts(t, unit)]
    return [*earlier, *((p, "persona") for p in ex.persona if p.strip())]  # type: ignore[misc]


def example_pairs(ex: DialogueExample, settings: PairSettings) -> list[tuple[str, str, Source]]:
    """Every (premise, hypothesis, source) the guard reads for one dialogue."""
    reply = answer_statement(question_of(ex), ex.turns[-1]) if settings.qa else ex.turns[-1]
    last = _parts(reply, settings.unit)
    before = [(p, src) for p, src in premises(ex, settings.unit) if src in settings.sources]
    if settings.qa:  # a part that states nothing contradicts nothing and is contradicted by nothing
        last = [h for h in last if states_something(h)]
        before = [(p, src) for p, src in before if states_something(p)]
    asked = settings.qa and is_question(question_of(ex))
    kept = set(on_topic(question_of(ex), [p for p, _ in before])) if asked else set()
    before = [(p, src) for p, src in before if p in kept] or before
    pairs: list[tuple[str, str, Source]] = [(p, h, src) for p, src in before for h in last]
    if settings.qa and not kept:  # no question's topic: statements about different things do not clash
        pairs = [(p, h, src) for p, h, src in pairs if shares_topic(p, h)]
    if "intra" in settings.sources:
        sents = _parts(reply, "sentence")
        pairs += [(a, b, "intra") for i, a in enumerate(sents) for b in sents[i + 1 :]]
    return pairs


def rule_evidence(examples: Sequence[DialogueExample], settings: PairSettings) -> list[Evidence | None]:
    """The answer rules' verdict per dialogue, against the premises of the settings' sources (None
    everywhere without ``qa``)."""
    if not settings.qa:
        return [None] * len(examples)
    return [
        qa_evidence(
            question_of(ex),
            ex.turns[-1],
            [p for p, src in premises(ex) if src in settings.sources],
            ex.turns[:-1],
            ex.persona if "persona" in settings.sources else (),
        )
        for ex in examples
    ]


def scored(
    nli: ProbabilisticNLI, examples: Sequence[DialogueExample], settings: PairSettings
) -> tuple[list[dict[str, float]], list[Evidence | None]]:
    """The rules' verdicts (with ``roles``, the guard's reading of claims in other words after them), and
    the guard's scores for the dialogues they leave (empty for the others, and for every one without
    ``guard_pairs``: the guard does not read them)."""
    rules = rule_evidence(examples, settings)
    if settings.qa and settings.roles:
        left = [i for i, ev in enumerate(rules) if ev is None]
        claims = role_claims(nli, [examples[i] for i in left])
        for i, claim in zip(left, claims, strict=True):
            rules[i] = None if claim is None else Evidence("contradiction", "claim-nli")
    if not settings.guard_pairs:
        return [{} for _ in rules], rules
    left = [ex for ex, ev in zip(examples, rules, strict=True) if ev is None]
    it = iter(contradiction_scores(nli, left, settings))
    return [next(it) if ev is None else {} for ev in rules], rules


def dialogue_score(scores: dict[str, float], evidence: Evidence | None) -> float:
    """The score tau is compared with: the rules' verdict where they have one (1 or 0), else the largest
    P(contradiction)."""
    if evidence is not None:
        return float(evidence.verdict == "contradiction")
    return max(scores.values(), default=0.0)


def contradiction_scores(
    nli: ProbabilisticNLI, examples: Sequence[DialogueExample], settings: PairSettings
) -> list[dict[str, float]]:
    """Per dialogue, the largest P(contradiction) of each source (0 where it has none); one batched call.
    With ``qa`` the guard reads each pair with its contractions spelled out, and a statement said again
    word for word scores 0."""
    per = [example_pairs(ex, settings) for ex in examples]
    read = {(p, h): guard_reading(p, h) if settings.qa else (p, h) for pairs in per for p, h, _ in pairs}
    probs = label_probabilities(nli, [r for r in read.values() if r is not None], "contradiction")
    out = []
    for pairs in per:
        best = dict.fromkeys(settings.sources, 0.0)
        for p, h, src in pairs:
            pair = read[(p, h)]
            best[src] = max(best[src], 0.0 if pair is None else probs[pair])
        out.append(best)
    return out


def decide(
    item_id: str, scores: dict[str, float], tau: float, evidence: Evidence | None = None
) -> Prediction:
    """The rules' verdict where they have one; else a contradiction when the largest score exceeds tau, of
    the category of its source."""
    if evidence is not None:  # scored 1 or 0 against tau, as when tau was picked
        p = float(evidence.verdict == "contradiction")
        category = (evidence.category or "none") if p > tau else "none"
        return Prediction(item_id, category, 1.0, p, {f"rule:{evidence.rule}": p})
    src = max(scores, key=scores.__getitem__) if scores else "history"
    top = scores.get(src, 0.0)
    category = CATEGORY[src] if top > tau else "none"
    return Prediction(item_id, category, top if category != "none" else 1.0 - top, top, dict(scores))


class PairwiseDetector:
    """A calibrated ``nli-pairs`` folder: loads its guard, checks it is the one tau was picked with."""

    def __init__(
        self, directory: str | Path, *, batch_size: int = 64, device: str = "cpu", nli: str | None = None
    ) -> None:
        from consistest.models.nli import load_nli, nli_signature

        self.dir = Path(directory)
        self.info: dict[str, Any] = read_json(self.dir / DETECTOR_FILE)
        check_tau(self.info.get("tau"), self.dir / DETECTOR_FILE, required=True)  # before loading the guard
        qa = check_qa_rules(self.info.get("qa_rules", False), self.dir / DETECTOR_FILE)
        statement = self.info.get("tau_statement")  # absent before regimes: one tau for every turn
        check_tau(statement, self.dir / DETECTOR_FILE, field="tau_statement")
        if statement is not None and not qa:
            raise InputError(
                "tau_statement is a threshold of --qa-rules, and this detector reads no answer rules",
                path=str(self.dir / DETECTOR_FILE),
                field="tau_statement",
            )
        pairs = self.info.get("guard_pairs", True)  # absent before it could be switched off
        if not isinstance(pairs, bool) or not (pairs or qa):
            got = "must be true or false" if not isinstance(pairs, bool) else "false needs the answer rules"
            raise InputError(f"guard_pairs {got} (got {pairs!r}); without the pairs add --qa-rules",
                             path=str(self.dir / DETECTOR_FILE), field="guard_pairs")  # fmt: skip
        spec = nli or self.info["guard"]
        guard = load_nli(spec, batch_size=batch_size, device=device, quiet=True)
        if not isinstance(guard, ProbabilisticNLI):
            raise InputError(f"the guard {guard.name!r} gives no probabilities", field="nli")
        if nli_signature(guard) != self.info["guard_signature"]:
            raise InputError(
                f"the guard {nli_signature(guard)} is not the one tau was picked with "
                f"({self.info['guard_signature']}): calibrate again "
                "(train-detector --architecture nli-pairs)",
                path=str(spec),
            )
        self.guard = guard
        self.tau = float(self.info["tau"])
        self.tau_statement = None if statement is None else float(statement)
        roles = check_version(self.info.get("role_nli", False), ROLE_NLI_VERSION, self.dir / DETECTOR_FILE)
        if roles and not qa:
            raise InputError(
                "role_nli is a reading of --qa-rules, and this detector reads no answer rules",
                path=str(self.dir / DETECTOR_FILE),
                field="role_nli",
            )
        self.settings = PairSettings(tuple(self.info["sources"]), self.info["unit"], bool(qa), roles, pairs)

    def predict(self, examples: Sequence[DialogueExample]) -> list[Prediction]:
        scores, rules = scored(self.guard, examples, self.settings)
        return [
            decide(ex.id, s, tau_for(ex, self.tau, self.tau_statement), ev)
            for ex, s, ev in zip(examples, scores, rules, strict=True)
        ]


def check_qa_rules(stored: Any, spec: Path) -> bool:
    """Whether tau was picked with the answer rules, refusing another version of them (``true`` was the
    first; absent or ``false``: without them)."""
    return check_version(1 if stored is True else stored, ANSWERS_VERSION, spec, "qa_rules")


def calibrate(
    spec: str,
    settings: PairSettings,
    dev: dict[str, Sequence[DialogueExample]],
    out: Path,
    *,
    statement_dev: Sequence[DialogueExample] = (),
    batch_size: int = 64,
    device: str = "cpu",
) -> dict[str, Any]:
    """Pick tau on the labelled dialogues of the dev sets (with ``qa``, one per regime: ``regimes``, the
    turns after a statement of ``statement_dev`` too); the folder's ``detector.json`` content."""
    from consistest.core.records import content_hash
    from consistest.core.signature import make_signature
    from consistest.models.nli import load_nli, nli_signature

    if not set(settings.sources) <= set(SOURCES) or not settings.sources or settings.unit not in UNITS:
        raise InputError(f"pairs come from {', '.join(SOURCES)}, by turn or sentence", field="pairs")
    guard = load_nli(spec, batch_size=batch_size, device=device, quiet=True)
    if not isinstance(guard, ProbabilisticNLI):
        raise InputError(f"the guard {guard.name!r} gives no probabilities", field="nli")
    labelled = every = labelled_dev(dev)
    if settings.qa:  # the dev split's turns after a statement too, each dialogue once
        seen = {ex.id for ex in labelled}
        extra = {ex.id: ex for ex in statement_dev if ex.label and not asks(ex) and ex.id not in seen}
        every = [*labelled, *extra.values()]
    pair_scores, rules = scored(guard, every, settings)
    scores = [dialogue_score(s, ev) for s, ev in zip(pair_scores, rules, strict=True)]
    if settings.qa:
        picked = regime_taus(scores, every, len(labelled))
    else:
        picked = RegimeTaus(*pick_tau(scores, [ex.label != "none" for ex in labelled]), len(labelled))
    picked_on = every if picked.tau_statement is not None else labelled  # what the thresholds read
    dev_hash = content_hash(sorted((ex.id, ex.label) for ex in picked_on))
    local = Path(spec).expanduser()
    statement = [] if picked.tau_statement is None else [("tau-statement", f"{picked.tau_statement:.4f}")]
    signature = make_signature(
        [("task", "cdconv"), ("method", ARCHITECTURE), ("nli", nli_signature(guard)),
         ("pairs", settings.tag()), ("tau", f"{picked.tau:.4f}"), *statement, ("dev", dev_hash[:12])]
    )  # fmt: skip
    return {
        "architecture": ARCHITECTURE,
        "guard": str(local.resolve()) if local.is_dir() else spec,
        "guard_signature": nli_signature(guard),
        "tau": picked.tau,
        "tau_statement": picked.tau_statement,
        "tau_rule": TAU_RULE,
        "dev_balanced_accuracy": picked.balanced,
        "dev_balanced_accuracy_statement": picked.balanced_statement,
        "tau_dialogues": {"tau": picked.n, "tau_statement": picked.n_statement},
        "sources": list(settings.sources),
        "unit": settings.unit,
        "qa_rules": ANSWERS_VERSION if settings.qa else False,
        "role_nli": ROLE_NLI_VERSION if settings.qa and settings.roles else False,
        "guard_pairs": settings.guard_pairs,
        "dev": {name: sum(ex.label is not None for ex in v) for name, v in dev.items()},
        "signature": signature,
    }
