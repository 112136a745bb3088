"""``judge``: a chat model judges replies with the paper's Appendix C rubric (Y/N 0/1, WH 0/0.5/1).

``score --method judge --judge SPEC``: SPEC is any chat model spec (a local HF chat model folder,
``openai:NAME,api_base=URL,concurrency=8``, ``baseline:...``), with its own decoding and backend keys.
With ``when="uncertain"`` (the default) the paper's hybrid decides first: the rules decide what they
decide alone, the NLI guard decides its clear cases (entailment or contradiction), and only the rest
(a neutral guard label, or no NLI model) goes to the judge; ``when="all"`` judges every reply (to validate
the judge with ``agree``). The judge's reply is read strictly as one label of the closed set
(:mod:`consistest.metrics.judge_labels`); an unparseable reply is retried once with a reminder, then
recorded as undecided (score None) with the raw texts kept, never guessed. With ``output="choice"`` a local
HF chat model scores each allowed label as its whole reply instead and the most probable is taken
(:mod:`consistest.models.label_scores`); ``transformers serve`` refuses ``response_format``, so a served
judge's text is read strictly.

The signature value names everything that changes a verdict:
``judge-1[<judge model>@<prompt version>,<decoding or choice>,<when>]``, e.g.
``judge-1[openai:gpt-4o-mini@consistest-v1,greedy-8,uncertain-paper]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.metrics.clean import clean_response
from consistest.metrics.judge_labels import JUDGE_LABELS, parse_judge_label
from consistest.metrics.rules import Need
from consistest.models.base import NLI, ChatModel
from consistest.models.judging import (
    JudgeCache,
    JudgeOutput,
    Question,
    ask_closed,
    cache_lock,
    check_output,
    item_key,
)
from consistest.models.registry import ModelSpec
from consistest.tasks.consistest.methods.base import Judged
from consistest.tasks.consistest.methods.judge_calls import (
    DEFAULT_JUDGE_PROMPT,
    check_prompt,
    item_conversation,
)
from consistest.tasks.consistest.methods.paper import PaperMethod

JUDGE_VERSION = "1"  # bump when the cascade or the reading of replies changes a verdict
JudgeWhen = Literal["uncertain", "all"]

JUDGE_WHEN: tuple[JudgeWhen, ...] = get_args(JudgeWhen)
Stage = Literal["rules", "guard", "judge"]
STAGES: tuple[Stage, ...] = get_args(Stage)


@dataclass(frozen=True)
class JudgeMethod:
    """The judge method; ``model`` is the judge (a spec, or a loaded ChatModel such as a test's fake),
    ``cache`` the JSONL file of its raw replies (None: in memory)."""

    name: str = "judge"
    model: ModelSpec | ChatModel | None = None
    prompt: str = DEFAULT_JUDGE_PROMPT
    when: JudgeWhen = "uncertain"
    output: JudgeOutput = "text"
    cache: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        check_prompt(self.prompt)
        if self.when not in JUDGE_WHEN:
            raise InputError(
                f"expected one of {', '.join(JUDGE_WHEN)}, got {self.when!r}", field="judge-when"
            )
        check_output(self.output)

    @property
    def judge_name(self) -> str:
        if self.model is None:
            raise InputError("--method judge needs a judge model: --judge SPEC", field="judge")
        return self.model.name

    def decoding_value(self) -> str:
        """How the judge's label is produced: its decoding (``greedy-8``), or ``choice`` (labels scored)."""
        if self.output == "choice":
            return "choice"
        return self.model.signature_value() if isinstance(self.model, ModelSpec) else "none"

    def tag(self) -> str:
        when = "uncertain-paper" if self.when == "uncertain" else "all"
        return f"judge-{JUDGE_VERSION}[{self.judge_name}@{self.prompt},{self.decoding_value()},{when}]"

    def settings(self) -> dict[str, Any]:
        """What changes the judge's replies (part of every cache key)."""
        return self.model.settings() if isinstance(self.model, ModelSpec) else {}

    def judge(
        self, samples: Sequence[Sample], replies: Sequence[str], nli: NLI | None, *, quiet: bool = True
    ) -> list[Judged]:
        if self.when == "all":
            base = [Judged("judged", None, "none", clean_response(r), None, None) for r in replies]
            stages: list[str] = ["judge"] * len(replies)
        else:
            base = PaperMethod().judge(samples, replies, nli, quiet=quiet)
            stages = [cascade_stage(j) for j in base]
        todo = [i for i, st in enumerate(stages) if st == "judge"]
        verdicts = self.verdicts([samples[i] for i in todo], [replies[i] for i in todo], quiet)
        out = [
            Judged(j.outcome, j.rule_score, j.nli_use, j.cleaned, j.nli_label, j.score, {"stage": st})
            for j, st in zip(base, stages, strict=True)
        ]
        for i, (score, detail) in zip(todo, verdicts, strict=True):
            j = base[i]
            out[i] = Judged(j.outcome, j.rule_score, j.nli_use, j.cleaned, j.nli_label, score, detail)
        log.info(stages_line(stage_counts([j.detail for j in out])), quiet=quiet)
        return out

    def verdicts(
        self, samples: Sequence[Sample], replies: Sequence[str], quiet: bool
    ) -> list[tuple[float | None, dict[str, Any]]]:
        """The judge's score and record for each reply (asked twice at most, see ``ask_closed``)."""
        if not samples:
            return []
        name, settings = self.judge_name, self.settings()
        questions = [
            Question(
                item_key(self.prompt, name, settings, s.id, r),
                partial(item_conversation, self.prompt, s, r),
                partial(parse_judge_label, qtype=s.type),
                JUDGE_LABELS[s.type],
            )
            for s, r in zip(samples, replies, strict=True)
        ]
        with cache_lock(self.cache):  # a second process judging into the same file is refused
            cache = JudgeCache(self.cache, self._loader(quiet), quiet)
            verdicts = ask_closed(cache, questions, choice=self.output == "choice")
        return [
            (v.label, {"stage": "judge", "judge_score": v.label, "judge_raw": list(v.raw)}) for v in verdicts
        ]

    def _loader(self, quiet: bool) -> Any:
        model = self.model
        if isinstance(model, ModelSpec):
            return lambda: model.load(quiet=quiet)
        return lambda: model


def cascade_stage(j: Judged) -> Stage:
    """Who decides a reply in the cascade: the rules alone, the guard's clear label, or the judge."""
    if j.nli_use == Need.NONE.value:
        return "rules"
    if j.nli_label in ("entailment", "contradiction"):
        return "guard"
    return "judge"


def stage_counts(details: Sequence[dict[str, Any] | None]) -> dict[str, int]:
    """How many replies each stage decided, how many the judge was asked twice and left undecided (from
    each verdict's ``Judged.detail``, or ``ScoredItem.judge``)."""
    details = [d or {} for d in details]
    by = Counter(str(d.get("stage")) for d in details)
    asked = [d for d in details if d.get("stage") == "judge"]
    return {
        **{st: by.get(st, 0) for st in STAGES},
        "judge_retried": sum(len(d.get("judge_raw", ())) > 1 for d in asked),
        "judge_undecided": sum(d.get("judge_score") is None for d in asked),
    }


def stages_line(counts: dict[str, int]) -> str:
    return (
        f"decided by: rules {counts['rules']:,}, guard {counts['guard']:,}, judge {counts['judge']:,} "
        f"(retried {counts['judge_retried']:,}, undecided {counts['judge_undecided']:,})"
    )
