"""Conversations as token ids with a Hugging Face tokenizer, and generated ids back to reply text: the part of
a HF chat model that does not depend on the engine that runs it.

The HF backend (:mod:`consistest.models.hf_chat`, torch) and the CTranslate2 backend
(:mod:`consistest.models.ct2_chat`) both subclass :class:`HFEncoding`, so a model sees exactly the same ids
whichever engine runs it: speaker tokens, the tokenizer's chat template or a plain-text transcript (see
:mod:`consistest.models.rendering`), each turn cut to ``utterance_max_tokens``, inputs longer than the
model's positions cut from the start, the same stop tokens and the same decoding of the reply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from consistest.core import log as log_
from consistest.core.errors import InputError
from consistest.core.records import Conversation
from consistest.models.base import Item
from consistest.models.decoding import Decoding
from consistest.models.rendering import chat_messages, encode_ids, transcript_text

TOKEN_CACHE = 200_000  # texts whose ids are kept (cleared when full)
Groups = list[tuple[tuple[int, ...], list[str]]]  # (distinct input ids, the item ids sharing it)


class Rendering(Protocol):
    """The settings :class:`HFEncoding` reads (``HFSettings`` and ``CT2Settings`` have them)."""

    chat_template: bool
    system_prompt: str
    transcript: bool
    speaker_tokens: tuple[str, str]
    utterance_max_tokens: int


def line_break_ids(tok: Any) -> set[int]:
    """Ids of every token that holds a line break (SentencePiece ``\n``, byte-level BPE ``Ċ``)."""
    pieces = tok.convert_ids_to_tokens(list(range(len(tok))))
    return {i for i, p in enumerate(pieces) if p and ("\n" in p or "\u010a" in p)}


def generation_eos(generation_config: Any) -> set[int]:
    """The end-of-turn ids of a generation config (an int or a list)."""
    eos = getattr(generation_config, "eos_token_id", None)
    return set() if eos is None else {eos} if isinstance(eos, int) else set(eos)


class HFEncoding:
    """Encoding and decoding for a model with a HF tokenizer, config and generation config."""

    def __init__(
        self,
        name: str,
        tok: Any,
        config: Any,
        generation_config: Any,
        decoding: Decoding,
        settings: Rendering,
        *,
        log: Callable[[str], None] | None = None,
    ):
        self.name, self.tok, self.decoding, self.cfg = name, tok, decoding, settings
        self.log = log or log_.warning
        self.decoder_only = not config.is_encoder_decoder
        self.position_limit = getattr(config, "max_position_embeddings", None) or getattr(
            config, "n_positions", None
        )
        self.pad_id = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
        if self.pad_id is None:
            raise InputError(f"model {name!r}: the tokenizer has neither a pad nor an EOS token")
        self._warned_cut = False
        self._tokens: dict[str, tuple[int, ...]] = {}  # text -> ids (no special tokens)
        if settings.chat_template and not getattr(tok, "chat_template", None):
            raise InputError(f"model {name!r}: --chat-template given but the tokenizer has no chat template")
        if not (settings.chat_template or settings.transcript):
            self._warn_unknown_speakers()
        if settings.transcript and not self.decoder_only:
            raise InputError(f"model {name!r}: --transcript is for decoder-only (base) models")
        self.prefix, _ = self._affixes()
        eos = [tok.eos_token_id] if tok.eos_token_id is not None else []
        self.suffix = self.tokenize(settings.speaker_tokens[1]) if self.decoder_only else eos
        self.stop_ids = set(eos) | {self.pad_id} | self._single_ids(settings.speaker_tokens)
        if settings.chat_template:  # chat models may end a turn with their own token (<|end|>, <|eot_id|>)
            self.stop_ids |= generation_eos(generation_config)
        if settings.transcript:  # a transcript turn ends at the line break
            self.stop_ids |= line_break_ids(tok)

    # -- tokens ---------------------------------------------------------------------------------------------
    def tokenize(self, text: str) -> list[int]:
        if text not in self._tokens:
            self._remember([text])
        return list(self._tokens[text])

    def _remember(self, texts: Sequence[str]) -> None:
        """Tokenize ``texts`` in one call (the fast tokenizers batch them) into the cache."""
        if not texts:
            return
        if len(self._tokens) > TOKEN_CACHE:
            self._tokens.clear()
        ids = self.tok(list(texts), add_special_tokens=False)["input_ids"]
        self._tokens.update(zip(texts, map(tuple, ids), strict=True))

    def _affixes(self) -> tuple[list[int], list[int]]:
        """The ids the tokenizer adds before and after a text (BART: <s> ... </s>, GPT-2: nothing)."""
        bare = self.tokenize("a")
        full = list(self.tok("a")["input_ids"])
        for i in range(len(full) - len(bare) + 1):
            if full[i : i + len(bare)] == bare:
                return full[:i], full[i + len(bare) :]
        return [], []

    def _single_ids(self, tokens: Sequence[str]) -> set[int]:
        ids = set()
        for t in tokens:
            one = self.tokenize(t)
            if len(one) == 1 and one[0] != self.tok.unk_token_id:
                ids.add(one[0])
        return ids

    def _warn_unknown_speakers(self) -> None:
        vocab = self.tok.get_vocab()
        unknown = [t for t in self.cfg.speaker_tokens if t not in vocab]
        if unknown:
            self.log(
                f"speaker token(s) {', '.join(unknown)} unknown to the tokenizer of "
                f"{self.name!r}: the model was not fine-tuned with them "
                "(set --speaker-tokens, or --chat-template for chat models)"
            )

    # -- conversations --------------------------------------------------------------------------------------
    def encode(self, conv: Conversation) -> list[int]:
        """Token ids of one conversation (speaker tokens, chat template or transcript), cut to the model's
        length."""
        if self.cfg.chat_template:
            return self._fit(self._chat_ids(conv))
        if self.cfg.transcript:
            text = transcript_text(conv, self._cut)
            return self._fit(self.prefix + list(self.tok(text, add_special_tokens=False)["input_ids"]))
        return self._fit(self._render(conv, self.tokenize))

    def _cut(self, text: str) -> str:
        """``text`` cut to --utterance-max-tokens tokens (0: whole)."""
        n = self.cfg.utterance_max_tokens
        ids = self.tokenize(text)
        return text if not n or len(ids) <= n else self.tok.decode(ids[:n])

    def _render(self, conv: Conversation, tokenize: Callable[[str], list[int]]) -> list[int]:
        return encode_ids(
            conv,
            tokenize,
            speakers=self.cfg.speaker_tokens,
            utterance_max_tokens=self.cfg.utterance_max_tokens,
            prefix=self.prefix,
            suffix=self.suffix,
        )

    def _chat_ids(self, conv: Conversation) -> list[int]:
        try:
            text = self.tok.apply_chat_template(
                chat_messages(conv, self._cut, self.cfg.system_prompt),
                tokenize=False,
                add_generation_prompt=True,
            )
        except Exception as e:  # template errors are jinja exceptions of several types
            raise InputError(f"model {self.name!r}: chat template failed: {e}") from None
        return list(self.tok(text, add_special_tokens=False)["input_ids"])

    def _fit(self, ids: list[int]) -> list[int]:
        """Keep the prefix and the end of an input longer than the model accepts (rare for PersonaChat)."""
        limit = self.position_limit
        if not limit:
            return ids
        room = limit - (self.decoding.max_new_tokens if self.decoder_only else 0)
        if len(ids) <= room:
            return ids
        if not self._warned_cut:
            self._warned_cut = True
            self.log(f"inputs longer than the model's {limit} positions lose their start")
        head = len(self.prefix)
        return ids[:head] + ids[len(ids) - (room - head) :]

    def groups(self, items: Sequence[Item]) -> Groups:
        """(distinct input ids, the item ids sharing it), sorted by input length."""
        if not (self.cfg.chat_template or self.cfg.transcript):  # every text the rendering will tokenize
            texts: dict[str, None] = {}

            def record(text: str) -> list[int]:
                texts[text] = None
                return []

            for _, conv in items:
                self._render(conv, record)
            self._remember([t for t in texts if t not in self._tokens])
        groups: dict[tuple[int, ...], list[str]] = {}
        for item_id, conv in items:
            groups.setdefault(tuple(self.encode(conv)), []).append(item_id)
        return sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0]))

    # -- replies --------------------------------------------------------------------------------------------
    def _decode(self, ids: list[int]) -> str:
        """The reply text of generated ids: cut at the first stop token (decoder-only), special tokens
        dropped, the rest of the line only for transcripts, whitespace runs collapsed."""
        if self.decoder_only:
            for i, t in enumerate(ids):
                if t in self.stop_ids:
                    ids = ids[:i]
                    break
        text = self.tok.decode(ids, skip_special_tokens=True)
        if self.cfg.transcript:  # the reply is the rest of the line (a stop token may hold text before it)
            text = text.split("\n", 1)[0]
        return " ".join(text.split())
