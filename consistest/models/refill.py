"""Greedy decoding that refills finished rows: a batch of ``batch_size`` rows stays full until the inputs
run out, so no decoder step is spent on replies that already ended.

``model.generate`` keeps every row of a batch until its longest reply ends; with replies of 2 to 25 tokens
most decoder steps of a batch compute rows that are done. Here a row leaves the batch when it emits an
end-of-sequence token (or reaches ``max_new_tokens``) and pending inputs take its place. Encoder-decoder
inputs are encoded ahead, a batch at a time, with their cross-attention keys and values, so a new row just
starts in the next decoder step; decoder-only models run the new rows' prompts in one forward pass. Rows
sit at different positions: each gets its own (``position_ids`` for decoder-only models, the position
embedding of BART's decoder, nothing for T5's relative positions) and padding columns are masked, so
every row is computed as it would be alone. Each token is the ``argmax`` of the float32 logits, as in
``generate(do_sample=False, num_beams=1)`` when the generation config adds no logits processor
(:func:`~consistest.models.refill_support.unsupported` says when it does, and callers use ``generate``).

Two row stores do the tensor work: :class:`~consistest.models.bart_slots.BartSlots` (BART: fixed slots and
a decoder step on the model's own weights, without the library's per-call overhead) and :class:`HFRows`
(any supported model, through its forward and a key/value cache that is padded and concatenated as rows
come and go).

One :meth:`RefillDecoder.run` starts from an empty batch and admits inputs in the given order, so its
replies depend on its inputs alone: callers run fixed slices of a planned order (``SEGMENT_BATCHES``
batches' worth each), and a resumed run that repeats a slice repeats it exactly.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from consistest.models.refill_rows import HFRows, Rows
from consistest.models.refill_support import bart_fast_path, decoder_start, eos_ids

SEGMENT_BATCHES = 32  # a slice holds this many batches' worth of inputs
FLUSH_SECONDS = (
    2.0  # after the first group, finished replies are handed over (and written) at most this often
)
Ids = Sequence[int]


class RefillDecoder:
    """Greedy decoding of many inputs through one always-full batch (see the module docstring)."""

    def __init__(
        self, model: Any, generation_config: Any, *, batch_size: int, max_new_tokens: int, pad_id: int
    ):
        self.model, self.batch_size, self.max_new, self.pad_id = model, batch_size, max_new_tokens, pad_id
        self.encdec = bool(model.config.is_encoder_decoder)
        self.eos = frozenset(eos_ids(generation_config))
        self.start: int | None = decoder_start(model, generation_config) if self.encdec else None
        self.fast = self.encdec and bart_fast_path(model) is None

    def rows(self, inputs: Sequence[Ids]) -> Rows:
        """The row store for one run: BART's fixed slots when they apply, else the generic one."""
        if self.fast:
            from consistest.models.bart_slots import BartSlots

            return BartSlots(
                self.model, self.batch_size, self.max_new, max(map(len, inputs)), self.start, self.pad_id
            )
        return HFRows(self.model, self.batch_size, self.pad_id, self.start)

    def run(self, inputs: Sequence[Ids]) -> Iterator[list[tuple[int, list[int]]]]:
        """Yield (input index, generated ids) for every input: the first ``batch_size`` rows to finish, then
        groups of at least ``batch_size`` rows at most every ``FLUSH_SECONDS`` (each group costs the caller
        a write and an fsync), then the rest. The batch starts empty, so the result depends on ``inputs``
        alone."""
        import time

        import torch

        rows = self.rows(inputs)
        pending: deque[int] = deque(range(len(inputs)))
        out: dict[int, list[int]] = {}  # input index -> ids so far, for the rows in the batch
        done: list[tuple[int, list[int]]] = []
        last = -FLUSH_SECONDS
        while pending or out:
            with torch.inference_mode():
                free = self.batch_size - len(out)
                if pending and (free >= rows.admit_at or not out):
                    new = [pending.popleft() for _ in range(min(free, len(pending)))]
                    out.update((i, []) for i in new)
                    picked = rows.admit(new, inputs)  # first tokens, for decoder-only prompts
                else:
                    picked = rows.step()
            for i, token in picked:
                ids = out[i]
                ids.append(token)
                if len(ids) >= self.max_new or token in self.eos:
                    done.append((i, out.pop(i)))
                    rows.release(i)
            if len(done) >= self.batch_size and time.monotonic() - last >= FLUSH_SECONDS:
                yield done
                done, last = [], time.monotonic()
        if done:
            yield done
