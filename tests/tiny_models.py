"""Tiny models built from a config with a tokenizer trained on the fly: no download, seconds on CPU.

Shared by the test suites (extend additively). Each builder saves to a directory that
``from_pretrained`` (and so ``consistest.models.nli.load_nli``) loads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

TINY_CORPUS: tuple[str, ...] = (
    "i have two dogs and a cat .",
    "do you have any pets ? yes i do , i have a dog .",
    "i work as a teacher in a small town .",
    "what do you do for a living ? i am a nurse .",
    "my favorite color is blue . i like to read books .",
    "i do not like swimming . i can't swim .",
    "are you married ? no , i am single .",
    "i live in texas with my family . i love pizza and music .",
    "contradiction neutral entailment premise hypothesis",
)


def train_tokenizer(
    directory: str | Path | None = None, corpus: Sequence[str] = TINY_CORPUS, vocab: int = 300
):
    """A byte-level BPE tokenizer with RoBERTa's special tokens, wrapped in PreTrainedTokenizerFast."""
    from tokenizers import ByteLevelBPETokenizer
    from tokenizers.processors import RobertaProcessing
    from transformers import PreTrainedTokenizerFast

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(list(corpus) * 2, vocab_size=vocab, min_frequency=1, special_tokens=specials)
    bpe._tokenizer.post_processor = RobertaProcessing(
        ("</s>", bpe.token_to_id("</s>")), ("<s>", bpe.token_to_id("<s>"))
    )
    tok = PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
        model_max_length=64,
    )
    if directory is not None:
        tok.save_pretrained(str(directory))
    return tok


def tiny_roberta_classifier(
    directory: str | Path,
    id2label: Mapping[int, str] | None = None,
    *,
    seed: int = 0,
    layers: int = 2,
    hidden: int = 32,
    max_positions: int = 66,
) -> Path:
    """Save a random 2-layer RoBERTa sequence classifier + tokenizer to ``directory``; return it."""
    import torch
    from transformers import RobertaConfig, RobertaForSequenceClassification

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tok = train_tokenizer(directory)
    id2label = dict(id2label or {0: "CONTRADICTION", 1: "neutral", 2: "Entailment"})
    cfg = RobertaConfig(
        vocab_size=len(tok),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=2,
        intermediate_size=hidden * 2,
        max_position_embeddings=max_positions,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        num_labels=len(id2label),
        id2label={int(k): v for k, v in id2label.items()},
        label2id={v: int(k) for k, v in id2label.items()},
    )
    torch.manual_seed(seed)
    model = RobertaForSequenceClassification(cfg)
    model.save_pretrained(str(directory))
    return directory


# --- Tiny generators (BART, T5, GPT-2) for the generation tests -------------------------------------------

SPEAKER_TOKENS: tuple[str, str] = ("<user>", "<agent>")


def train_dialogue_tokenizer(
    kind: str = "bart",
    directory: str | Path | None = None,
    *,
    speaker_tokens: Sequence[str] = SPEAKER_TOKENS,
    corpus: Sequence[str] = TINY_CORPUS,
    vocab: int = 300,
):
    """A byte-level BPE tokenizer laid out like ``kind``'s: BART adds <s>..</s>, T5 adds </s>, GPT-2 nothing.

    ``speaker_tokens`` become extra special tokens (one id each); pass ``()`` for a model never fine-tuned
    with them.
    """
    from tokenizers import ByteLevelBPETokenizer
    from tokenizers.processors import RobertaProcessing, TemplateProcessing
    from transformers import PreTrainedTokenizerFast

    specials = ["<pad>", "</s>", "<unk>", "<s>"]
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(list(corpus) * 2, vocab_size=vocab, min_frequency=1, special_tokens=specials)
    eos, bos = ("</s>", bpe.token_to_id("</s>")), ("<s>", bpe.token_to_id("<s>"))
    if kind == "bart":
        bpe._tokenizer.post_processor = RobertaProcessing(eos, bos)
    elif kind == "t5":
        bpe._tokenizer.post_processor = TemplateProcessing(
            single="$A </s>", pair="$A </s> $B </s>", special_tokens=[eos]
        )
    elif kind != "gpt2":
        raise ValueError(f"unknown kind {kind!r}")
    tok = PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        model_max_length=256,
    )
    if speaker_tokens:
        tok.add_special_tokens({"extra_special_tokens": list(speaker_tokens)})
    if directory is not None:
        tok.save_pretrained(str(directory))
    return tok


