"""Chat models on CTranslate2 (``ct2:DIR``): a HF model converted by ``consistest models convert MODEL --to
ct2 --out DIR`` (:mod:`consistest.models.ct2_convert`), run by a C++ inference engine on CPU or CUDA.

Conversations become token ids exactly as for the HF backend (:class:`~consistest.models.hf_encoding.
HFEncoding` with the tokenizer in ``DIR/hf``: speaker tokens, ``chat_template`` or ``transcript``), and
replies are decoded the same way. Under greedy decoding each distinct input is generated once, in batches
of ``batch_size`` inputs (or tokens, ``batch_type=tokens``) sorted by length and planned over all items,
so a resumed run repeats the same batches; float32 replies equal the HF backend's (the tests check it on
BART, T5, GPT-2 and a Llama chat model). Sampling runs one item at a time, each on a freshly started
engine seeded from (seed, item id), so an item's text never depends on what ran before; beam search is
CTranslate2's own. Generation-config settings that change greedy replies are carried over when the engine
does the same thing (suppressed tokens, forced first and last tokens of seq2seq models,
``no_repeat_ngram_size``, ``min_new_tokens``); any other is refused rather than silently dropped. The
signature's model value names the engine, its version and the quantization:
``ct2:DIR[ctranslate2-4.8.5-int8]``.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from consistest.core.errors import InputError
from consistest.models.base import Chunk, Item
from consistest.models.ct2_convert import COMPUTE_TYPES, HF_DIR, CT2Manifest, engine_version, read_manifest
from consistest.models.ct2_support import _decoder_start, _hf_parts, batches, engine_call, generation_options
from consistest.models.decoding import Decoding
from consistest.models.hf_chat import BATCH_SIZE_OPTION, DEFAULT_BATCH_SIZE, DEVICE_OPTION, DEVICES
from consistest.models.hf_chat import prompt_tag as hf_prompt_tag
from consistest.models.hf_encoding import HFEncoding
from consistest.models.hf_loader import folder_weights, load_error
from consistest.models.options import ModelOption, settings_from
from consistest.models.refill_support import eos_ids
from consistest.models.rendering import (
    DEFAULT_SPEAKERS,
    DEFAULT_SYSTEM_PROMPT,
    DEFAULT_TRANSCRIPT,
    RENDER_OPTIONS,
    check_rendering,
)

USES_DECODING = True
BatchType = Literal["examples", "tokens"]
BATCH_TYPES: tuple[BatchType, ...] = get_args(BatchType)
FLUSH_SECONDS = 2.0  # finished replies are handed over (appended, fsynced) at most this often


@dataclass(frozen=True)
class CT2Settings:
    """How the engine runs (none of it changes a reply) and how conversations are rendered (as for HF)."""

    device: str = "auto"
    batch_size: int = DEFAULT_BATCH_SIZE  # inputs per batch (tokens per batch with batch_type=tokens)
    batch_type: str = "examples"
    threads: int = 0  # CPU threads; 0: $OMP_NUM_THREADS when set, else the CPUs this process may use
    chat_template: bool = False
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    transcript: bool = False
    speaker_tokens: tuple[str, str] = DEFAULT_SPEAKERS
    utterance_max_tokens: int = 32

    def __post_init__(self) -> None:
        if self.device not in DEVICES:
            raise InputError(f"unknown device {self.device!r}, expected one of {', '.join(DEVICES)}")
        if self.batch_type not in BATCH_TYPES:
            raise InputError(
                f"expected one of {', '.join(BATCH_TYPES)}, got {self.batch_type!r}", field="batch_type"
            )
        if self.batch_size < 1:
            raise InputError(f"must be at least 1, got {self.batch_size}", field="batch-size")
        if self.threads < 0:
            raise InputError(f"must be >= 0 (0: default), got {self.threads}", field="threads")
        check_rendering(
            chat_template=self.chat_template,
            transcript=self.transcript,
            system_prompt=self.system_prompt,
            utterance_max_tokens=self.utterance_max_tokens,
        )

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CT2Settings:
        return settings_from(cls, options)

    def cpu_threads(self) -> int:
        if self.threads:
            return self.threads
        env = os.environ.get("OMP_NUM_THREADS", "").strip()
        if env.isdigit() and int(env) > 0:
            return int(env)
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


OPTIONS = frozenset(f.name for f in fields(CT2Settings))  # what a bot spec may set (ct2:DIR,threads=1)
CLI_OPTIONS: tuple[ModelOption, ...] = (
    *RENDER_OPTIONS,
    DEVICE_OPTION,
    BATCH_SIZE_OPTION,
    ModelOption("batch_type", BATCH_TYPES, "examples", "ct2: batch by inputs (examples) or by tokens "
                "(--batch-size then counts tokens)."),
    ModelOption("threads", int, 0, "ct2: CPU threads (0: $OMP_NUM_THREADS when set, else every CPU this "
                "process may use)."),
)  # fmt: skip


def _render_options(options: Mapping[str, Any]) -> dict[str, Any]:
    s = CT2Settings.from_options(options)
    return {k: getattr(s, k) for k in ("chat_template", "system_prompt", "transcript", "speaker_tokens",
                                      "utterance_max_tokens")}  # fmt: skip


def settings(name: str, decoding: Decoding, options: Mapping[str, Any]) -> dict[str, Any]:
    """What changes a reply: rendering, the converted model (its source, as the manifest names it, and the
    folder's files, so a folder converted again from another model, or from the same folder holding
    another model, does not resume a run of the first), engine version, quantization and decoding (not
    device, batching or threads)."""
    r = CT2Settings.from_options(options)
    m = read_manifest(name)
    return {
        **folder_weights(name, (HF_DIR,)),
        "speaker_tokens": list(r.speaker_tokens),
        "utterance_max_tokens": r.utterance_max_tokens,
        "chat_template": r.chat_template,
        **({"system_prompt": r.system_prompt} if r.chat_template else {}),
        **({"transcript": DEFAULT_TRANSCRIPT} if r.transcript else {}),
        "source": m.source,
        "engine": f"ctranslate2-{engine_version()}",
        "quantization": m.quantization,
        **decoding.settings(),
    }


def prompt_tag(name: str, options: Mapping[str, Any]) -> str:
    """As for HF models: ``speakers``, ``chat-<system prompt>`` or ``transcript-v1``."""
    return hf_prompt_tag(name, _render_options(options))


def engine_tag(name: str, options: Mapping[str, Any]) -> str:
    """``ctranslate2-4.8.5-int8``: the engine, its version and the quantization, for the signature."""
    return f"ctranslate2-{engine_version()}-{read_manifest(name).quantization}"


def load(name: str, decoding: Decoding, options: Mapping[str, Any], quiet: bool = False) -> CT2ChatModel:
    return CT2ChatModel(name, decoding, CT2Settings.from_options(options), quiet=quiet)


class CT2ChatModel(HFEncoding):
    """A CTranslate2 generator or translator as a ChatModel."""

    def __init__(self, folder: str, decoding: Decoding | None = None, settings: CT2Settings | None = None,
                 *, quiet: bool = False):  # fmt: skip
        settings = settings or CT2Settings()
        self.manifest: CT2Manifest = read_manifest(folder)
        engine_version()
        tok, config, gc = _hf_parts(folder)
        super().__init__(folder, tok, config, gc, decoding or Decoding(), settings)
        self.gen = generation_options(gc, not self.decoder_only)
        self.start = _decoder_start(config, gc)
        self.eos = sorted(self.stop_ids) if self.decoder_only else eos_ids(gc)
        self.engine = self._engine(folder, settings)
        self.quiet = quiet

    def _engine(self, folder: str, s: CT2Settings) -> Any:
        import ctranslate2

        device = s.device
        if device == "auto":
            device = "cuda" if ctranslate2.get_cuda_device_count() > 0 else "cpu"
        elif device == "cuda" and ctranslate2.get_cuda_device_count() == 0:
            raise InputError(
                "--device cuda was asked for but CTranslate2 sees no CUDA device", field="device"
            )
        kind = ctranslate2.Generator if self.decoder_only else ctranslate2.Translator
        compute = COMPUTE_TYPES[self.manifest.quantization]
        try:
            return kind(str(folder), device=device, compute_type=compute, inter_threads=1,
                        intra_threads=s.cpu_threads())  # fmt: skip
        except (RuntimeError, ValueError) as e:
            raise load_error(folder, "ct2 model", e) from None

    # -- generation -----------------------------------------------------------------------------------------
    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        """Yield replies chunk by chunk for every item not in ``skip`` (planned over all ``items``)."""
        if self.decoding.do_sample:
            yield from self._stream_sampled(items, skip)
            return
        done: Chunk = []
        last = time.monotonic()
        for batch in batches(self.groups(items), self.cfg.batch_size, self.cfg.batch_type == "tokens"):
            if all(i in skip for _, ids in batch for i in ids):
                continue
            texts = self.generate([list(ids) for ids, _ in batch])
            done += [
                (i, text) for (_, ids), text in zip(batch, texts, strict=True) for i in ids if i not in skip
            ]
            if time.monotonic() - last >= FLUSH_SECONDS:
                yield done
                done, last = [], time.monotonic()
        if done:
            yield done

    def _stream_sampled(self, items: Sequence[Item], skip: Set[str]) -> Iterator[Chunk]:
        """One item at a time, each on a freshly started engine: CTranslate2 seeds a worker thread's random
        generator once, when the thread starts, so a seed set later would not reach it."""
        import ctranslate2

        for item_id, conv in items:
            if item_id in skip:
                continue
            self.engine = None  # release the model before loading it again
            ctranslate2.set_random_seed(random.Random(f"{self.decoding.seed}:{item_id}").getrandbits(31))
            self.engine = self._engine(self.name, self.cfg)
            yield [(item_id, self.generate([self.encode(conv)])[0])]

    def generate(self, inputs: list[list[int]]) -> list[str]:
        """The reply texts to one batch of encoded inputs."""
        tokens = [self.tok.convert_ids_to_tokens(x) for x in inputs]
        dec, gen = self.decoding, self.gen
        kw: dict[str, Any] = dict(
            max_batch_size=0, beam_size=dec.num_beams, end_token=self.eos or None, return_end_token=False,
            no_repeat_ngram_size=gen.get("no_repeat_ngram_size", 0),
        )  # fmt: skip
        if dec.do_sample:
            kw.update(sampling_topk=0, sampling_topp=dec.top_p, sampling_temperature=dec.temperature)
        if gen.get("suppress_ids"):
            kw["suppress_sequences"] = [[t] for t in self.tok.convert_ids_to_tokens(gen["suppress_ids"])]
        if self.decoder_only:
            res = engine_call(
                self.engine.generate_batch, tokens, max_length=dec.max_new_tokens,
                include_prompt_in_result=False, min_length=gen.get("min_new_tokens", 0), **kw,
            )  # fmt: skip
            return [self._decode(r.sequences_ids[0]) for r in res]
        prefix = None
        if "forced_bos" in gen:
            prefix = [[self.tok.convert_ids_to_tokens(gen["forced_bos"])]] * len(tokens)
        longest = dec.max_new_tokens - (1 if gen.get("forced_eos") else 0)  # HF forces EOS as the last token
        res = engine_call(
            self.engine.translate_batch, tokens, prefix, max_decoding_length=max(longest, 1),
            min_decoding_length=gen.get("min_new_tokens", 0), max_input_length=0, **kw,
        )  # fmt: skip
        texts = []
        for r in res:
            ids = self.tok.convert_tokens_to_ids(r.hypotheses[0])[:longest]
            texts.append(self._decode([self.start, *ids]))  # as generate's rows begin
        return texts
