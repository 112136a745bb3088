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
from dataclasses import dataclass
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
        self.occupied = torch.zeros(n, dtype=torch.long, device=device)
        self.slot_input: list[int | None] = [None] * n
        self.slot_of: dict[int, int] = {}
        self.free = list(range(n))[::-1]  # lowest slot last: popped first
        self.embed, self.embed_scale = dec.embed_tokens.weight, dec.embed_tokens.embed_scale
        self.pos_embed, self.pos_offset = dec.embed_positions.weight, dec.embed_positions.offset
        self.embed_norm, self.lm_head = dec.layernorm_embedding, model.lm_head
        self.bias = model.final_logits_bias.to(device)
        stacked = all(stacked_projection_is_exact(layer, n) for layer in self.layers)
        self.weights = [_layer_weights(layer, stacked) for layer in self.layers]

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
            self.occupied[slot], self.slot_of[i] = 1, slot
        return []

    def release(self, idx: int) -> None:
        slot = self.slot_of.pop(idx)
        self.slot_input[slot] = None
        self.pos[slot] = self.occupied[slot] = 0
        self.free.append(slot)
        self.free.sort(reverse=True)

    def step(self) -> list[tuple[int, int]]:
        """One decoder step for every slot; the greedy token of each occupied one."""
        F, pos, n, head = self.torch.nn.functional, self.pos, len(self.slot_input), self.head_dim
        x = F.embedding(self.token[:, None], self.embed)
        if self.embed_scale != 1.0:
            x = x * self.embed_scale
        x = _norm(self.embed_norm, x + F.embedding(pos[:, None] + self.pos_offset, self.pos_embed))
        self_mask = (self.columns[None, :] <= pos[:, None])[:, None, None, :]
        for w, (k_buf, v_buf), (ck, cv) in zip(self.weights, self.self_kv, self.cross_kv, strict=True):
            if len(w.qkv) == 1:
                q, k, v = F.linear(x, *w.qkv[0]).view(n, 1, -1, head).transpose(1, 2).split(w.heads, dim=1)
            else:
                q, k, v = (F.linear(x, *p).view(n, 1, -1, head).transpose(1, 2) for p in w.qkv)
            k_buf[self.rows, :, pos] = k[:, :, 0]
            v_buf[self.rows, :, pos] = v[:, :, 0]
            x = _norm(w.self_norm, x + self._attend(q, k_buf, v_buf, self_mask, w.scaling, w.out))
            q = F.linear(x, *w.cross_q).view(n, 1, -1, head).transpose(1, 2)
            x = _norm(w.cross_norm, x + self._attend(q, ck, cv, self.cross_mask, w.scaling, w.cross_out))
            x = _norm(w.final_norm, x + F.linear(w.act(F.linear(x, *w.fc1)), *w.fc2))
        logits = self.lm_head(x) + self.bias
        self.token = (
            logits[:, -1, :].to(dtype=self.torch.float32).argmax(dim=-1)
        )  # as generate picks greedily
        pos += self.occupied
        tokens = self.token.tolist()
        return [(i, tokens[s]) for s, i in enumerate(self.slot_input) if i is not None]

    def _attend(self, q: Any, k: Any, v: Any, mask: Any, scaling: float, out: tuple[Any, Any]) -> Any:
        """SDPA attention and the output projection, as BartAttention runs them."""
        F = self.torch.nn.functional
        o = F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=0.0, scale=scaling, is_causal=False
        )
        return F.linear(o.transpose(1, 2).contiguous().reshape(q.shape[0], 1, -1).contiguous(), *out)


@dataclass(frozen=True)
class _LayerWeights:
    """One BartDecoderLayer's parameters as the step uses them."""

    qkv: tuple[tuple[Any, Any], ...]  # q/k/v projections, stacked into one product when that is exact
    heads: int
    scaling: float
    out: tuple[Any, Any]
    self_norm: Any
    cross_q: tuple[Any, Any]
    cross_out: tuple[Any, Any]
    cross_norm: Any
    fc1: tuple[Any, Any]
    act: Any
    fc2: tuple[Any, Any]
    final_norm: Any


def _layer_weights(layer: Any, stacked: bool) -> _LayerWeights:
    import torch

    att, cross = layer.self_attn, layer.encoder_attn
    projections = (att.q_proj, att.k_proj, att.v_proj)
    qkv = tuple((p.weight, p.bias) for p in projections)
    if stacked:
        qkv = ((torch.cat([p.weight for p in projections]), torch.cat([p.bias for p in projections])),)
    return _LayerWeights(
        qkv=qkv, heads=att.num_heads, scaling=att.scaling, out=(att.out_proj.weight, att.out_proj.bias),
        self_norm=layer.self_attn_layer_norm, cross_q=(cross.q_proj.weight, cross.q_proj.bias),
        cross_out=(cross.out_proj.weight, cross.out_proj.bias), cross_norm=layer.encoder_attn_layer_norm,
        fc1=(layer.fc1.weight, layer.fc1.bias), act=layer.activation_fn,
        fc2=(layer.fc2.weight, layer.fc2.bias), final_norm=layer.final_layer_norm,
    )  # fmt: skip


def stacked_projection_is_exact(layer: Any, batch_size: int) -> bool:
    """Whether one product with the stacked q/k/v weights gives exactly the three separate products here
    (it does when the BLAS accumulates each output over the input dimension in the same order; checked
    rather than assumed)."""
    import torch

    (weight, bias), separate = _layer_weights(layer, True).qkv[0], _layer_weights(layer, False).qkv
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(batch_size, 1, weight.shape[1], generator=gen).to(weight)
    stacked = torch.nn.functional.linear(x, weight, bias).split(weight.shape[0] // 3, dim=-1)
    return all(
        torch.equal(a, torch.nn.functional.linear(x, *p)) for a, p in zip(stacked, separate, strict=True)
    )


def _norm(ln: Any, x: Any) -> Any:
    import torch

    return torch.nn.functional.layer_norm(x, ln.normalized_shape, ln.weight, ln.bias, ln.eps)