def tiny_generator(
    directory: str | Path,
    kind: str = "bart",
    *,
    seed: int = 0,
    hidden: int = 32,
    speaker_tokens: Sequence[str] = SPEAKER_TOKENS,
    init_std: float = 1.0,
    eos_scale: float = 1.0,
) -> Path:
    """Save a random 2-layer BART / T5 / GPT-2 and its tokenizer to ``directory``; return it.

    Weight matrices are redrawn from N(0, ``init_std``) so greedy outputs vary with the input (a model at
    the default tiny init answers every input with the same token). ``eos_scale`` multiplies the
    end-of-sequence row of the output embedding: above 1, greedy replies end after varied numbers of tokens.
    """
    import torch

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tok = train_dialogue_tokenizer(kind, directory, speaker_tokens=speaker_tokens)
    ids = dict(pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id, bos_token_id=tok.bos_token_id)
    torch.manual_seed(seed)
    if kind == "bart":
        from transformers import BartConfig, BartForConditionalGeneration

        cfg = BartConfig(
            vocab_size=len(tok), d_model=hidden, encoder_layers=2, decoder_layers=2,
            encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=hidden * 2,
            decoder_ffn_dim=hidden * 2, max_position_embeddings=256, decoder_start_token_id=tok.eos_token_id,
            forced_bos_token_id=None, forced_eos_token_id=None, **ids,
        )  # fmt: skip
        model = BartForConditionalGeneration(cfg)
    elif kind == "t5":
        from transformers import T5Config, T5ForConditionalGeneration

        cfg = T5Config(
            vocab_size=len(tok), d_model=hidden, d_kv=16, d_ff=hidden * 2, num_layers=2, num_heads=2,
            decoder_start_token_id=tok.pad_token_id, **ids,
        )  # fmt: skip
        model = T5ForConditionalGeneration(cfg)
    elif kind == "gpt2":
        from transformers import GPT2Config, GPT2LMHeadModel

        cfg = GPT2Config(vocab_size=len(tok), n_embd=hidden, n_layer=2, n_head=2, n_positions=256, **ids)
        model = GPT2LMHeadModel(cfg)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() > 1:
                p.normal_(0.0, init_std)
        model.get_output_embeddings().weight[tok.eos_token_id] *= eos_scale
    model.save_pretrained(str(directory))
    return directory


# --- Tiny extractive QA (the question builders' answerer) --------------------------------------------------


def tiny_extractive_qa(
    directory: str | Path, *, seed: int = 0, hidden: int = 32, max_positions: int = 130
) -> Path:
    """Save a random 2-layer RobertaForQuestionAnswering + byte-level tokenizer to ``directory``."""
    import torch
    from transformers import RobertaConfig, RobertaForQuestionAnswering

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tok = train_tokenizer(directory)
    cfg = RobertaConfig(
        vocab_size=len(tok), hidden_size=hidden, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=hidden * 2, max_position_embeddings=max_positions, pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
    )  # fmt: skip
    torch.manual_seed(seed)
    RobertaForQuestionAnswering(cfg).save_pretrained(str(directory))
    return directory


# --- The "talking" tiny BART: greedy replies of varied length (refill tests, the speed benchmark) ---------

TALK_SPECIALS: tuple[str, ...] = ("<s>", "<pad>", "</s>", "<unk>", "<mask>", "<user>", "<agent>")  # ids 0-6


def talking_tokenizer(directory: str | Path | None, corpus: Sequence[str], *, vocab: int = 4096,
                      min_frequency: int = 2, max_positions: int = 512):  # fmt: skip
    """A byte-level BPE trained on ``corpus`` with BART's specials and the speaker tokens at ids 0-6."""
    from tokenizers import ByteLevelBPETokenizer
    from tokenizers.processors import RobertaProcessing
    from transformers import PreTrainedTokenizerFast

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(list(corpus), vocab_size=vocab, min_frequency=min_frequency,
                            special_tokens=list(TALK_SPECIALS), show_progress=False)  # fmt: skip
    bpe._tokenizer.post_processor = RobertaProcessing(
        ("</s>", bpe.token_to_id("</s>")), ("<s>", bpe.token_to_id("<s>"))
    )
    tok = PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer, bos_token="<s>", eos_token="</s>", sep_token="</s>",
        cls_token="<s>", unk_token="<unk>", pad_token="<pad>", mask_token="<mask>",
        model_max_length=max_positions,
    )  # fmt: skip
    tok.add_special_tokens({"additional_special_tokens": list(TALK_SPECIALS[5:])})
    if directory is not None:
        tok.save_pretrained(str(directory))
    return tok


