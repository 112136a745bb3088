"""The dataset card (README.md) of a built directory: YAML ``configs:`` for ``datasets`` plus prose."""

from __future__ import annotations

from typing import Any

import yaml

from consistest.data.dataset_dir import DATA_STEM

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("id", "string", "stable id: hash of the QA, distance and history"),
    ("qa_id", "string", "hash of the QA; the same QA at every distance shares it (pairs d=0 with d=2)"),
    ("dialog_id", "string", "PersonaChat validation dialogue id"),
    ("persona", "list[string]", "the agent's persona sentences"),
    ("history", "list[string]", "the utterances before the question (at most 2*memory), then the question"),
    ("question", "string", "the question (also the last item of history)"),
    ("answer", "string", "gold short answer; yes/no for Y/N; alternatives separated by |"),
    ("fact", "string", "the supporting fact (c): a persona sentence or the agent's utterance sentence"),
    ("nli_premise", "string", "premise for the NLI guard: the clean rewrite alt_c when present, else fact"),
    (
        "source",
        "string",
        "pers (persona fact), hist (generated from history), hist_ext (Q/A found in dialogue)",
    ),
    ("type", "string", "wh or yn"),
    ("distance", "int32", "turns between the fact and the question (0 or 2)"),
    ("turn", "int32", "history facts: the fact is agent utterance 2*turn+1; -1 for persona"),
    ("fact_index", "int32", "index in history of the utterance holding the fact; -1 if none"),
    ("generator", "string", "what made the QA: curated, or a builder's generator id"),
)

# The columns a session build adds (consistest build --memory all; records.SessionSample).
SESSION_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("sessions", "int32", "session breaks between the fact and the question (persona: since the first)"),
    ("session_starts", "list[int32]", "indices in history that open a new session (a break before them)"),
)

_DTYPES = {"string": "string", "int32": "int32"}


_SESSION_MEANINGS = {
    "history": "the utterances before the question (all with memory all, across sessions), then the question",
    "distance": "agent turns between the fact and the question (persona: turns of conversation before it)",
}


def _fields(info: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    if "sessions" not in info:
        return FIELDS
    return tuple((n, t, _SESSION_MEANINGS.get(n, d)) for n, t, d in FIELDS) + SESSION_FIELDS


def _features_yaml(fields: tuple[tuple[str, str, str], ...] = FIELDS) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, dtype, _ in fields:
        if dtype.startswith("list["):
            out.append({"name": name, "list": dtype[5:-1]})
        else:
            out.append({"name": name, "dtype": _DTYPES[dtype]})
    return out


def render_card(info: dict[str, Any]) -> str:
    """Card text; deterministic for identical build info."""
    fmt = info["settings"]["format"]
    meta = {
        "pretty_name": info["name"],
        "language": ["en"],
        "license": "other",
        "task_categories": ["text-generation"],
        "tags": ["dialogue", "consistency", "persona-chat", "benchmark"],
        "size_categories": ["10K<n<100K"] if info["counts"]["total"] >= 10_000 else ["n<1K"],
        "configs": [
            {"config_name": "default", "data_files": [{"split": "test", "path": f"{DATA_STEM}.{fmt}"}]}
        ],
        "dataset_info": {"features": _features_yaml(_fields(info))},
    }
    if info.get("triggers"):  # a second config; a build without triggers keeps its card byte for byte
        meta["configs"].append(
            {"config_name": "triggers", "data_files": [{"split": "test", "path": info["triggers"]["file"]}]}
        )
        trigger_fields = [{"name": n, "dtype": "string"} for n, _ in TRIGGER_FIELDS]
        meta["dataset_info"] = [
            {"config_name": "default", "features": _features_yaml()},
            {"config_name": "triggers", "features": _features_yaml() + trigger_fields},
        ]
    header = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True)
    return f"---\n{header}---\n\n{_body(info)}{_sessions_section(info)}{_triggers_section(info)}"


def _sessions_section(info: dict[str, Any]) -> str:
    s = info.get("sessions")
    if not s:
        return ""
    rows = "\n".join(f"| {k} | {n:,} |" for k, n in s["missing"]["no_session_left"].items())
    dropped = sum(s["missing"]["contradicted"].values())
    return f"""
## Sessions

A session build: a question may be asked past the end of its dialogue, in further sessions of the same
agent (the other PersonaChat dialogues of its persona set, in an order given by a hash of their text;
consistest's `tasks/consistest/sessions.py` documents the placement). `session_starts` marks the
breaks; `sessions` counts them between the fact and the question. {dropped:,} samples were dropped because
an agent utterance of a filler session contradicts the fact (check `{s["check"]}`). Samples that would lie
beyond the last session do not exist:

| source/type/distance | samples with no session left |
| --- | ---: |
{rows}
"""


