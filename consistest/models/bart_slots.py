"""BART rows in fixed slots, stepped with the model's own weights: the refill loop's fast path for BART.

The library's forward spends most of a small model's decoder step in Python (module calls, mask utilities,
cache objects, output classes): about twice the arithmetic on a 2-layer BART. Here the batch is
``batch_size`` fixed slots with preallocated keys/values (self-attention: ``max_new_tokens`` columns, a
row's own positions from column 0; cross-attention: the longest input's length), a finished row's slot is
simply reused (no concatenation), and one step is the same sequence of torch operations that
``BartDecoderLayer`` performs, on the same weights, so it computes the same numbers (a test compares it
with ``generate``). Masked columns (padding, a slot's previous occupant) get no attention weight.
:func:`~consistest.models.refill_support.bart_fast_path` says which models qualify.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from consistest.models.refill_rows import Lookahead

Ids = Sequence[int]


class BartSlots:
    """Up to ``batch_size`` BART rows in fixed slots (see the module docstring)."""

    admit_at = 1  # a free slot costs nothing to fill

    def __init__(self, model: Any, batch_size: int, max_new: int, max_source: int, start: int, pad_id: int):
        import torch

        self.torch, self.model, self.start = torch, model, start
        self.lookahead = Lookahead(model, batch_size, pad_id)
        dec, device = model.get_decoder(), model.device
        self.dec, self.layers = dec, list(dec.layers)
        attn = self.layers[0].self_attn
        self.heads, self.head_dim = attn.num_heads, attn.head_dim
        dtype = dec.embed_tokens.weight.dtype
        n = batch_size

        def zeros(width: int) -> Any:
            return torch.zeros(n, self.heads, width, self.head_dim, dtype=dtype, device=device)

        self.self_kv = [(zeros(max_new), zeros(max_new)) for _ in self.layers]
        self.cross_kv = [(zeros(max_source), zeros(max_source)) for _ in self.layers]
        self.cross_mask = torch.zeros(n, 1, 1, max_source, dtype=torch.bool, device=device)
        self.pos = torch.zeros(n, dtype=torch.long, device=device)
        self.token = torch.full((n,), start, dtype=torch.long, device=device)
        self.columns = torch.arange(max_new, device=device)
        self.rows = torch.arange(n, device=device)
        self.slot_input: list[int | None] = [None] * n
        self.free = list(range(n))[::-1]  # lowest slot first

    def admit(self, idxs: list[int], inputs: Sequence[Ids]) -> list[tuple[int, int]]:
        """Put each input's cross-attention keys/values into a free slot; it starts at the next step."""
        for i in idxs:
            row, slot = self.lookahead.take(i, inputs), self.free.pop()
            width = row.enc.shape[0]
            for (k, v), (ck, cv) in zip(row.kv, self.cross_kv, strict=True):
                ck[slot, :, :width] = k
                cv[slot, :, :width] = v
            self.cross_mask[slot] = False
            self.cross_mask[slot, 0, 0, :width] = True
            self.pos[slot], self.token[slot], self.slot_input[slot] = 0, self.start, i
        return []

    def release(self, idx: int) -> None:
        slot = self.slot_input.index(idx)
        self.slot_input[slot] = None
        self.pos[slot] = 0
        self.free.append(slot)
        self.free.sort(reverse=True)

    def step(self) -> list[tuple[int, int]]:
        """One decoder step for every slot; the greedy token of each occupied one."""
        torch, F = self.torch, self.torch.nn.functional
        dec, pos = self.dec, self.pos
        x = F.embedding(self.token[:, None], dec.embed_tokens.weight) * dec.embed_tokens.embed_scale
        x = x + F.embedding(pos[:, None] + dec.embed_positions.offset, dec.embed_positions.weight)
        x = _norm(dec.layernorm_embedding, x)
        self_mask = (self.columns[None, :] <= pos[:, None])[:, None, None, :]
        for layer, (k_buf, v_buf), (ck, cv) in zip(self.layers, self.self_kv, self.cross_kv, strict=True):
            att = layer.self_attn
            q, k, v = (self._heads(p, x) for p in (att.q_proj, att.k_proj, att.v_proj))
            k_buf[self.rows, :, pos] = k[:, :, 0]
            v_buf[self.rows, :, pos] = v[:, :, 0]
            x = _norm(layer.self_attn_layer_norm, x + self._attend(att, q, k_buf, v_buf, self_mask))
            att = layer.encoder_attn
            o = self._attend(att, self._heads(att.q_proj, x), ck, cv, self.cross_mask)
            x = _norm(layer.encoder_attn_layer_norm, x + o)
            h = F.linear(layer.activation_fn(F.linear(x, layer.fc1.weight, layer.fc1.bias)), layer.fc2.weight,
                         layer.fc2.bias)  # fmt: skip
            x = _norm(layer.final_layer_norm, x + h)
        logits = self.model.lm_head(x) + self.model.final_logits_bias.to(x.device)
        self.token = logits[:, -1, :].to(dtype=torch.float32).argmax(dim=-1)  # as generate picks greedily
        occupied = [s for s, i in enumerate(self.slot_input) if i is not None]
        self.pos[occupied] += 1
        tokens = self.token.tolist()
        return [(self.slot_input[s], tokens[s]) for s in occupied]  # type: ignore[misc]

    def _heads(self, proj: Any, x: Any) -> Any:
        """[B, 1, d] -> [B, heads, 1, head_dim], as BartAttention shapes its projections."""
        out = self.torch.nn.functional.linear(x, proj.weight, proj.bias)
        return out.view(x.shape[0], 1, -1, self.head_dim).transpose(1, 2)

    def _attend(self, att: Any, q: Any, k: Any, v: Any, mask: Any) -> Any:
        """SDPA attention and the output projection, as BartAttention runs them."""
        F = self.torch.nn.functional
        o = F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=0.0, scale=att.scaling, is_causal=False
        )
        o = o.transpose(1, 2).contiguous().reshape(q.shape[0], 1, -1).contiguous()
        return F.linear(o, att.out_proj.weight, att.out_proj.bias)


def _norm(ln: Any, x: Any) -> Any:
    import torch

    return torch.nn.functional.layer_norm(x, ln.normalized_shape, ln.weight, ln.bias, ln.eps)
