"""The ConsisTest judge's prompts: versioned files (``prompts/judge-<version>.txt``, sections as in
:mod:`consistest.models.judging`) and the conversation each makes for one reply: fact, question, truth,
reply and the labels allowed for the item type (Appendix C: Y/N 0/1, WH 0/0.5/1)."""

from __future__ import annotations

from typing import Literal, get_args

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Sample
from consistest.metrics.judge_labels import labels_text
from consistest.models import judging

# consistest-v1: the paper's Appendix C guidelines as the rubric (the default). consistest-generous-v1: the
# generous wording of widely used long-term-memory judge prompts ("as long as it touches on the same topic
# as the correct answer, count it as correct"), kept to measure how much a judge prompt moves a score
# (consistest rejudge), not to score with.
JudgePrompt = Literal["consistest-v1", "consistest-generous-v1"]
JUDGE_PROMPTS: tuple[JudgePrompt, ...] = get_args(JudgePrompt)
DEFAULT_JUDGE_PROMPT: JudgePrompt = "consistest-v1"


def check_prompt(name: str) -> JudgePrompt:
    if name not in JUDGE_PROMPTS:
        raise InputError(
            f"unknown judge prompt {name!r}, expected one of {', '.join(JUDGE_PROMPTS)}", field="judge-prompt"
        )
    return name  # type: ignore[return-value]


def prompt_sections(name: str) -> dict[str, str]:
    """The prompt file's sections (system, user, retry)."""
    return judging.prompt_sections(__package__, f"judge-{check_prompt(name)}.txt")


def item_conversation(prompt: str, s: Sample, reply: str, first: str | None = None) -> Conversation:
    """The judge's conversation for one reply; with ``first`` (its unparseable first answer), the retry."""
    fields = dict(fact=s.fact, question=s.question, truth=s.answer, reply=reply, labels=labels_text(s.type))
    return judging.prompt_conversation(prompt_sections(prompt), fields, first)
