"""Real chat-model turns in real PersonaChat dialogues, drawn for blind contradiction labels (step 1 of the
protocol in README.md beside this file).

    OMP_NUM_THREADS=2 python tests/data/dialogues/make_items.py DIALOGUES OUT_DIR NAME=MODEL:MODE [...]
    ROUND=2 OMP_NUM_THREADS=2 python tests/data/dialogues/make_items.py ...  # the next 150 contexts, all test

DIALOGUES is PersonaChat validation in the ConsisTest layout (``../shared/data/personachat/
consistest_valid.json``); each NAME=MODEL:MODE is a chat model spec (a folder, ``ct2:DIR``) and how it is
prompted (``chat``: its chat template, the persona as system message; ``transcript``: a plain transcript,
for base models). Greedy, 40 new tokens, as the held-out replies.

Contexts: dialogues whose persona ``consistest detector-pairs`` (seed 0) puts in its train split (the
detector's thresholds are picked on its dev split), ordered by a hash of the dialogue id; each gives one
cut at an agent turn with at least two agent turns before it, the user's turn before the cut a question
for half the contexts and a statement for the other half. Every model answers every context. The split is
by dialogue, fixed here before any label exists (one third dev, two thirds test).

Round 2 (``ROUND=2``) takes the next 150 contexts in the same order (no dialogue of round 1), all of them
test: a fresh test set frozen before any rule designed after round 1's figures were read. Its items are
named ``e0001``...; round 3 (``ROUND=3``, ``f0001``...) the 150 after those, frozen before any rule designed
after round 2's figures; round 4 (``ROUND=4``, ``g0001``...) the next 150, frozen before the fixes of a review
made after round 3's figures; round 5 (``ROUND=5``, ``h0001``...) what is left of that pool (114
contexts), frozen before any rule designed after round 4's figures. Round 6 (``ROUND=6``, ``i0001``...)
reads another source, DECODE ``rct`` (``../shared/data/decode/decode_rct.jsonl``: human-written BST, Wizard
of Wikipedia, EmpatheticDialogues and ConvAI2 dialogues): the dialogues ``train-detector`` puts in the
test split of ``--data`` (never read for a threshold), whose second speaker has persona lines, cut the same
way (106 contexts). Round 7 (``ROUND=7``, ``j0001``...) takes every other dialogue of that test split with
at least six turns, with or without persona lines (none is read twice), cut as before or, where no turn of
the wanted kind exists, at any agent turn; frozen before any reading designed after rounds 5-6's figures.
Round 8 (``ROUND=8``, ``k0001``...) reads the dev split of that file the same way (150 contexts): the
human turns of those dialogues were read, as consistent ones, when thresholds were picked on the dev split
of ``--data``, the model turns never; frozen before any choice made on round 7's figures. Round 9
(``ROUND=9``, ``l0001``...) takes the rest of that split's pool, cut the same way, frozen before a
detector trained on rounds 1-8 was read on it. Round 10 (``ROUND=10``, ``m0001``...) reads the train
split of that file the same way (200 contexts; its human turns are among the hard negatives detectors
train on, the model turns are new), frozen before any reading designed after rounds 7-9's figures; round
11 (``ROUND=11``, ``n0001``...) the next 200 of that split, frozen before any reading designed after round
10's figures; round 12 (``ROUND=12``, ``o0001``...) the 200 after those, frozen before any reading designed
after round 11's; round 13 (``ROUND=13``, ``p0001``...) the 200 after those, frozen before any reading
designed after round 12's. Every dialogue of six turns or more is then used. Round 14 (``ROUND=14``,
``q0001``...) reads the short ones no round has read: the alternating dialogues of four or five turns,
those of the test split first, then the dev split's, each in hash order (200 contexts), cut at the second
speaker's second turn (the only cut with an earlier agent turn: the bot has said one turn before); frozen
before any reading designed after round 13's figures. Round 15 (``ROUND=15``, ``r0001``...) takes the next
200 of that order (the rest of the dev split's, then the train split's), frozen before any reading designed
after round 14's; round 16 (``ROUND=16``, ``s0001``...) the 200 after those, frozen before any reading
designed after round 15's. Round 17 (``ROUND=17``, ``t0001``...) reads PersonaChat again: the dialogues whose
persona ``detector-pairs`` puts in its dev split (their human turns were read, as synthetic pairs, when
thresholds were picked; the judged turns never), cut as rounds 1-5 (125 contexts), frozen after ``qa:19``
and before any reading designed after round 16's figures. Round 18 (``ROUND=18``, ``u0001``...) takes
the dialogues of the train split that rounds 1-5 took no cut of (none had the wanted kind of turn), cut as
round 7 (161 contexts), frozen before any detector read them (``qa:20`` was designed on rounds 1-17).
Round 19 (``ROUND=19``, ``v0001``...) is closer to a human-bot dialogue: 150 dialogues of the train split in
another hash order, cut at the third to fifth agent turn, and the model writes EVERY agent turn up to the
cut, turn by turn, the people's user turns replayed (``bot_written``); the judged turn is the model's last.
Round 20 (``ROUND=20``, ``w0001``...) takes 150 more of that split the same way, in its own hash order and
without round 19's dialogues; round 21 (``ROUND=21``, ``x0001``...) 150 more, without rounds 19-20's; round 22
(``ROUND=22``, ``y0001``...) 100 more, without rounds 19-21's; round 23 (``ROUND=23``, ``z0001``...) 150
more, without rounds 19-22's, frozen before any detector read them with a guard trained on contracted
negations and changed counts (``guard-v4``); round 24 (``ROUND=24``, ``b0001``...: the letters ran out, and
``a`` names the held-out replies) 150 more, without rounds 19-23's; round 25 (``ROUND=25``, ``c0001``...)
what is left of that split, without rounds 19-24's. Round 26 (``ROUND=26``, ``r26-0001``...) writes the bot
turns of the 125 dialogues of the dev split (round 17's, whose agent turns were people's) the same way.
Round 1 (the default) is reproduced exactly.

Writes OUT_DIR/runs/NAME/responses.jsonl (resumable), OUT_DIR/items.jsonl (what annotators see: item,
persona, turns, reply; models shuffled together, no names) and OUT_DIR/key.jsonl (item -> context,
dialogue, cut, model, split).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from dataclasses import replace
from pathlib import Path

from consistest.core.records import Dialogue, Sample
from consistest.data.decode_reader import read_decode
from consistest.data.dialogues import read_dialogues
from consistest.metrics.answers import is_question
from consistest.models.decoding import Decoding
from consistest.models.registry import ModelSpec
from consistest.tasks.cdconv.detector_data import split_of_dialogue
from consistest.tasks.cdconv.train import split_of
from consistest.tasks.consistest.generation import RespondConfig, load_model, respond

SEED = "dialogues-2026-11"
CONTEXTS = 150
ROUND = int(os.environ.get("ROUND", "1"))
MODES = {"chat": {"chat_template": True}, "transcript": {"transcript": True}}


def _h(*parts: object) -> int:
    return int(hashlib.sha256(":".join(map(str, (SEED, *parts))).encode()).hexdigest(), 16)


def decode_pool(
    path: str, need_persona: bool = True, split: str = "test", lengths: range = range(6, 10**6)
) -> list[Dialogue]:
    """DECODE dialogues of train-detector's test split (or ``split``; seed 13, 60/20/20 by context) whose
    turns alternate, whose length is in ``lengths`` and whose second speaker has persona lines (unless
    ``need_persona`` is off), as that speaker's."""
    out = []
    for ex, line in zip(read_decode(path), Path(path).read_text(encoding="utf-8").splitlines(), strict=True):
        obj, turns = json.loads(line), ex.turns
        agents = [t["agent_id"] for t in obj["turns"]]
        persona = obj["agents"][str(agents[1])]["persona_lines"] or []
        alternate = all(a == agents[i % 2] for i, a in enumerate(agents))
        kept = alternate and (bool(persona) or not need_persona) and len(turns) in lengths
        if kept and split_of(ex, "context", 13, (0.6, 0.2)) == split:
            out.append(Dialogue(obj["conversation_id"], tuple(persona), tuple(turns)))
    return out


