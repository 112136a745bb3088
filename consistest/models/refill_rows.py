"""Row stores for :mod:`consistest.models.refill`: admit inputs, step every row, release finished ones.

:class:`HFRows` works through the model's own forward and key/value cache, so it serves every supported
architecture: the running rows' self-attention columns are right-aligned (padding on the left, masked),
encoder positions left-aligned; admitting rows drops the finished ones and concatenates the newcomers,
padded to the same widths.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from consistest.models.refill_support import cross_projections, lm_head, row_positions

Ids = Sequence[int]


class Rows(Protocol):
    """Where the running rows live. ``admit`` may pick first tokens (decoder-only prompts); ``step`` picks
    the next token of every admitted row not yet released."""

    admit_at: int  # how many rows must be free before admitting (admissions have a cost)

    def admit(self, idxs: list[int], inputs: Sequence[Ids]) -> list[tuple[int, int]]: ...

    def step(self) -> list[tuple[int, int]]: ...

    def release(self, idx: int) -> None: ...


@dataclass
class Encoded:
    """An encoder-decoder input encoded ahead: its states and cross-attention keys/values, unpadded."""

    enc: Any  # [S, d]
    kv: list[tuple[Any, Any]]  # per decoder layer ([H, S, head], [H, S, head])


class Lookahead:
    """Encodes inputs ``batch_size`` at a time, in index order, as they are asked for (right padding, as
    for ``generate``), keeping each input's states until it is taken."""

    def __init__(self, model: Any, batch_size: int, pad_id: int):
        self.model, self.batch_size, self.pad_id = model, batch_size, pad_id
        self.ready: dict[int, Encoded] = {}
        self.projections = cross_projections(model)

    def take(self, i: int, inputs: Sequence[Ids]) -> Encoded:
        if i not in self.ready:
            self._encode(list(range(i, min(i + self.batch_size, len(inputs)))), inputs)
        return self.ready.pop(i)

    def _encode(self, idxs: list[int], inputs: Sequence[Ids]) -> None:
        ids, mask = padded([list(inputs[i]) for i in idxs], self.pad_id, left=False, device=self.model.device)
        enc = self.model.get_encoder()(input_ids=ids, attention_mask=mask, return_dict=True).last_hidden_state
        kv = []
        for k, v, head in self.projections:  # as the cross-attention computes them from the encoder states
            kv.append([p(enc).view(*enc.shape[:2], -1, head).transpose(1, 2) for p in (k, v)])
        for r, (i, n) in enumerate(zip(idxs, mask.sum(-1).tolist(), strict=True)):
            self.ready[i] = Encoded(enc[r, :n], [(k[r, :, :n], v[r, :, :n]) for k, v in kv])


def padded(seqs: list[list[int]], pad_id: int, *, left: bool, device: Any) -> tuple[Any, Any]:
    """Token ids and attention mask of a padded batch."""
    import torch

    width = max(len(s) for s in seqs)
    rows, masks = [], []
    for s in seqs:
        pad = [pad_id] * (width - len(s))
        rows.append(pad + s if left else s + pad)
        masks.append([0] * len(pad) + [1] * len(s) if left else [1] * len(s) + [0] * len(pad))
    return torch.tensor(rows, device=device), torch.tensor(masks, device=device)


@dataclass
class _Batch:
    """The running rows of :class:`HFRows` and the tensors the model reads."""

    index: list[int] = field(default_factory=list)  # input index of each row
    live: list[bool] = field(default_factory=list)
    kv: list[list[Any]] = field(default_factory=list)  # per layer [k, v] (+ [cross k, cross v]), [B, H, T, d]
    mask: Any = None  # [B, T] self-attention columns (1 = real); real columns are right-aligned
    pos: Any = None  # [B] position of each row's next input token
    token: Any = None  # [B] each row's next input token
    enc: Any = None  # [B, S, d] encoder states (encoder-decoder); real positions left-aligned
    enc_mask: Any = None  # [B, S]
    cache: Any = None  # the model's cache object over ``kv`` (built lazily, updated by each step)

    def __len__(self) -> int:
        return len(self.index)


