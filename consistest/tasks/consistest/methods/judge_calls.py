"""A model judge's calls for ConsisTest: versioned prompt files, the conversations they make, and a cache
of the judge's raw replies in the run folder, appended and fsynced like generation, so a killed run resumes
without asking again and ends with the same verdicts.

A prompt file (``prompts/judge-<version>.txt``) has three sections: ``### system`` (the rubric: the paper's
Appendix C guidelines), ``### user`` (one item: fact, question, truth, reply, the allowed labels) and
``### retry`` (the reminder sent, after the judge's first reply, when that reply gave no allowed label).
Never edit a prompt in place: a new wording is a new version, named in the signature.

The judge sees a :class:`~consistest.core.records.Conversation` whose persona is the rubric, rendered
with the backends' ``system_prompt=persona`` (the system message is the rubric alone) and no cut of the
turns. Cache keys name the prompt version, the judge (model and the settings that change its replies), the
sample id, the hash of the judged reply and the attempt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.io import progress
from consistest.core.records import Conversation, Sample, Turn, content_hash
from consistest.core.rundir import AppendLog, read_log
from consistest.metrics.judge_labels import labels_text
from consistest.models.base import ChatModel, Item

JudgePrompt = Literal["consistest-v1"]
JUDGE_PROMPTS: tuple[JudgePrompt, ...] = get_args(JudgePrompt)
DEFAULT_JUDGE_PROMPT: JudgePrompt = "consistest-v1"
_SECTIONS = ("system", "user", "retry")


def check_prompt(name: str) -> JudgePrompt:
    if name not in JUDGE_PROMPTS:
        raise InputError(
            f"unknown judge prompt {name!r}, expected one of {', '.join(JUDGE_PROMPTS)}", field="judge-prompt"
        )
    return name  # type: ignore[return-value]


@cache
def prompt_sections(name: str) -> dict[str, str]:
    """The prompt file's sections (system, user, retry), read from the package."""
    text = (resources.files(__package__) / "prompts" / f"judge-{check_prompt(name)}.txt").read_text("utf-8")
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("### "):
            current = out.setdefault(line[4:].strip(), [])
        elif current is not None:
            current.append(line)
    if set(out) != set(_SECTIONS):
        raise ValueError(f"judge prompt {name!r} must have the sections {_SECTIONS}, has {tuple(out)}")
    return {k: "\n".join(v).strip() for k, v in out.items()}


def item_conversation(prompt: str, s: Sample, reply: str, first: str | None = None) -> Conversation:
    """The judge's conversation for one reply; with ``first`` (its unparseable first answer), the retry."""
    p = prompt_sections(prompt)
    labels = labels_text(s.type)
    user = p["user"].format(fact=s.fact, question=s.question, truth=s.answer, reply=reply, labels=labels)
    turns = [Turn("user", user)]
    if first is not None:
        turns += [Turn("assistant", first), Turn("user", p["retry"].format(labels=labels))]
    return Conversation(persona=(p["system"],), turns=tuple(turns))


def call_key(
    prompt: str, judge: str, settings: dict[str, Any], sample_id: str, reply: str, attempt: int
) -> str:
    """The cache key of one judge call."""
    return f"{content_hash(prompt, judge, settings, sample_id, content_hash(reply))}-{attempt}"


@dataclass
class JudgeCache:
    """Raw judge replies by call key: read from ``path`` (JSONL, a line cut by a kill dropped), new ones
    appended and fsynced chunk by chunk as the model yields them; ``path=None`` keeps them in memory."""

    path: Path | None
    load: Callable[[], ChatModel]
    quiet: bool = True

    def __post_init__(self) -> None:
        self.done: dict[str, str] = {}
        if self.path is not None:
            try:
                logged = read_log(self.path)
            except InputError as e:  # read_log's hint (--overwrite) is not how a judge cache is reset
                msg = str(e.message).removesuffix("; use --overwrite")
                raise InputError(f"{msg}; delete this judge cache or name another one", path=e.path,
                                 record=e.record, field=e.field) from None  # fmt: skip
            self.done = {k: str(v.get("reply", "")) for k, v in logged.items()}
        self._model: ChatModel | None = None

    def ask(self, items: Sequence[Item], desc: str = "judge") -> dict[str, str]:
        """Every item's raw reply; the model is loaded and asked only for items not in the cache (batches
        planned over all ``items``, as generation does, so a resumed run asks the same batches). Items with
        one key (the same reply to one sample, given by two models) are asked once."""
        items = list(dict(items).items())
        todo = [k for k, _ in items if k not in self.done]
        if todo:
            self._model = self._model or self.load()
            bar = progress(total=len(items), initial=len(items) - len(todo), unit="reply", desc=desc,
                           quiet=self.quiet)  # fmt: skip
            log = AppendLog(self.path) if self.path is not None else None
            try:
                for chunk in self._model.stream(items, frozenset(self.done)):
                    new = [(k, r) for k, r in chunk if k not in self.done]
                    if log is not None:
                        log.append({"id": k, "reply": r} for k, r in new)
                    self.done.update(new)
                    bar.update(len(new))
            finally:
                bar.close()
                if log is not None:
                    log.close()
        return {k: self.done[k] for k, _ in items}