def contexts(path: str, round_: int = ROUND) -> list[Sample]:
    """One cut per dialogue, alternating a question and a statement before it, as ConsisTest samples
    whose history ends with the user's turn."""
    if round_ in (17, 26):  # PersonaChat's dialogues whose persona detector-pairs puts in its dev split
        pool = _personachat(path, "dev")
    elif 19 <= round_ <= 25:  # the model writes every agent turn (bot_written): the train split again
        pool = _personachat(path, "train", without=range(19, round_))
    elif round_ == 18:  # the train-split dialogues rounds 1-5 took no cut of
        pool = _personachat(path, "train", without=range(1, 6))
    elif round_ >= 14:
        return short_contexts(path, round_)
    elif round_ >= 10:
        pool = decode_pool(path, need_persona=False, split="train")
    elif round_ >= 8:
        pool = decode_pool(path, need_persona=False, split="dev")
    elif round_ == 7:
        taken = {s.dialog_id for s in contexts(path, 6)}
        pool = [d for d in decode_pool(path, need_persona=False) if d.dialog_id not in taken]
    elif path.endswith(".jsonl"):
        pool = decode_pool(path)
    else:
        pool = _personachat(path, "train")
    limits = {8: CONTEXTS, 9: None, 10: 200, 11: 400, 12: 600, 13: 800, 17: None, 18: None}
    limits |= {19: CONTEXTS, 20: CONTEXTS, 21: CONTEXTS, 22: 100, 23: CONTEXTS, 24: CONTEXTS}
    limits |= {25: None, 26: None}
    limit = limits.get(round_, CONTEXTS * min(round_, 5))
    out: list[Sample] = []
    order = ("order", round_) if round_ >= 19 else ("order",)
    for d in sorted(pool, key=lambda d: _h(*order, d.dialog_id)):
        want_question = len(out) % 2 == 0
        utts = d.utterances
        every = range(5, min(len(utts), 11) if round_ >= 19 else len(utts), 2)  # 19-26: 3rd-5th agent turn
        wanted = [j for j in every if is_question(utts[j - 1]) == want_question]
        cuts = wanted or (list(every) if round_ >= 7 else [])
        if not cuts:
            continue
        j = random.Random(f"{SEED}:{d.dialog_id}").choice(cuts)
        out.append(_sample(d, j))
        if len(out) == limit:
            break
    if round_ == 9:  # what round 8 left of the same pool
        return out[CONTEXTS:]
    if 11 <= round_ <= 13:  # the 200 after the last round's
        return out[200 * (round_ - 10) :]
    return out if round_ >= 6 else out[CONTEXTS * (round_ - 1) :]


