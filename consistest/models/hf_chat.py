"""Hugging Face chat models behind ``ChatModel``: seq2seq (BART, T5) or decoder-only (GPT-2, Llama...).

The architecture comes from ``config.is_encoder_decoder``; the model is a hub id or a local directory.
Conversations are rendered with speaker tokens (models fine-tuned on PersonaChat), the tokenizer's chat
template (``chat_template``) or a plain-text transcript for base models (``transcript``, the reply ends at
the first line break), see :mod:`consistest.models.rendering`. Under deterministic decoding (greedy,
beam) each distinct encoded input is generated once, in batches of inputs sorted by length, planned over
all items so a resumed run repeats the same batches. Sampling runs one item at a time with a seed derived
from (seed, item id), so an item's text never depends on its batch or on what ran before.
Encoding and decoding are :class:`~consistest.models.hf_encoding.HFEncoding`'s, shared with the CTranslate2
backend. torch/transformers are imported lazily.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from consistest.core import log as log_
from consistest.core.errors import InputError
from consistest.models.base import Chunk, Item
from consistest.models.decoding import Decoding
from consistest.models.hf_encoding import HFEncoding
from consistest.models.hf_loader import folder_weights, load_pretrained, resolve_device
from consistest.models.options import ModelOption, settings_from
from consistest.models.refill import SEGMENT_BATCHES, RefillDecoder
from consistest.models.refill_support import unsupported
from consistest.models.rendering import (
    DEFAULT_SPEAKERS,
    DEFAULT_SYSTEM_PROMPT,
    DEFAULT_TRANSCRIPT,
    RENDER_OPTIONS,
    check_rendering,
)

Device = Literal["auto", "cpu", "cuda"]
DType = Literal["auto", "float32", "float16", "bfloat16"]
DEVICES: tuple[Device, ...] = get_args(Device)
DTYPES: tuple[DType, ...] = get_args(DType)
DEFAULT_BATCH_SIZE = 32
USES_DECODING = True


@dataclass(frozen=True)
class HFSettings:
    """How a HF model is run and how conversations are rendered for it."""

    device: str = "auto"
    dtype: str = "auto"
    batch_size: int = DEFAULT_BATCH_SIZE
    chat_template: bool = False
    system_prompt: str = DEFAULT_SYSTEM_PROMPT  # with chat_template only
    transcript: bool = False  # base models: a plain-text transcript (rendering.transcript_text)
    speaker_tokens: tuple[str, str] = DEFAULT_SPEAKERS
    utterance_max_tokens: int = 32

    def __post_init__(self) -> None:
        if self.device not in DEVICES:
            raise InputError(f"unknown device {self.device!r}, expected one of {', '.join(DEVICES)}")
        if self.dtype not in DTYPES:
            raise InputError(f"unknown dtype {self.dtype!r}, expected one of {', '.join(DTYPES)}")
        if self.batch_size < 1:
            raise InputError(f"must be at least 1, got {self.batch_size}", field="batch-size")
        check_rendering(
            chat_template=self.chat_template,
            transcript=self.transcript,
            system_prompt=self.system_prompt,
            utterance_max_tokens=self.utterance_max_tokens,
        )

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> HFSettings:
        return settings_from(cls, options)


OPTIONS = frozenset(f.name for f in fields(HFSettings))  # what a bot spec may set (hf:DIR,chat_template=true)
# Device and batch size also serve the NLI model of the commands that have one.
DEVICE_OPTION = ModelOption("device", DEVICES, "auto")
BATCH_SIZE_OPTION = ModelOption("batch_size", int, DEFAULT_BATCH_SIZE)
CLI_OPTIONS: tuple[ModelOption, ...] = (
    *RENDER_OPTIONS,
    DEVICE_OPTION,
    ModelOption("dtype", DTYPES, "auto", "auto = float32 on CPU, the checkpoint's dtype on CUDA."),
    BATCH_SIZE_OPTION,
)


def settings(name: str, decoding: Decoding, options: Mapping[str, Any]) -> dict[str, Any]:
    """What changes a reply: the model (a local folder's files, see ``folder_weights``), rendering, dtype
    and decoding (not device or batch size)."""
    hf = HFSettings.from_options(options)
    return {
        **folder_weights(name),
        "speaker_tokens": list(hf.speaker_tokens),
        "utterance_max_tokens": hf.utterance_max_tokens,
        "chat_template": hf.chat_template,
        **({"system_prompt": hf.system_prompt} if hf.chat_template else {}),
        **({"transcript": DEFAULT_TRANSCRIPT} if hf.transcript else {}),
        "dtype": hf.dtype,
        **decoding.settings(),
    }


def prompt_tag(name: str, options: Mapping[str, Any]) -> str:
    """The signature's ``prompt:`` value: ``speakers``, ``chat-<system prompt>`` or ``transcript-v1``."""
    hf = HFSettings.from_options(options)
    if hf.transcript:
        return DEFAULT_TRANSCRIPT
    return f"chat-{hf.system_prompt}" if hf.chat_template else "speakers"


def engine_tag(name: str, options: Mapping[str, Any]) -> None:
    """The model's own framework (transformers): nothing to add (see ``registry``)."""
    return None


def load(name: str, decoding: Decoding, options: Mapping[str, Any], quiet: bool = False) -> HFChatModel:
    return HFChatModel(name, decoding, HFSettings.from_options(options), quiet=quiet)


def _load(spec: str, dtype: str, device: str, quiet: bool) -> tuple[Any, Any]:
    """Tokenizer and model (seq2seq or causal LM, from the config), in eval mode on ``device``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM

    torch_dtype = "auto" if dtype == "auto" and device != "cpu" else getattr(torch, dtype, torch.float32)
    tok, model = load_pretrained(
        spec,
        lambda config: AutoModelForSeq2SeqLM if config.is_encoder_decoder else AutoModelForCausalLM,
        what="model",
        quiet=quiet,
        dtype=torch_dtype,
    )
    return tok, model.to(device).eval()


class HFChatModel(HFEncoding):
    """A Hugging Face generator as a ChatModel."""

    def __init__(
        self,
        model: str,
        decoding: Decoding | None = None,
        settings: HFSettings | None = None,
        *,
        quiet: bool = False,
        log: Callable[[str], None] | None = None,
    ):
        settings = settings or HFSettings()
        self.device = resolve_device(settings.device)
        tok, self.model = _load(model, settings.dtype, self.device, quiet)
        config, gc = self.model.config, self.model.generation_config
        super().__init__(model, tok, config, gc, decoding or Decoding(), settings, log=log)
        self._refill_decoder: RefillDecoder | None | bool = False  # False: not decided yet
        self.quiet = quiet

    # -- generation -----------------------------------------------------------------------------------------
    def plan(self, items: Sequence[Item]) -> list[list[tuple[tuple[int, ...], list[str]]]]:
        """Batches of :meth:`groups` for ``generate``; under greedy refill, the slices run one at a time."""
        size = self.cfg.batch_size * (SEGMENT_BATCHES if self._refill() is not None else 1)
        ordered = self.groups(items)
        return [ordered[i : i + size] for i in range(0, len(ordered), size)]

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        """Yield replies chunk by chunk for every item not in ``skip`` (planned over all ``items``)."""
        if self.decoding.do_sample:
            yield from self._stream_sampled(items, skip)
            return
        refill = self._refill()
        for batch in self.plan(items):
            if all(i in skip for _, ids in batch for i in ids):
                continue
            inputs = [list(ids) for ids, _ in batch]
            if refill is None:
                done = [list(enumerate(self.generate(inputs)))]
            else:
                start = [] if refill.start is None else [refill.start]  # as generate's rows begin
                done = ([(k, self._decode(start + toks)) for k, toks in part] for part in refill.run(inputs))
            for part in done:
                yield [(i, text) for k, text in part for i in batch[k][1] if i not in skip]

    def _refill(self) -> RefillDecoder | None:
        """The greedy refill decoder when decoding is greedy and it reproduces ``generate`` for the model."""
        if self._refill_decoder is False:
            dec = self.decoding
            gc = self._generation_config()
            why = "not greedy" if dec.do_sample or dec.num_beams > 1 else unsupported(self.model, gc)
            self._refill_decoder = None
            if why is None:
                self._refill_decoder = RefillDecoder(
                    self.model, gc, batch_size=self.cfg.batch_size, max_new_tokens=dec.max_new_tokens,
                    pad_id=self.pad_id,
                )  # fmt: skip
            elif not (dec.do_sample or dec.num_beams > 1):
                log_.info(f"plain generate batches for {self.name!r}: {why}", quiet=self.quiet)
        return self._refill_decoder

    def _generation_config(self) -> Any:
        """The model's generation config with this run's settings, as ``generate`` merges them."""
        import copy

        gc = copy.deepcopy(self.model.generation_config)
        gc.update(**self._generate_kwargs())
        return gc

    def _generate_kwargs(self) -> dict[str, Any]:
        dec = self.decoding
        kwargs: dict[str, Any] = {"max_new_tokens": dec.max_new_tokens, "num_beams": dec.num_beams}
        if dec.do_sample:
            kwargs.update(do_sample=True, temperature=dec.temperature, top_p=dec.top_p, top_k=0)
        else:
            kwargs.update(do_sample=False)
        if self.decoder_only:
            kwargs.update(pad_token_id=self.pad_id, eos_token_id=sorted(self.stop_ids))
        return kwargs

    def _stream_sampled(self, items: Sequence[Item], skip: Set[str]) -> Iterator[Chunk]:
        import torch

        for item_id, conv in items:
            if item_id in skip:
                continue
            torch.manual_seed(random.Random(f"{self.decoding.seed}:{item_id}").getrandbits(63))
            yield [(item_id, self.generate([self.encode(conv)])[0])]

    def label_logprobs(
        self, items: Sequence[Item], labels: Sequence[Sequence[str]]
    ) -> list[dict[str, float]]:
        """Each label's log-probability as the whole reply (:mod:`consistest.models.label_scores`)."""
        from consistest.models.label_scores import label_logprobs

        if not self.decoder_only:
            raise InputError(f"model {self.name!r} is an encoder-decoder: labels are scored for decoder-only "
                             "chat models; use --judge-output text", field="judge-output")  # fmt: skip
        return label_logprobs(self, [c for _, c in items], labels)

    def generate(self, inputs: list[list[int]]) -> list[str]:
        """Decode one padded batch (left padding for decoder-only models) and return the reply texts."""
        import torch

        width = max(len(x) for x in inputs)
        pads = [[self.pad_id] * (width - len(x)) for x in inputs]
        ones = [[1] * len(x) for x in inputs]
        zeros = [[0] * len(p) for p in pads]
        if self.decoder_only:  # left padding: the reply continues right after each input
            rows = [p + x for x, p in zip(inputs, pads, strict=True)]
            masks = [z + o for o, z in zip(ones, zeros, strict=True)]
        else:
            rows = [x + p for x, p in zip(inputs, pads, strict=True)]
            masks = [o + z for o, z in zip(ones, zeros, strict=True)]
        input_ids = torch.tensor(rows, device=self.device)
        attention_mask = torch.tensor(masks, device=self.device)
        with torch.inference_mode():
            out = self.model.generate(
                input_ids=input_ids, attention_mask=attention_mask, **self._generate_kwargs()
            )
        if self.decoder_only:
            out = out[:, width:]
        return [self._decode(row.tolist()) for row in out]
