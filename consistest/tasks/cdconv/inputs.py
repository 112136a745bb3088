"""Dialogues for the detectors from ConsisTest outputs: scored run directories and labelled replies.

A labelled-replies file is JSONL, one bot reply to a ConsisTest sample per line::

    {"item": "s-0001", "id": "<sample id>", "model": "smollm2", "response": "...", "human": 0,
     "category": "history", "note": "..."}

``id`` is a sample of the built dataset (``--dataset``): its persona is the bot's, its history (whose last
element is the question) the turns before the reply. ``category`` is the annotators' failure category
(consistent, intra, role, history, uninformative; consistent and uninformative contradict nothing), absent
or null for unlabelled replies. ``labelled_dialogues`` turns such a file into DECODE-layout dialogues
(agents with persona lines, turns with speakers, ``is_contradiction``, ``category``), which every
detector and DECODE reader reads; the data layer never reads ConsisTest outputs itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.records import DetectorLabel, DialogueExample, Sample, content_hash
from consistest.data.cdconv import read_examples
from consistest.data.decode_reader import make_example

# A ConsisTest failure category as a detector label (uninformative replies contradict nothing); replies
# only an NLI model could place (``not_judged``; ``undecided`` in runs scored before categories v2) have none.
CATEGORY_TO_LABEL: dict[str, DetectorLabel | None] = {
    "consistent": "none",
    "uninformative": "none",
    "intra": "intra",
    "role": "role",
    "history": "history",
    "not_judged": None,
    "undecided": None,
}
HUMAN_CATEGORIES = ("consistent", "intra", "role", "history", "uninformative")
USER, BOT = 0, 1  # agent ids of the DECODE-layout dialogues written here


def is_labelled_replies(path: str | Path) -> bool:
    """A JSONL file whose first record is a reply to a sample (``id`` and ``response``, no turns)."""
    path = Path(path)
    if path.is_dir():
        return False
    for _, obj in read_jsonl(path):
        return {"id", "response"} <= obj.keys() and "turns" not in obj and "b2" not in obj
    return False


def read_dialogues(path: str | Path, dataset: str | Path | None = None) -> list[DialogueExample]:
    """Examples from any layout the detectors read: a scored run directory or a labelled-replies file
    (both need ``dataset``), or a CDConv / DECODE / detector-pairs JSONL file."""
    if Path(path).is_dir() or is_labelled_replies(path):
        if dataset is None:
            what = "a scored run" if Path(path).is_dir() else "a labelled-replies file"
            raise InputError(f"{what} needs its dataset directory (--dataset)", path=str(path))
        if Path(path).is_dir():
            return read_scored_run(path, dataset)
        return [_example(row) for row in labelled_dialogues(path, dataset)]
    return read_examples(path)


def load_all_samples(dataset: str | Path) -> dict[str, Sample]:
    """Every sample of a built dataset by id, trigger variants included."""
    from consistest.data.dataset_dir import load_samples

    return {s.id: s for s in [*load_samples(dataset), *_trigger_samples(dataset)]}


def read_scored_run(rundir: str | Path, dataset: str | Path) -> list[DialogueExample]:
    """A ConsisTest run as dialogues: each sample's history, then the reply, with the bot's persona;
    labelled by its failure category (see ``CATEGORY_TO_LABEL``)."""
    from consistest.core.rundir import SCORES_FILE

    scores = Path(rundir) / SCORES_FILE
    if not scores.is_file():
        raise InputError(f"a directory without {SCORES_FILE}: not a scored run", path=str(rundir))
    samples = load_all_samples(dataset)
    out = []
    for lineno, obj in read_jsonl(scores):
        sample = samples.get(str(obj.get("id")))
        if sample is None:
            raise InputError(
                f"id {obj.get('id')!r} is not in {dataset}", path=str(scores), record=f"line {lineno}"
            )
        label = CATEGORY_TO_LABEL.get(str(obj.get("category")))
        turns = [*sample.history, str(obj.get("response", ""))]
        trig = str(obj.get("trigger", ""))
        out.append(make_example(turns, label, trigger=trig, origin=sample.id, persona=sample.persona))
    return out


def labelled_dialogues(path: str | Path, dataset: str | Path) -> list[dict[str, Any]]:
    """The labelled replies as DECODE-layout dialogues, one per line of ``path``, in file order."""
    path = Path(path)
    samples = load_all_samples(dataset)
    rows, seen = [], set()
    for lineno, obj in read_jsonl(path):
        where = {"path": str(path), "record": f"line {lineno}"}
        sample = samples.get(str(obj.get("id")))
        if sample is None:
            raise InputError(f"id {obj.get('id')!r} is not a sample of {dataset}", field="id", **where)
        response = obj.get("response")
        if not isinstance(response, str):
            raise InputError("missing or not a string", field="response", **where)
        category = obj.get("category")
        if category is not None and category not in HUMAN_CATEGORIES:
            names = ", ".join(HUMAN_CATEGORIES)
            raise InputError(f"unknown category {category!r} ({names})", field="category", **where)
        item = str(obj.get("item", f"line {lineno}"))
        if item in seen:
            raise InputError(f"item {item!r} appears twice", field="item", **where)
        seen.add(item)
        rows.append(dialogue_row(sample, response, category, item=item, model=str(obj.get("model", ""))))
    if not rows:
        raise InputError("no labelled replies", path=str(path))
    return rows


def dialogue_row(
    sample: Sample, response: str, category: str | None, *, item: str, model: str
) -> dict[str, Any]:
    """One reply as a DECODE-layout dialogue: the sample's history then the reply, speakers alternating so
    that the bot (agent 1, with the sample's persona) says the last turn."""
    texts = [*sample.history, response]
    first = USER if len(texts) % 2 == 0 else BOT
    turns = [{"turn_id": i, "agent_id": (first + i) % 2, "text": t} for i, t in enumerate(texts)]
    label = CATEGORY_TO_LABEL.get(category) if category is not None else None
    return {
        "id": item,
        "sample_id": sample.id,
        "agents": {str(USER): {"persona_lines": []}, str(BOT): {"persona_lines": list(sample.persona)}},
        "turns": turns,
        "is_contradiction": None if label is None else label != "none",
        "category": label,
        "consistest_category": category,
        "source": model,
    }


def _example(row: Mapping[str, Any]) -> DialogueExample:
    """A written dialogue row as an example (origin: the model), with the bot's persona; its id names the
    item too, so two models' equal replies to one sample stay two examples."""
    texts = [t["text"] for t in row["turns"]]
    persona = row["agents"][str(BOT)]["persona_lines"]
    ex = make_example(texts, row["category"], origin=row["source"], persona=persona)
    return DialogueExample(**{**ex.to_dict(), "id": content_hash("labelled-reply", row["id"], ex.id)})


def _trigger_samples(dataset: str | Path) -> list[Sample]:
    """The samples of the dataset's ``triggers`` config (data/triggers.*), when it was built with one."""
    from consistest.data.dataset_dir import read_parquet_rows

    for path in sorted((Path(dataset) / "data").glob("triggers.*")):
        rows = [o for _, o in read_jsonl(path)] if path.suffix == ".jsonl" else read_parquet_rows(path)
        return [Sample.from_dict(r) for r in rows]
    return []