def _personachat(path: str, split: str, without: range = range(0)) -> list[Dialogue]:
    """The PersonaChat dialogues whose persona ``detector-pairs`` (seed 0) puts in ``split``, but for those
    the rounds ``without`` cut."""
    taken = {s.dialog_id for r in without for s in contexts(path, r)}
    return [
        d for d in read_dialogues(path) if split_of_dialogue(d, 0, 0.15) == split and d.dialog_id not in taken
    ]


def short_contexts(path: str, round_: int) -> list[Sample]:
    """Rounds 14-16: the four- and five-turn dialogues, test split, then dev, then train, each in hash
    order, cut after three turns; 200 per round."""
    out = []
    for split in ("test", "dev", "train"):
        pool = decode_pool(path, need_persona=False, split=split, lengths=range(4, 6))
        out += [_sample(d, 3) for d in sorted(pool, key=lambda d: _h("order", d.dialog_id))]
    return out[200 * (round_ - 14) : 200 * (round_ - 13)]


def bot_written(samples: list[Sample], cfg: RespondConfig, run: Path) -> list[tuple[Sample, str]]:
    """Rounds 19-26: the model writes every agent turn of each context in turn, the user's turns replayed as
    the people wrote them; each sample with the model's turns in its history, and the model's judged turn."""
    model = load_model(cfg.model, samples)
    history = {s.id: list(s.history) for s in samples}
    reply: dict[str, str] = {}
    for k in range(1, max(s.turn for s in samples) + 1, 2):  # the agent's k-th utterance, in every context
        todo = [s for s in samples if k <= s.turn]
        step = [replace(s, id=f"{s.id}@{k}", history=history[s.id][:k], question=history[s.id][k - 1])
                for s in todo]  # fmt: skip
        path = respond(cfg, step, run / f"turn{k}", model=model)
        lines = filter(str.strip, path.read_text().splitlines())
        got = {r["id"]: r["response"] for r in map(json.loads, lines)}
        for s in todo:
            if k < s.turn:
                history[s.id][k] = got[f"{s.id}@{k}"]
            else:
                reply[s.id] = got[f"{s.id}@{k}"]
    return [(replace(s, history=history[s.id], question=history[s.id][-1]), reply[s.id]) for s in samples]