def install_clock(
    model, eos_id: int, *, ramp: float = 0.05, eos_gain: float = 4.0, ln_gain: float = 2.0
) -> None:
    """Make a BART's end-of-sentence logit grow with the decoder position, so greedy replies end after a
    few words and their length varies with the input.

    A random model's greedy decode falls into a loop whose end-of-sentence logit barely changes, so a plain
    bias gives either no reply or the full ``max_new_tokens``. Dimension 0 of the decoder's residual stream
    becomes a clock instead: token embeddings are 0 there, the decoder position embedding holds
    ``ramp * position``, no attention or feed-forward weight reads or writes it (LayerNorm gain
    ``ln_gain`` keeps it alive), and only the end-of-sentence row of the untied lm_head reads it. The
    other logits are the random model's, so the text still depends on the input.
    """
    import torch

    dec, c = model.model.decoder, 0
    with torch.no_grad():
        for emb in {id(e): e for e in (model.model.shared, dec.embed_tokens)}.values():
            emb.weight[:, c] = 0.0
        pos = dec.embed_positions
        offset = pos.offset
        pos.weight[offset:, c] = ramp * torch.arange(pos.weight.shape[0] - offset, dtype=pos.weight.dtype)
        pos.weight[:offset, c] = 0.0
        for layer in dec.layers:
            for att in (layer.self_attn, layer.encoder_attn):
                att.q_proj.weight[:, c] = 0.0
                att.out_proj.weight[c, :] = 0.0
                att.out_proj.bias[c] = 0.0
            for proj in (layer.self_attn.k_proj, layer.self_attn.v_proj):
                proj.weight[:, c] = 0.0
            layer.fc1.weight[:, c] = 0.0
            layer.fc2.weight[c, :] = 0.0
            layer.fc2.bias[c] = 0.0
        norms = [dec.layernorm_embedding] + [
            n for layer in dec.layers
            for n in (layer.self_attn_layer_norm, layer.encoder_attn_layer_norm, layer.final_layer_norm)
        ]  # fmt: skip
        for n in norms:
            n.weight[c] = ln_gain
            n.bias[c] = 0.0
        model.lm_head.weight[:, c] = 0.0
        model.lm_head.weight[eos_id, :] = 0.0
        model.lm_head.weight[eos_id, c] = eos_gain


def talking_bart(directory: str | Path, tok, *, seed: int = 0, d_model: int = 64, layers: int = 2,
                 heads: int = 4, ffn: int = 128, max_positions: int = 512, init_std: float = 0.2,
                 eos_bias: float = 0.5) -> Path:  # fmt: skip
    """Save a BART (untied lm_head, every weight matrix N(0, ``init_std``), specials other than ``</s>``
    masked, the end-of-sentence clock of :func:`install_clock`) and ``tok`` to ``directory``.

    With the speed benchmark's settings (``tok`` from :func:`talking_tokenizer` on PersonaChat, defaults)
    greedy replies to ConsisTest inputs are 2-23 tokens, mean 9.
    """
    import torch
    from transformers import BartConfig, BartForConditionalGeneration

    cfg = BartConfig(
        vocab_size=len(tok), d_model=d_model, encoder_layers=layers, decoder_layers=layers,
        encoder_attention_heads=heads, decoder_attention_heads=heads, encoder_ffn_dim=ffn,
        decoder_ffn_dim=ffn, max_position_embeddings=max_positions, init_std=init_std,
        tie_word_embeddings=False, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
        decoder_start_token_id=tok.eos_token_id, forced_bos_token_id=None, forced_eos_token_id=None,
    )  # fmt: skip
    torch.manual_seed(seed)
    model = BartForConditionalGeneration(cfg)
    with torch.no_grad():
        g = torch.Generator().manual_seed(seed)  # explicit redraw, independent of the library's init
        for _, p in sorted(model.named_parameters()):
            if p.dim() > 1:
                p.copy_(torch.randn(p.shape, generator=g) * init_std)
        install_clock(model, tok.eos_token_id)
        bias = torch.zeros_like(model.final_logits_bias)
        for t in TALK_SPECIALS:
            i = tok.convert_tokens_to_ids(t)
            bias[0, i] = eos_bias if i == tok.eos_token_id else -1e4
        model.final_logits_bias.copy_(bias)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.eval().save_pretrained(str(directory))
    tok.save_pretrained(str(directory))
    return directory


