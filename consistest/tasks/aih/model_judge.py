"""``--judge-model SPEC``: a chat model judges each inquiry beside the NLI judges.

The judge reads the utterance the bot was asked about, the question and the bot's answer, and answers one
word, ``consistent`` or ``contradiction`` (prompt files ``prompts/judge-<version>.txt``, sections as in
:mod:`consistest.models.judging`). An answer that avoids the question is consistent, as for the paper judge:
a contradiction must be stated. A reply without a label is asked again once with a reminder, then left
undecided with its raw text kept, never guessed.

Per inquiry, ``model`` is 1.0 (contradiction), 0.0 (consistent) or None (undecided: left out of every rate
and counted in the report) and ``model_raw`` keeps the judge's replies. The judge's calls are cached in
RUNDIR/judge.jsonl, so a killed run asks only what is missing and ends with the same verdicts. Its signature
value names everything that changes a verdict: ``judge-1[<judge model>@<prompt>,<decoding>]``, e.g.
``judge-1[openai:gpt-4o-mini@aih-v1,greedy-8]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.records import Conversation
from consistest.metrics.judge_labels import parse_choice
from consistest.models import judging
from consistest.models.base import ChatModel
from consistest.models.judging import (
    JudgeCache,
    JudgeOutput,
    Question,
    ask_closed,
    cache_lock,
    check_output,
    item_key,
    model_settings,
)
from consistest.models.registry import ModelSpec
from consistest.tasks.aih.judges import MODEL_KEY, contradiction

MODEL_JUDGE_VERSION = "1"  # bump when the reading of replies changes a verdict
AIHPrompt = Literal["aih-v1"]
AIH_PROMPTS: tuple[AIHPrompt, ...] = get_args(AIHPrompt)
DEFAULT_AIH_PROMPT: AIHPrompt = "aih-v1"
Label = Literal["consistent", "contradiction"]
LABELS: tuple[Label, ...] = get_args(Label)
VALUES: dict[str, float] = {"consistent": 0.0, "contradiction": 1.0}
RAW_KEY = "model_raw"


def check_prompt(name: str) -> AIHPrompt:
    if name not in AIH_PROMPTS:
        expected = ", ".join(AIH_PROMPTS)
        raise InputError(f"unknown judge prompt {name!r}, expected one of {expected}", field="judge-prompt")
    return name  # type: ignore[return-value]


def inquiry_conversation(prompt: str, inquiry: Mapping[str, Any], first: str | None = None) -> Conversation:
    """The judge's conversation for one inquiry; with ``first`` (its unparseable first answer), the retry."""
    sections = judging.prompt_sections(__package__, f"judge-{check_prompt(prompt)}.txt")
    fields = {k: inquiry[k] for k in ("utterance", "question", "answer")}
    return judging.prompt_conversation(sections, fields, first)


def read_label(text: str) -> float | None:
    """1.0 for ``contradiction``, 0.0 for ``consistent``, None for a reply that starts with neither."""
    label = parse_choice(text, LABELS)
    return None if label is None else VALUES[label]


@dataclass(frozen=True)
class ModelJudge:
    """A chat model judge of inquiries: ``model`` a spec, or a loaded ChatModel (a test's fake)."""

    model: ModelSpec | ChatModel
    prompt: str = DEFAULT_AIH_PROMPT
    output: JudgeOutput = "text"  # choice: the labels scored as whole replies (local HF chat models)

    def __post_init__(self) -> None:
        check_prompt(self.prompt)
        check_output(self.output)

    def tag(self) -> str:
        name, _, decoding = model_settings(self.model, self.output)
        return f"judge-{MODEL_JUDGE_VERSION}[{name}@{self.prompt},{decoding}]"

    def info(self) -> dict[str, Any]:
        """What aih.json records of the judge (its counts are added after judging)."""
        name, settings, decoding = model_settings(self.model, self.output)
        return {"tag": self.tag(), "model": name, "prompt": self.prompt, "decoding": decoding,
                "settings": settings}  # fmt: skip

    def questions(self, inquiries: Sequence[Mapping[str, Any]]) -> list[Question[float]]:
        name, settings, _ = model_settings(self.model)
        return [
            Question(
                item_key(self.prompt, name, settings, q["id"], _judged(q)),
                partial(inquiry_conversation, self.prompt, q),
                read_label,
                LABELS,
            )
            for q in inquiries
        ]

    def loader(self, quiet: bool) -> Any:
        model = self.model
        if isinstance(model, ModelSpec):
            return lambda: model.load(quiet=quiet)
        return lambda: model


def _judged(inquiry: Mapping[str, Any]) -> str:
    """The text whose verdict is asked (hashed into the cache key): a changed answer is asked again."""
    return "\n".join(str(inquiry[k]) for k in ("utterance", "question", "answer"))


def add_model_verdicts(
    inquiries: Sequence[Mapping[str, Any]], judge: ModelJudge, cache: Path | None, quiet: bool = True
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The inquiries with the judge's ``model`` verdict and ``model_raw`` replies; and the judge's record
    for aih.json (its tag and how many it decided, retried and left undecided)."""
    with cache_lock(cache):  # a second process judging into the same file is refused
        cached = JudgeCache(cache, judge.loader(quiet), quiet)
        verdicts = ask_closed(cached, judge.questions(inquiries), choice=judge.output == "choice")
    out = [{**q, MODEL_KEY: v.label, RAW_KEY: list(v.raw)} for q, v in zip(inquiries, verdicts, strict=True)]
    undecided = sum(v.label is None for v in verdicts)
    counts = {"judged": len(out), "decided": len(out) - undecided, "undecided": undecided,
              "retried": sum(v.retried for v in verdicts)}  # fmt: skip
    return out, {**judge.info(), **counts}


def counts_line(record: Mapping[str, Any]) -> str:
    """``model judge judge-1[...]: 190 decided, 11 undecided (retried 25)`` from its aih.json record."""
    return (f"model judge {record['tag']}: {record['decided']:,} decided, {record['undecided']:,} undecided "
            f"(retried {record['retried']:,})")  # fmt: skip


def judge_agreement(inquiries: Sequence[Mapping[str, Any]], tau: float) -> dict[str, dict[str, Any]]:
    """How often the model judge agrees with the paper and hybrid judges (hybrid: a contradiction when its
    score is below 0.5), on the inquiries both decided: the share and Cohen's kappa."""
    out = {}
    for other in ("paper", "hybrid"):
        pairs = [
            (int(m > 0.5), int(o > 0.5))
            for q in inquiries
            if (m := contradiction(q, "model", tau)) is not None
            and (o := contradiction(q, other, tau)) is not None
        ]
        out[other] = {"n": len(pairs), "agree": _share(pairs), "kappa": cohen_kappa(pairs)}
    return out


def _share(pairs: Sequence[tuple[int, int]]) -> float | None:
    return sum(a == b for a, b in pairs) / len(pairs) if pairs else None


def cohen_kappa(pairs: Sequence[tuple[int, int]]) -> float | None:
    """Cohen's kappa of two binary raters; None without pairs or when chance agreement is 1 (one label)."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    pa, pb = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return None if chance == 1 else (observed - chance) / (1 - chance)