def _sample(d: Dialogue, j: int) -> Sample:
    """Dialogue ``d`` cut before turn ``j``: a ConsisTest sample whose history ends with the user's turn."""
    history = list(d.utterances[:j])
    return Sample(
        id=f"{d.dialog_id}-{j}",
        qa_id=d.dialog_id,
        dialog_id=d.dialog_id,
        persona=list(d.persona),
        history=history,
        question=history[-1],
        answer="",
        fact="",
        nli_premise="",
        source="hist",
        type="wh",
        distance=0,
        turn=j,
    )


def main(dialogues: str, out: str, *models: str) -> None:
    if not 1 <= ROUND <= 26:
        sys.exit(f"make_items.py: ROUND is 1 to 26, not {ROUND}")
    if (6 <= ROUND <= 16) != dialogues.endswith(".jsonl"):
        sys.exit(f"make_items.py: rounds 6-16 read DECODE rct (.jsonl), others PersonaChat, not {dialogues}")
    samples = contexts(dialogues)
    by_id = {s.id: s for s in samples}
    rows = []
    for named in models:
        name, _, rest = named.partition("=")
        spec, _, mode = rest.rpartition(":")
        options = {**MODES[mode], "device": "cpu", "batch_size": 4}
        cfg = RespondConfig(ModelSpec(spec, Decoding(max_new_tokens=40), options))
        run = Path(out) / "runs" / name
        if ROUND >= 19:
            rows += [(name, s, reply) for s, reply in bot_written(samples, cfg, run)]
            continue
        respond(cfg, samples, run)
        for line in (run / "responses.jsonl").read_text().splitlines():
            r = json.loads(line) if line.strip() else None
            if r and r["id"] in by_id:
                rows.append((name, by_id[r["id"]], r["response"]))
    rows.sort(key=lambda x: _h("item", x[0], x[1].id))
    items, key = [], []
    for n, (name, s, reply) in enumerate(rows, 1):
        item = f"{'defghijklmnopqrstuvwxyzbc'[ROUND - 1] if ROUND <= 25 else f'r{ROUND}-'}{n:04d}"
        split = "dev" if ROUND == 1 and _h("split", s.dialog_id) % 3 == 0 else "test"
        items.append({"item": item, "persona": s.persona, "turns": s.history, "reply": reply})
        key.append({"item": item, "context": s.id, "dialog_id": s.dialog_id, "cut": s.turn, "model": name,
                    "split": split})  # fmt: skip
    for fname, data in (("items.jsonl", items), ("key.jsonl", key)):
        text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in data)
        (Path(out) / fname).write_text(text, encoding="utf-8")
    print(f"{len(items)} items from {len(samples)} contexts -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