# The trigger config's columns beyond the sample's (written by tasks/consistest/triggers.py).
TRIGGER_FIELDS: tuple[tuple[str, str], ...] = (
    ("trigger", "original, paraphrase, synonym, antonym, negation or short"),
    ("base_id", "id of the benchmark sample the variant was made from"),
    ("trigger_rule", "the template or word swap that made it (e.g. like->dislike)"),
)


def _triggers_section(info: dict[str, Any]) -> str:
    t = info.get("triggers")
    if not t:
        return ""
    counts = "\n".join(f"| {k} | {v:,} |" for k, v in t["counts"].items())
    fields = "\n".join(f"| `{n}` | {d} |" for n, d in TRIGGER_FIELDS)
    return f"""
## Config `triggers`

`load_dataset("path/to/this/directory", "triggers", split="test")`: each sample's final user turn
rewritten to provoke a contradiction (CDConv's trigger methods), with a derived truth: paraphrase and
synonym keep it, antonym flips a yes/no truth, negation keeps it, short ("ok .") has none. Each sample's
`original` row comes first. {t["rows"]:,} rows ({t["signature"]}); word lists `{t["lexicon"]}`.

| trigger | variants |
| --- | ---: |
{counts}

| extra field | meaning |
| --- | --- |
{fields}
"""


def _dialogues_note(info: dict[str, Any]) -> str:
    if info.get("qa_origin") == "demo":
        return "three PersonaChat-style dialogues written for consistest's demo (MIT)."
    return (
        "PersonaChat (Zhang et al., 2018), as given to `consistest build`; the published benchmark uses the\n"
        "  validation split released with ConsisTest. PersonaChat is distributed through ParlAI: check its\n"
        "  terms before redistributing."
    )


def _questions_note(info: dict[str, Any]) -> str:
    """Where the QAs came from: the curated files, or consistest's question builders."""
    q = info.get("qagen")
    if info.get("qa_origin") == "demo":
        return "hand-written demo QAs shipped with consistest (MIT), not from the published benchmark."
    if q:
        return (
            f"generated by consistest's question builders ({q.get('qagen_version')}, WH by "
            f"{q.get('wh_generator')}), written beside this card: `persona_qas.json` and `history_qas.json`."
        )
    return (
        'the curated ConsisTest QA files (Lotfi et al., "What Was Your Name Again? Interrogating\n'
        "  Generative Conversational Models For Factual Consistency Evaluation\", 2022), from the authors'\n"
        "  public repository; no licence is stated there, so ask the authors before redistributing."
    )


def _body(info: dict[str, Any]) -> str:
    s = info["settings"]
    schema = "\n".join(f"| `{n}` | {t} | {d} |" for n, t, d in _fields(info))
    counts = "\n".join(
        f"| {k} | {v:,} | {info['counts_paired'].get(k, 0):,} |"
        for k, v in info["counts"].items()
        if k != "total"
    )
    inputs = "\n".join(f"| {k} | `{v['name']}` | `{v['sha256']}` |" for k, v in info["inputs"].items())
    return f"""# {info["name"]}

ConsisTest asks a dialogue agent questions about facts it was given (its persona) or stated earlier in the
conversation (its history), and checks whether the answer stays consistent with those facts. Each sample
is one question inserted `distance` turns after its fact (memory {s["memory"]} turns, distances
{", ".join(map(str, s["distances"]))}{", paired subset only" if s["paired"] else ""}).

Built by `consistest` ({info["signature"]}).

```python
from datasets import load_dataset
ds = load_dataset("path/to/this/directory", split="test")
```

## Counts

{info["counts"]["total"]:,} samples from {info["n_dialogues"]:,} dialogues
({info["counts_paired"]["total"]:,} in the paired subset, where every history QA exists at every distance).

| source/type/distance | samples | paired |
| --- | ---: | ---: |
{counts}

## Schema

| field | type | meaning |
| --- | --- | --- |
{schema}

## Sources and licences

| input | file | sha256 |
| --- | --- | --- |
{inputs}

- Dialogues: {_dialogues_note(info)}
- Questions: {_questions_note(info)}
- The assembly reproduces the authors' code exactly (18,635 samples on the published files; the paper's
  Table 3 reports 18,633).

Content hash (sha256 of the samples' canonical JSON lines): `{info["content_hash"]}`.
"""