def talking_nli(directory: str | Path, tok, centre_pairs: Sequence[tuple[str, str]], *, seed: int = 0,
                hidden: int = 64, layers: int = 2, heads: int = 4, ffn: int = 128, max_positions: int = 514,
                init_std: float = 0.2) -> Path:  # fmt: skip
    """Save a RoBERTa NLI classifier (contradiction/neutral/entailment, weights N(0, ``init_std``)) whose
    logits are centred on ``centre_pairs``, so that all three labels occur."""
    import torch
    from transformers import RobertaConfig, RobertaForSequenceClassification

    id2label = {0: "contradiction", 1: "neutral", 2: "entailment"}
    cfg = RobertaConfig(
        vocab_size=len(tok), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
        intermediate_size=ffn, max_position_embeddings=max_positions, pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, num_labels=3, id2label=id2label,
        label2id={v: k for k, v in id2label.items()}, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )  # fmt: skip
    torch.manual_seed(seed + 1)
    model = RobertaForSequenceClassification(cfg)
    with torch.no_grad():
        g = torch.Generator().manual_seed(seed + 1)
        for _, p in sorted(model.named_parameters()):
            if p.dim() > 1:
                p.copy_(torch.randn(p.shape, generator=g) * init_std)
    model.eval()
    enc = tok([a for a, _ in centre_pairs], [b for _, b in centre_pairs], padding=True, return_tensors="pt")
    with torch.no_grad():
        model.classifier.out_proj.bias -= model(**enc).logits.mean(0)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(directory))
    tok.save_pretrained(str(directory))
    return directory


# --- Tiny chat model (a Llama with a chat template), e.g. for `transformers serve` ----------------------

CHAT_TEMPLATE = (
    "{% for m in messages %}{{ '<|' + m['role'] + '|>' + m['content'] + '<|end|>' + '\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|assistant|>' }}{% endif %}"
)
CHAT_SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]


def _chat_corpus() -> list[str]:
    subjects = ["i", "you", "my sister", "our dog", "the teacher", "my friend", "we", "they"]
    verbs = ["love", "hate", "like", "own", "want", "visit", "cook", "play"]
    objects = ["cats", "dogs", "pizza", "the beach", "music", "soccer", "books", "mountains", "two kids"]
    tails = ["every day.", "on weekends."]
    return [f"{s} {v} {o} {t}" for s in subjects for v in verbs for o in objects for t in tails] + list(
        TINY_CORPUS
    )


def tiny_chat_model(directory: str | Path, *, seed: int = 0, vocab: int = 512) -> Path:
    """Save a random 2-layer Llama chat model (greedy, 16 new tokens, stops at ``<|end|>``) and its
    byte-level tokenizer with a chat template to ``directory``; return it. Loads with the Auto classes, so
    ``transformers serve DIR`` serves it.

    Untied embeddings (tied random ones make greedy repeat the last prompt token), and special tokens and
    byte tokens that do not decode to printable ASCII are suppressed, so replies are readable pseudo-words.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    directory = Path(directory)
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab, special_tokens=CHAT_SPECIALS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    bpe.train_from_iterator(_chat_corpus(), trainer=trainer)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", pad_token="<pad>", unk_token="<unk>",
        additional_special_tokens=CHAT_SPECIALS[4:],
    )  # fmt: skip
    tok.chat_template = CHAT_TEMPLATE
    end_id = tok.convert_tokens_to_ids("<|end|>")
    stops = [tok.eos_token_id, end_id]
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
        bos_token_id=tok.bos_token_id, eos_token_id=stops, pad_token_id=tok.pad_token_id,
        tie_word_embeddings=False,
    )  # fmt: skip
    model = LlamaForCausalLM(config).eval()
    suppress = sorted(
        i
        for i in tok.get_vocab().values()
        if i not in stops
        and (i in tok.all_special_ids or not (t := tok.decode([i])).isascii() or not t.isprintable())
    )
    model.generation_config = GenerationConfig(
        do_sample=False, max_new_tokens=16, suppress_tokens=suppress, bos_token_id=tok.bos_token_id,
        eos_token_id=stops, pad_token_id=tok.pad_token_id,
    )  # fmt: skip
    model.save_pretrained(str(directory))
    tok.save_pretrained(str(directory))
    return directory
