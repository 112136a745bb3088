"""What a bot-bot run is: the bots (each a chat model with its own decoding), the conversation plan, the
inquirer and the judges; parsed from ``NAME=SPEC[,key=value...]`` strings or a YAML/JSON file."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.core.io import read_text
from consistest.models.decoding import Decoding
from consistest.models.nli import DEFAULT_NLI
from consistest.models.questions import DEFAULT_ANSWER_AWARE_QG
from consistest.models.registry import ModelSpec, parse_model_spec
from consistest.tasks.aih.model_judge import ModelJudge

InquirerKind = Literal["rules", "neural", "statements"]
OpenerKind = Literal["hello", "dialogues"]
INQUIRERS: tuple[InquirerKind, ...] = get_args(InquirerKind)
OPENERS: tuple[OpenerKind, ...] = get_args(OpenerKind)
DEFAULT_TAU = 0.15  # the paper's threshold on P(contradiction)
# Nucleus sampling p=0.9 as in the paper; replies of chat models need more room than ConsisTest answers.
DEFAULT_DECODING = Decoding(max_new_tokens=40, do_sample=True, top_p=0.9)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Bot:
    """A named chat model; ``persona=False`` for bots that bring their own (no PersonaChat persona)."""

    name: str
    model: ModelSpec
    persona: bool = True

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise InputError(
                f"bot name {self.name!r}: use letters, digits, '_', '.', '-' (first a letter or digit)",
                field="bot",
            )

    def settings(self) -> dict[str, Any]:
        """What changes this bot's replies (stored with the run, compared on resume)."""
        return {"model": self.model.name, "persona": self.persona, **self.model.settings()}

    def signature_value(self) -> str:
        """``name=model@decoding[@rendering][@no-persona]``: ``smol=models/smollm2@sample-t1.3-p0.9-s0-40@
        chat-persona-v1``."""
        prompt = self.model.prompt_value()
        value = f"{self.name}={self.model.name}@{self.model.signature_value()}"
        return value + (f"@{prompt}" if prompt else "") + ("" if self.persona else "@no-persona")


def parse_bot(text: str, decoding: Decoding = DEFAULT_DECODING, options: Mapping[str, Any] = {}) -> Bot:
    """``NAME=SPEC[,key=value...]``: decoding keys override ``decoding``; ``persona=false`` drops the
    persona; other keys are backend options over ``options`` (device, batch_size, chat_template...)."""
    name, sep, spec = text.partition("=")
    if not sep or not spec.strip():
        raise InputError(f"expected --bot NAME=SPEC[,key=value...], got {text!r}", field="bot")
    model = parse_model_spec(spec, decoding, options, extra_keys=("persona",))
    return _with_persona(name.strip(), model)


def _with_persona(name: str, model: ModelSpec) -> Bot:
    opts = dict(model.options)
    persona = opts.pop("persona", True)
    if not isinstance(persona, bool):
        raise InputError(f"bot {name!r}: persona must be true or false, got {persona!r}", field="bot")
    return Bot(name, ModelSpec(model.spec, model.decoding, opts), persona)


def bots_from_file(
    path: Path, decoding: Decoding = DEFAULT_DECODING, options: Mapping[str, Any] = {}
) -> list[Bot]:
    """Bots from YAML/JSON ``{bots: {NAME: SPEC-string | {model: SPEC, key: value, ...}}}``."""
    import yaml

    try:
        data = yaml.load(read_text(path), Loader=_unique_keys_loader())  # noqa: S506 (a SafeLoader)
    except _RepeatedKey as e:
        raise InputError(
            f"{e.key!r} appears twice in one mapping (YAML keeps only the last); give each bot one entry",
            path=str(path),
            record=f"line {e.line}",
        ) from None
    except yaml.YAMLError as e:
        raise InputError(f"invalid YAML/JSON: {str(e).splitlines()[0]}", path=str(path)) from None
    bots = data.get("bots") if isinstance(data, dict) else None
    if not isinstance(bots, dict) or not bots:
        raise InputError("expected {bots: {NAME: SPEC or {model: SPEC, ...}}}", path=str(path))
    out = []
    for name, value in bots.items():
        if isinstance(value, str):
            out.append(parse_bot(f"{name}={value}", decoding, options))
            continue
        if not isinstance(value, dict) or not isinstance(value.get("model"), str):
            raise InputError("expected a spec string or a mapping with 'model'", path=str(path), record=name)
        rest = ",".join(f"{k}={_value(v)}" for k, v in value.items() if k != "model")
        out.append(parse_bot(f"{name}={value['model']}" + (f",{rest}" if rest else ""), decoding, options))
    return out


