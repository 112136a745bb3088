"""When greedy refill (:mod:`consistest.models.refill`) reproduces ``generate``, and the per-architecture
facts it needs: how decoder positions are set, where the cross-attention projections are."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Literal

# Generation settings that add a logits processor or a stopping criterion to greedy ``generate``, with the
# values that add none. A model whose generation config sets any other value is decoded with ``generate``.
NEUTRAL: dict[str, tuple[Any, ...]] = {
    "repetition_penalty": (None, 1.0),
    "encoder_repetition_penalty": (None, 1.0),
    "no_repeat_ngram_size": (None, 0),
    "encoder_no_repeat_ngram_size": (None, 0),
    "bad_words_ids": (None,),
    "force_words_ids": (None,),
    "constraints": (None,),
    "sequence_bias": (None,),
    "suppress_tokens": (None,),
    "begin_suppress_tokens": (None,),
    "forced_bos_token_id": (None,),
    "forced_eos_token_id": (None,),
    "forced_decoder_ids": (None,),
    "exponential_decay_length_penalty": (None,),
    "watermarking_config": (None,),
    "guidance_scale": (None, 1.0),
    "min_length": (None, 0),
    "min_new_tokens": (None, 0),
    "remove_invalid_values": (None, False),
    "stop_strings": (None,),
    "max_time": (None,),
    "penalty_alpha": (None,),
    "dola_layers": (None,),
    "prompt_lookup_num_tokens": (None,),
    "num_return_sequences": (None, 1),
    "cache_implementation": (None, "dynamic"),
    "token_healing": (None, False),
}
Positions = Literal["absolute", "relative"]
# Encoder-decoder families refill knows: how their decoder positions are set per row (BART: a learned
# embedding, replaced per row; T5: relative, shift-invariant, nothing to do).
ENCODER_DECODER: dict[str, Positions] = {"bart": "absolute", "t5": "relative", "mt5": "relative"}


def unsupported(model: Any, generation_config: Any) -> str | None:
    """Why greedy refill cannot reproduce ``generate`` for this model and config (None: it can)."""
    import transformers

    if int(transformers.__version__.split(".")[0]) < 5:
        return "needs transformers >= 5"
    cfg = model.config
    for name, neutral in NEUTRAL.items():
        value = getattr(generation_config, name, None)
        if value not in neutral:
            return f"the generation config sets {name}={value!r}"
    if cfg.is_encoder_decoder:
        if cfg.model_type not in ENCODER_DECODER:
            return f"per-row decoder positions are not implemented for {cfg.model_type!r}"
        if not isinstance(decoder_start(model, generation_config), int):
            return "no single decoder start token"
        return None
    if "position_ids" not in inspect.signature(model.forward).parameters:
        return "the model takes no position_ids"
    text = cfg.get_text_config(decoder=True)
    if any(t != "full_attention" for t in (getattr(text, "layer_types", None) or ())):
        return "the model has layers other than full attention (sliding windows, linear attention)"
    if getattr(text, "sliding_window", None):
        return "the model uses sliding-window attention"
    return None


def row_positions(model: Any) -> Positions | None:
    """How an encoder-decoder's decoder positions are set per row (None: decoder-only, ``position_ids``)."""
    return ENCODER_DECODER[model.config.model_type] if model.config.is_encoder_decoder else None


def bart_fast_path(model: Any) -> str | None:
    """Why BART's fixed-slot decoder step (:mod:`consistest.models.bart_slots`) cannot stand in for the
    library's forward for this model (None: it can)."""
    from transformers.models.bart.modeling_bart import BartDecoderLayer, BartForConditionalGeneration

    cfg = model.config
    if type(model) is not BartForConditionalGeneration:
        return "not a BartForConditionalGeneration"
    if cfg._attn_implementation != "sdpa":
        return f"attention {cfg._attn_implementation!r}, not sdpa"
    if any(type(layer) is not BartDecoderLayer for layer in model.get_decoder().layers):
        return "custom decoder layers"
    return None


def decoder_start(model: Any, gc: Any) -> Any:
    """The decoder start token ``generate`` uses: the generation config's, the config's, else BOS."""
    start = gc.decoder_start_token_id
    if start is None:
        start = getattr(model.config, "decoder_start_token_id", None)
    return gc.bos_token_id if start is None else start


def eos_ids(gc: Any) -> list[int]:
    eos = gc.eos_token_id
    return [] if eos is None else [eos] if isinstance(eos, int) else list(eos)


def cross_projections(model: Any) -> list[tuple[Any, Any, int]]:
    """(key projection, value projection, head size) of each decoder layer's cross-attention, as the
    model's attention computes the cached keys/values from the encoder states."""
    if model.config.model_type == "bart":
        attn = [layer.encoder_attn for layer in model.get_decoder().layers]
        return [(a.k_proj, a.v_proj, a.head_dim) for a in attn]
    attn = [block.layer[1].EncDecAttention for block in model.get_decoder().block]  # t5, mt5
    return [(a.k, a.v, a.key_value_proj_dim) for a in attn]


def lm_head(model: Any) -> Callable[[Any, Any], Any]:
    """The logits from the decoder's last hidden states, as the model's own forward computes them."""
    if model.config.model_type == "bart":
        return lambda m, h: m.lm_head(h) + m.final_logits_bias.to(h.device)
    if model.config.tie_word_embeddings:  # t5, mt5: tied heads rescale the hidden states first
        return lambda m, h: m.lm_head(h * (m.model_dim**-0.5))
    return lambda m, h: m.lm_head(h)