class HFRows:
    """Rows in the model's own cache (any supported architecture; see the module docstring)."""

    def __init__(self, model: Any, batch_size: int, pad_id: int, start: int | None):
        import torch

        self.torch, self.model, self.pad_id, self.start = torch, model, pad_id, start
        self.device = model.device
        self.encdec = bool(model.config.is_encoder_decoder)
        self.lookahead = Lookahead(model, batch_size, pad_id) if self.encdec else None
        self.head = lm_head(model) if self.encdec else None
        self.sdpa = model.config._attn_implementation == "sdpa"
        self.logits_to_keep = "logits_to_keep" in inspect.signature(model.forward).parameters
        self.admit_at = max(1, batch_size // (8 if self.encdec else 4))  # decoder-only: a prompt pass
        self.b = _Batch()
        self._row_pos: Any = None  # per-row positions for an absolute decoder position embedding
        if self.encdec and row_positions(model) == "absolute":
            model.get_decoder().embed_positions.register_forward_hook(self._absolute_positions)

    def release(self, idx: int) -> None:
        self.b.live[self.b.index.index(idx)] = False

    def admit(self, idxs: list[int], inputs: Sequence[Ids]) -> list[tuple[int, int]]:
        if self.encdec:
            assert self.lookahead is not None
            new, picked = self._fresh([self.lookahead.take(i, inputs) for i in idxs]), []
        else:
            new, logits = self._prefill([list(inputs[i]) for i in idxs])
            new.token = logits.to(dtype=self.torch.float32).argmax(dim=-1)
            picked = list(zip(idxs, new.token.tolist(), strict=True))
        new.index, new.live = list(idxs), [True] * len(idxs)
        self.b = self._merge(self._keep_live(self.b), new)
        return picked

    # -- one decoder step for the whole batch ---------------------------------------------------------------
    def step(self) -> list[tuple[int, int]]:
        b = self.b
        if len(b) - sum(b.live) >= self.admit_at:  # draining: stop computing finished rows
            b = self.b = self._keep_live(b)
        torch = self.torch
        mask = torch.cat([b.mask, b.mask.new_ones(len(b), 1)], dim=1)
        if b.cache is None:
            b.cache = self._cache(b.kv)
        self._row_pos = b.pos
        try:
            if self.encdec:
                assert self.head is not None
                hidden = self.model.get_decoder()(
                    input_ids=b.token[:, None], attention_mask=self._mask4(mask), encoder_hidden_states=b.enc,
                    encoder_attention_mask=self._mask4(b.enc_mask), past_key_values=b.cache, use_cache=True,
                ).last_hidden_state  # fmt: skip
                logits = self.head(self.model, hidden)[:, -1, :]
            else:
                logits = self.model(input_ids=b.token[:, None], attention_mask=self._mask4(mask),
                                    position_ids=b.pos[:, None], past_key_values=b.cache,
                                    use_cache=True).logits[:, -1, :]  # fmt: skip
        finally:
            self._row_pos = None
        live = torch.tensor(b.live, dtype=b.pos.dtype, device=self.device)
        b.mask, b.pos = mask, b.pos + live  # a finished row's position stays put while it is still computed
        b.token = logits.to(dtype=torch.float32).argmax(dim=-1)  # as generate picks greedily
        return [(i, t) for i, live, t in zip(b.index, b.live, b.token.tolist(), strict=True) if live]

    def _mask4(self, mask: Any) -> Any:
        """The [B, 1, 1, T] boolean mask SDPA attention builds from a 2D mask for one query (built once per
        step here instead of by the library's mask utilities in each call); other attentions get 2D ones."""
        return mask[:, None, None, :].bool() if self.sdpa else mask

    # -- new rows -------------------------------------------------------------------------------------------
    def _fresh(self, rows: list[Encoded]) -> _Batch:
        """Encoded inputs as rows about to take their first decoder step (no self-attention columns yet)."""
        torch, n = self.torch, len(rows)
        width = max(r.enc.shape[0] for r in rows)
        b = _Batch(mask=torch.zeros(n, 0, dtype=torch.long, device=self.device),
                   pos=torch.zeros(n, dtype=torch.long, device=self.device),
                   token=torch.full((n,), self.start, dtype=torch.long, device=self.device))  # fmt: skip
        b.enc = torch.stack([_pad(r.enc, width, 0, left=False) for r in rows])
        b.enc_mask = torch.tensor([[1] * r.enc.shape[0] + [0] * (width - r.enc.shape[0]) for r in rows],
                                  device=self.device)  # fmt: skip
        for layer in range(len(rows[0].kv)):
            k = rows[0].kv[layer][0]
            empty = k.new_zeros(n, k.shape[0], 0, k.shape[2])
            cross = [torch.stack([_pad(r.kv[layer][j], width, 1, left=False) for r in rows]) for j in (0, 1)]
            b.kv.append([empty, empty, *cross])
        return b

    def _prefill(self, seqs: list[list[int]]) -> tuple[_Batch, Any]:
        """Decoder-only: the new rows' prompts in one forward pass (left padding; positions count real
        tokens only, as generate computes them); returns the rows and their last logits."""
        ids, mask = padded(seqs, self.pad_id, left=True, device=self.device)
        position_ids = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 0)
        cache = self._cache([])
        keep = {"logits_to_keep": 1} if self.logits_to_keep else {}  # as generate: the last position only
        out = self.model(input_ids=ids, attention_mask=mask, position_ids=position_ids, past_key_values=cache,
                         use_cache=True, **keep)  # fmt: skip
        return _Batch(mask=mask, pos=mask.sum(-1), cache=cache), out.logits[:, -1, :]

    # -- batch surgery --------------------------------------------------------------------------------------
    def _take_tensors(self, b: _Batch) -> list[list[Any]]:
        """The per-layer tensors of ``b``, which gives them up: consumers pop layer after layer, so a batch
        being rebuilt holds one layer twice at most, not its whole cache."""
        if b.cache is None:
            kv, b.kv = b.kv, []
        elif self.encdec:
            kv = [[sk, sv, ck, cv] for sk, sv, _, ck, cv, _ in b.cache]
        else:
            kv = [[k, v] for k, v, _ in b.cache]
        b.cache = None
        return kv

    def _keep_live(self, b: _Batch) -> _Batch:
        """Drop finished rows, and the self-attention columns / encoder positions no remaining row uses."""
        keep = [r for r, live in enumerate(b.live) if live]
        if len(keep) == len(b):
            return b
        if not keep:
            return _Batch()
        idx = self.torch.tensor(keep, device=self.device)
        mask = b.mask[idx]
        first = int(mask.any(dim=0).nonzero()[0]) if mask.shape[1] else 0
        out = _Batch(index=[b.index[r] for r in keep], live=[True] * len(keep), mask=mask[:, first:],
                     pos=b.pos[idx], token=b.token[idx])  # fmt: skip
        width = 0
        if self.encdec:
            enc_mask = b.enc_mask[idx]
            width = int(enc_mask.sum(-1).max())
            out.enc, out.enc_mask = b.enc[idx][:, :width], enc_mask[:, :width]
        src = self._take_tensors(b)
        while src:
            lay = src.pop(0)
            out.kv.append([t[idx][:, :, first:] for t in lay[:2]] + [t[idx][:, :, :width] for t in lay[2:]])
        return out

    def _merge(self, a: _Batch, b: _Batch) -> _Batch:
        """Rows of ``a`` then ``b``: self-attention columns left-padded, encoder positions right-padded."""
        if not len(a):
            return b
        t = max(a.mask.shape[1], b.mask.shape[1])
        torch = self.torch
        out = _Batch(index=a.index + b.index, live=a.live + b.live, pos=torch.cat([a.pos, b.pos]),
                     token=torch.cat([a.token, b.token]))  # fmt: skip
        out.mask = _cat(a.mask, b.mask, t, 1, left=True)
        s = 0
        if self.encdec:
            s = max(a.enc.shape[1], b.enc.shape[1])
            out.enc = _cat(a.enc, b.enc, s, 1, left=False)
            out.enc_mask = _cat(a.enc_mask, b.enc_mask, s, 1, left=False)
        ka, kb = self._take_tensors(a), self._take_tensors(b)
        while ka:
            la, lb = ka.pop(0), kb.pop(0)
            lay = [_cat(x, y, t, 2, left=True) for x, y in zip(la[:2], lb[:2], strict=True)]
            out.kv.append(lay + [_cat(x, y, s, 2, left=False) for x, y in zip(la[2:], lb[2:], strict=True)])
        return out

    def _cache(self, kv: list[list[Any]]) -> Any:
        """A cache object over ``kv``, which it empties layer by layer (the cache copies each layer in)."""
        from transformers import DynamicCache, EncoderDecoderCache

        def layers(first: int) -> Iterator[tuple[Any, Any]]:
            for lay in kv:
                pair = (lay[first], lay[first + 1])
                lay[first] = lay[first + 1] = None
                yield pair

        if not kv:
            cache = EncoderDecoderCache(DynamicCache(), DynamicCache()) if self.encdec else DynamicCache()
        elif self.encdec:
            cache = EncoderDecoderCache(DynamicCache(layers(0)), DynamicCache(layers(2)))
        else:
            cache = DynamicCache(layers(0))
        kv.clear()
        return cache

    def _absolute_positions(self, module: Any, args: Any, output: Any) -> Any:
        """BART's decoder embeds one position for the whole batch; give each row its own instead."""
        if self._row_pos is None:
            return output
        return self.torch.nn.functional.embedding(self._row_pos[:, None] + module.offset, module.weight)


def _cat(x: Any, y: Any, width: int, dim: int, *, left: bool) -> Any:
    """``x`` and ``y`` stacked on the batch dimension, each padded with zeros to ``width`` along ``dim``."""
    import torch

    return torch.cat([_pad(x, width, dim, left=left), _pad(y, width, dim, left=left)])


def _pad(x: Any, width: int, dim: int, *, left: bool) -> Any:
    import torch

    missing = width - x.shape[dim]
    if missing <= 0:
        return x
    shape = list(x.shape)
    shape[dim] = missing
    zeros = x.new_zeros(shape)
    return torch.cat([zeros, x] if left else [x, zeros], dim=dim)