class _RepeatedKey(Exception):
    def __init__(self, key: object, line: int) -> None:
        self.key, self.line = key, line


def _unique_keys_loader() -> Any:
    """A SafeLoader that refuses a key repeated in one mapping (a bot named twice)."""
    import yaml

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                if key in seen:
                    raise _RepeatedKey(key, key_node.start_mark.line + 1)
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return Loader


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


@dataclass(frozen=True)
class ConverseConfig:
    """Every setting of a bot-bot run. ``dialogues`` gives the personas (and dialogue openers)."""

    bots: tuple[Bot, ...]
    out: Path
    dialogues: Path | None = None
    conversations: int = 10
    turns: int = 15
    self_pairs: bool = False
    opener: OpenerKind = "hello"
    seed: int = 0
    inquirer: InquirerKind = "rules"
    inquiry_delays: tuple[int, ...] = (0,)  # ask about utterance n after the bot's utterance n + 2d
    qg_model: str = DEFAULT_ANSWER_AWARE_QG
    nli: str = DEFAULT_NLI
    nli_labels: str | None = None
    tau: float = DEFAULT_TAU
    model_judge: ModelJudge | None = None  # a chat model judge beside the NLI judges (--judge-model)
    device: str = "cpu"  # of the NLI and QG models
    batch_size: int = 32
    overwrite: bool = False
    quiet: bool = False
    extra_models: Mapping[str, Any] = field(default_factory=dict)  # spec -> ChatModel factory (tests)

    def __post_init__(self) -> None:
        names = [b.name for b in self.bots]
        if len(set(names)) != len(names):
            raise InputError(f"bot names must be unique, got {', '.join(names)}", field="bot")
        if len(self.bots) < (1 if self.self_pairs else 2):
            raise InputError("give at least two bots (or one with --self-pairs)", field="bot")
        _check(self.conversations >= 1, "conversations", "must be at least 1")
        _check(self.turns >= 2, "turns", "must be at least 2 (inquiries start at a bot's second reply)")
        _check(0.0 < self.tau < 1.0, "tau", "must lie between 0 and 1")
        _check(self.opener in OPENERS, "opener", f"expected one of {', '.join(OPENERS)}")
        _check(self.inquirer in INQUIRERS, "inquirer", f"expected one of {', '.join(INQUIRERS)}")
        delays = self.inquiry_delays
        _check(bool(delays) and len(set(delays)) == len(delays) and min(delays) >= 0, "inquiry_delay",
               f"expected distinct delays >= 0, got {list(delays)}")  # fmt: skip
        _check(max(delays) <= self.turns - 2, "inquiry_delay",
               f"a delay of {max(delays)} bot turns never fits in {self.turns} turns (the first inquiry is "
               f"about the bot's second reply): at most {self.turns - 2}")  # fmt: skip
        needs = any(b.persona for b in self.bots) or self.opener == "dialogues"
        why = "personas and dialogue openers come from a dialogue file; pass --dialogues or --no-persona"
        _check(not needs or self.dialogues is not None, "dialogues", why)

    def pairs(self) -> list[tuple[str, str]]:
        """Ordered (partner, evaluated) pairs, self-pairs only when asked for."""
        names = sorted(b.name for b in self.bots)
        return [(a, b) for a in names for b in names if a != b or self.self_pairs]

    def bot(self, name: str) -> Bot:
        return next(b for b in self.bots if b.name == name)


def _check(ok: bool, name: str, message: str) -> None:
    if not ok:
        raise InputError(message, field=name.replace("_", "-"))


def bots_from_options(
    specs: Sequence[str], config: Path | None, decoding: Decoding, options: Mapping[str, Any]
) -> tuple[Bot, ...]:
    """The CLI's --bot strings and --bots FILE together."""
    bots = [parse_bot(s, decoding, options) for s in specs]
    if config is not None:
        bots += bots_from_file(config, decoding, options)
    if not bots:
        raise InputError("no bots: give --bot NAME=SPEC (repeatable) or --bots FILE", field="bot")
    return tuple(bots)
