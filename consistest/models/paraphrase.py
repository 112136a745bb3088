"""A seq2seq paraphraser (hub id or local folder) for the paraphrase trigger: T5-style prompts
(``paraphrase: <text>``), several beam-search candidates per input. torch/transformers load lazily."""

from __future__ import annotations

from collections.abc import Sequence

from consistest.models.hf_loader import load_pretrained, resolve_device


class HFParaphraser:
    """``paraphrase(texts)`` -> candidate rewrites per text (best first, duplicates and the input dropped)."""

    def __init__(self, model: str, device: str = "cpu", batch_size: int = 16, num_candidates: int = 4,
                 prefix: str = "paraphrase: ", max_new_tokens: int = 40) -> None:  # fmt: skip
        from transformers import AutoModelForSeq2SeqLM

        self.name = model
        self.tokenizer, self.model = load_pretrained(
            model, lambda _c: AutoModelForSeq2SeqLM, what="paraphrase model"
        )
        self.device = resolve_device(device)
        self.model = self.model.to(self.device).eval()
        self.batch_size, self.k, self.prefix, self.max_new_tokens = (
            batch_size,
            num_candidates,
            prefix,
            max_new_tokens,
        )

    def paraphrase(self, texts: Sequence[str]) -> list[list[str]]:
        import torch

        out: list[list[str]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            enc = self.tokenizer([self.prefix + t for t in batch], return_tensors="pt", padding=True,
                                 truncation=True, max_length=128)  # fmt: skip
            enc = {k: v.to(self.device) for k, v in enc.items() if k in ("input_ids", "attention_mask")}
            with torch.no_grad():
                ids = self.model.generate(
                    **enc, num_beams=self.k, num_return_sequences=self.k, do_sample=False,
                    max_new_tokens=self.max_new_tokens,
                )  # fmt: skip
            decoded = self.tokenizer.batch_decode(ids, skip_special_tokens=True)
            for i, text in enumerate(batch):
                cands = [" ".join(c.split()) for c in decoded[i * self.k : (i + 1) * self.k]]
                out.append([c for c in dict.fromkeys(cands) if c and c != text])
        return out
