"""A chat model as a CDConv contradiction detector (``detect --judge SPEC``): for each dialogue's last bot
turn it answers one label of ``none``, ``intra``, ``role``, ``history`` (CDConv's categories, in their order).

The prompt is a versioned file (``prompts/judge-<version>.txt``, sections as in
:mod:`consistest.models.judging`): the category definitions as the system message, then the bot's persona
(when the example has one) and the dialogue as speaker-labelled turns, the judged turn last. The reply is
read strictly as one word label (:func:`consistest.metrics.judge_labels.parse_choice`); a reply with none
is asked once more with a reminder, then recorded as undecided (``category`` None, the raw replies kept),
never guessed as ``none``. Calls go through a resumable cache
(:class:`~consistest.models.judging.JudgeCache`).

The signature's ``method`` part names everything that changes a verdict:
``judge-1[<judge model>@<prompt version>,<decoding>]``, e.g. ``judge-1[openai:qwen@cdconv-v1,greedy-8]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal, get_args

from consistest.core.errors import InputError
from consistest.core.records import DETECTOR_LABELS, Conversation, DialogueExample
from consistest.core.signature import make_signature
from consistest.metrics.judge_labels import parse_choice
from consistest.models import judging
from consistest.models.base import ChatModel
from consistest.models.registry import ModelSpec

JUDGE_VERSION = "1"  # bump when the reading of replies or the asking changes a verdict
JudgePrompt = Literal["cdconv-v1"]
JUDGE_PROMPTS: tuple[JudgePrompt, ...] = get_args(JudgePrompt)
DEFAULT_JUDGE_PROMPT: JudgePrompt = "cdconv-v1"
USER, BOT = "User", "Bot"
LABELS_TEXT = f"{', '.join(DETECTOR_LABELS[:-1])} or {DETECTOR_LABELS[-1]}"


def check_prompt(name: str) -> JudgePrompt:
    if name not in JUDGE_PROMPTS:
        known = ", ".join(JUDGE_PROMPTS)
        raise InputError(f"unknown judge prompt {name!r}, expected one of {known}", field="judge-prompt")
    return name  # type: ignore[return-value]


def dialogue_text(ex: DialogueExample) -> str:
    """The turns, one a line, each with its speaker; the last is the bot's and speakers alternate."""
    n = len(ex.turns)
    return "\n".join(f"{BOT if (n - 1 - i) % 2 == 0 else USER}: {t}" for i, t in enumerate(ex.turns))


def persona_text(ex: DialogueExample) -> str:
    """The bot's persona as a block before the dialogue ("" when the example has none)."""
    lines = [" ".join(p.split()) for p in ex.persona if p.strip()]
    return "".join([f"{BOT}'s persona:\n", *(f"- {x}\n" for x in lines), "\n"]) if lines else ""


def item_conversation(prompt: str, ex: DialogueExample, first: str | None = None) -> Conversation:
    """The judge's conversation for one dialogue; with ``first`` (its unparseable first answer), the retry."""
    sections = judging.prompt_sections(__package__, f"judge-{check_prompt(prompt)}.txt")
    fields = dict(persona=persona_text(ex), dialogue=dialogue_text(ex), labels=LABELS_TEXT)
    return judging.prompt_conversation(sections, fields, first)


def parse_label(text: str) -> str | None:
    """One of ``DETECTOR_LABELS`` at the start of the reply, or None."""
    return parse_choice(text, DETECTOR_LABELS)


@dataclass(frozen=True)
class JudgePrediction:
    """The judge's label for one dialogue (None: undecided after the retry) and its raw replies."""

    id: str
    category: str | None
    judge_raw: list[str]
    retried: bool


@dataclass(frozen=True)
class JudgeDetector:
    """A chat model judging dialogues; ``model`` is a spec or a loaded ChatModel (a test's fake), ``cache``
    the JSONL file of its raw replies (None: in memory)."""

    model: ModelSpec | ChatModel
    prompt: str = DEFAULT_JUDGE_PROMPT
    cache: Path | None = field(default=None, compare=False)
    quiet: bool = True
    output: judging.JudgeOutput = "text"  # choice: the labels scored as whole replies (local HF chat models)

    def __post_init__(self) -> None:
        check_prompt(self.prompt)
        judging.check_output(self.output)

    def tag(self) -> str:
        name, _, decoding = judging.model_settings(self.model, self.output)
        return f"judge-{JUDGE_VERSION}[{name}@{self.prompt},{decoding}]"

    def signature(self) -> str:
        return make_signature([("task", "cdconv"), ("method", self.tag())])

    def predict(self, examples: Sequence[DialogueExample]) -> list[JudgePrediction]:
        """Each dialogue's label, asked at most twice (see ``ask_closed``)."""
        name, settings, _ = judging.model_settings(self.model)
        questions = [
            judging.Question(
                judging.item_key(self.prompt, name, settings, ex.id, persona_text(ex) + dialogue_text(ex)),
                partial(item_conversation, self.prompt, ex),
                parse_label,
                DETECTOR_LABELS,
            )
            for ex in examples
        ]
        model = self.model
        load = (lambda: model.load(quiet=self.quiet)) if isinstance(model, ModelSpec) else (lambda: model)
        with judging.cache_lock(self.cache):
            cached = judging.JudgeCache(self.cache, load, self.quiet)
            verdicts = judging.ask_closed(cached, questions, choice=self.output == "choice")
        return [
            JudgePrediction(ex.id, v.label, list(v.raw), v.retried)
            for ex, v in zip(examples, verdicts, strict=True)
        ]


def judge_cache_path(out: str | Path) -> Path:
    """``preds.jsonl`` -> ``preds.judge.jsonl``, beside the predictions and ``preds.metrics.json``."""
    return Path(str(Path(out).with_suffix("")) + ".judge.jsonl")
