"""A chat model as a judge, for any method: the judge's spec, versioned prompt files, a resumable cache of its
raw replies, and asking for a closed label (once, then once more with a reminder, then undecided).

Every method's judge (ConsisTest scores, AIH contradiction recognition, CDConv categories) uses these parts
and brings only its prompt files, its conversations and its label parser. Nothing here knows a benchmark.

A prompt file has the sections ``### system`` (the rubric, the whole system message), ``### user`` (one item,
with ``{placeholders}``) and ``### retry`` (the reminder sent after a first reply with no allowed label).
Never edit a prompt in place: a new wording is a new version, named in the signature.

The cache is a JSONL file in the run folder, appended and fsynced chunk by chunk as the model yields them, so
a killed run resumes without asking again and ends with the same verdicts. Keys name the prompt version, the
judge (model and the settings that change its replies), the item, the hash of what is judged and the attempt.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, get_args

from consistest.core.errors import InputError
from consistest.core.io import progress
from consistest.core.records import Conversation, Turn, content_hash
from consistest.core.rundir import AppendLog, read_log
from consistest.models.base import ChatModel, Item, LabelScorer
from consistest.models.decoding import Decoding
from consistest.models.registry import ModelSpec, backend, parse_model_spec

T = TypeVar("T")
# text: the judge writes its reply, read strictly; choice: each allowed label's log-probability as the whole
# reply is scored and the most probable taken (models that are LabelScorers: never unparseable).
JudgeOutput = Literal["text", "choice"]
JUDGE_OUTPUTS: tuple[JudgeOutput, ...] = get_args(JudgeOutput)
PROMPT_SECTIONS = ("system", "user", "retry")
JUDGE_DECODING = Decoding(max_new_tokens=8)  # a label needs a few tokens; greedy
# How every backend that renders conversations shows a judge's: the rubric as the whole system message, no
# cut of the item (each backend takes the keys it reads).
JUDGE_RENDERING: dict[str, Any] = {
    "chat_template": True,
    "system_prompt": "persona",
    "utterance_max_tokens": 0,
}


def judge_spec(text: str, field: str = "judge", decoding: Decoding = JUDGE_DECODING) -> ModelSpec:
    """``--judge SPEC[,key=value...]`` -> the judge's ModelSpec: greedy, 8 new tokens and the judge rendering
    unless the spec says otherwise."""
    spec = text.partition(",")[0].strip()
    if not spec:
        raise InputError(f"--{field} needs a chat model spec, e.g. openai:NAME or a HF chat model folder",
                         field=field)  # fmt: skip
    known = backend(spec).OPTIONS
    return parse_model_spec(text, decoding, {k: v for k, v in JUDGE_RENDERING.items() if k in known})


def model_settings(model: ModelSpec | ChatModel, output: str = "text") -> tuple[str, dict[str, Any], str]:
    """(name, settings that change its replies, how its label is made for the signature: its decoding, or
    ``choice``) of a judge spec or a loaded model (a test's fake: no settings, decoding ``none``)."""
    name, settings = model.name, model.settings() if isinstance(model, ModelSpec) else {}
    if output == "choice":
        return name, settings, "choice"
    return name, settings, model.signature_value() if isinstance(model, ModelSpec) else "none"


def check_output(output: str) -> None:
    if output not in JUDGE_OUTPUTS:
        raise InputError(f"expected one of {', '.join(JUDGE_OUTPUTS)}, got {output!r}", field="judge-output")


@cache
def prompt_sections(package: str, filename: str) -> dict[str, str]:
    """A prompt file's sections (system, user, retry), read from ``package``'s ``prompts`` folder."""
    text = (resources.files(package) / "prompts" / filename).read_text("utf-8")
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("### "):
            current = out.setdefault(line[4:].strip(), [])
        elif current is not None:
            current.append(line)
    if set(out) != set(PROMPT_SECTIONS):
        msg = f"judge prompt {filename!r} must have the sections {PROMPT_SECTIONS}, has {tuple(out)}"
        raise ValueError(msg)
    return {k: "\n".join(v).strip() for k, v in out.items()}


def prompt_conversation(
    sections: dict[str, str], fields: dict[str, Any], first: str | None = None
) -> Conversation:
    """The judge's conversation for one item; with ``first`` (its unparseable first answer), the retry."""
    turns = [Turn("user", sections["user"].format(**fields))]
    if first is not None:
        turns += [Turn("assistant", first), Turn("user", sections["retry"].format(**fields))]
    return Conversation(persona=(sections["system"],), turns=tuple(turns))


def item_key(prompt: str, judge: str, settings: dict[str, Any], item_id: str, judged: str) -> str:
    """The cache key stem of one item's judge calls (``judged``: the text whose verdict is asked, hashed);
    attempt n is cached under ``<stem>-<n>``."""
    return content_hash(prompt, judge, settings, item_id, content_hash(judged))


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
        one key (the same text judged twice) are asked once."""
        items = list(dict(items).items())
        todo = [k for k, _ in items if k not in self.done]
        if todo:
            model = self._loaded()
            self._record(len(items), len(todo), model.stream(items, frozenset(self.done)), desc)
        return {k: self.done[k] for k, _ in items}

    def choose(
        self, items: Sequence[tuple[str, Conversation, tuple[str, ...]]], desc: str = "judge"
    ) -> dict[str, str]:
        """Every item's scored labels, as the JSON text ``{"choice": label, "logprobs": {label: lp}}``: the
        model (it must be a :class:`~consistest.models.base.LabelScorer`) scores only what is not cached."""
        unique = {k: (k, conv, labels) for k, conv, labels in items}
        todo = [x for k, x in unique.items() if k not in self.done]
        if todo:
            model = self._loaded()
            if not isinstance(model, LabelScorer):
                msg = (
                    f"judge {model.name!r} cannot score labels (--judge-output choice needs a HF chat model)"
                )
                raise InputError(msg, field="judge-output")

            def chunks() -> Iterator[list[tuple[str, str]]]:
                for start in range(0, len(todo), CHOICE_CHUNK):
                    part = todo[start : start + CHOICE_CHUNK]
                    scores = model.label_logprobs([(k, c) for k, c, _ in part], [x[2] for x in part])
                    yield [(k, choice_text(sc)) for (k, *_), sc in zip(part, scores, strict=True)]

            self._record(len(unique), len(todo), chunks(), desc)
        return {k: self.done[k] for k in unique}

    def _loaded(self) -> ChatModel:
        self._model = self._model or self.load()
        return self._model

    def _record(self, total: int, todo: int, chunks: Iterator[list[tuple[str, str]]], desc: str) -> None:
        """Take replies chunk by chunk, appending each chunk to the cache file (fsynced) as it comes."""
        bar = progress(total=total, initial=total - todo, unit="reply", desc=desc, quiet=self.quiet)
        log = AppendLog(self.path) if self.path is not None else None
        try:
            for chunk in chunks:
                new = [(k, r) for k, r in chunk if k not in self.done]
                if log is not None:
                    log.append({"id": k, "reply": r} for k, r in new)
                self.done.update(new)
                bar.update(len(new))
        finally:
            bar.close()
            if log is not None:
                log.close()


CHOICE_CHUNK = 8  # items scored between two appends to the cache


def choice_text(scores: dict[str, float]) -> str:
    """The cached record of one scored choice: the best label and every label's log-probability."""
    best = max(scores, key=lambda label: (scores[label], label))
    return json.dumps(
        {"choice": best, "logprobs": {k: round(v, 6) for k, v in scores.items()}}, sort_keys=True
    )


@dataclass(frozen=True)
class Question(Generic[T]):
    """One item put to a judge: its cache key stem, how to ask (and re-ask after a reply with no label), and
    how to read a label from a reply (None: no allowed label)."""

    key: str
    ask: Callable[[str | None], Conversation]  # None -> first question; a first reply -> the retry
    parse: Callable[[str], T | None]
    labels: tuple[str, ...] = ()  # the closed set as reply texts (for choice: scored, the best taken)


@dataclass(frozen=True)
class Verdict(Generic[T]):
    """A judge's label for one item (None: undecided after the retry) and its raw replies, kept."""

    label: T | None
    raw: tuple[str, ...]

    @property
    def retried(self) -> bool:
        return len(self.raw) > 1


def ask_closed(
    cache: JudgeCache, questions: Sequence[Question[T]], desc: str = "judge", choice: bool = False
) -> list[Verdict[T]]:
    """Each question's verdict: asked once, once more where the first reply gave no allowed label; still
    none -> undecided (label None), never guessed. Both rounds go through ``cache``. ``choice``: the labels
    are scored instead (:meth:`JudgeCache.choose`) and the most probable is the verdict."""
    if not questions:
        return []
    if choice:
        raw = cache.choose([(f"{q.key}-c", q.ask(None), q.labels) for q in questions], desc=desc)
        return [
            Verdict(q.parse(json.loads(raw[f"{q.key}-c"])["choice"]), (raw[f"{q.key}-c"],)) for q in questions
        ]
    first = cache.ask([(f"{q.key}-1", q.ask(None)) for q in questions], desc=desc)
    labels = [q.parse(first[f"{q.key}-1"]) for q in questions]
    again = [q for q, label in zip(questions, labels, strict=True) if label is None]
    second = cache.ask([(f"{q.key}-2", q.ask(first[f"{q.key}-1"])) for q in again], desc=f"{desc} retry")
    out = []
    for q, label in zip(questions, labels, strict=True):
        raw = (first[f"{q.key}-1"],) if label is not None else (first[f"{q.key}-1"], second[f"{q.key}-2"])
        out.append(Verdict(label if label is not None else q.parse(raw[-1]), raw))
    return out


@contextmanager
def cache_lock(path: Path | None) -> Iterator[None]:
    """Hold an flock on the cache file while judging (a second process is refused; a killed holder's lock
    goes with it); refuse a file whose first record is not a judge call. An empty file left by a run that
    asked nothing is removed."""
    if path is None:
        yield
        return
    if path.is_file() and path.stat().st_size:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = f.readline()
        try:
            obj = json.loads(first)
        except json.JSONDecodeError:
            obj = None
        if not isinstance(obj, dict) or set(obj) != {"id", "reply"}:
            raise InputError("is not a judge cache ({'id', 'reply'} per line); name another cache file",
                             path=str(path), record="line 1")  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError("another consistest process is judging into this cache; wait for it to end",
                             path=str(path)) from None  # fmt: skip
        yield
    finally:
        if os.fstat(fd).st_size == 0:
            path.unlink(missing_ok=True)
        os.close(fd)
