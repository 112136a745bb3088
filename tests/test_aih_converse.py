"""consistest converse: the conversation plan, what each bot sees, the run files, resuming (in-process
crash and a killed subprocess), refused settings, the judges and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence, Set
from dataclasses import replace
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.models.base import Chunk, Item
from consistest.models.persona_bot import PersonaBot
from consistest.tasks.aih.config import ConverseConfig, bots_from_file, parse_bot
from consistest.tasks.aih.converse import (
    CONVERSATIONS_FILE,
    EVENTS_FILE,
    INQUIRIES_FILE,
    RUN_FILE,
    run_converse,
)
from consistest.tasks.aih.plan import plan_conversations, side_view, view
from tests.aih_fixtures import PERSONAS, OverlapNLI, write_personas
from tests.helpers import run_cli

pytest.importorskip("spacy")
OUTPUTS = (RUN_FILE, CONVERSATIONS_FILE, INQUIRIES_FILE)


def config(tmp_path: Path, out: str = "run", **kw) -> ConverseConfig:
    bots = kw.pop("bots", ("a=baseline:persona-bot:0", "b=baseline:persona-bot:0.5"))
    base = dict(
        bots=tuple(parse_bot(b) for b in bots),
        out=tmp_path / out,
        conversations=3,
        turns=4,
        dialogues=write_personas(tmp_path / "personas.json"),
        nli="none",
        quiet=True,
    )
    return ConverseConfig(**{**base, **kw})


def outputs(run: Path) -> dict[str, bytes]:
    return {name: (run / name).read_bytes() for name in OUTPUTS}


def test_pairs_share_personas_and_openers_by_index(tmp_path: Path) -> None:
    cfg = config(tmp_path, conversations=4, self_pairs=True, opener="dialogues")
    plans = plan_conversations(cfg, list(PERSONAS), [f"hi {k}" for k in range(5)])
    assert [p.id for p in plans[:5]] == ["a>a#0", "a>a#1", "a>a#2", "a>a#3", "a>b#0"]
    assert len(plans) == 4 * 4
    by_index = {}
    for p in plans:
        by_index.setdefault(p.index, set()).add((p.partner_persona, p.evaluated_persona, p.opener))
        assert p.partner_persona != p.evaluated_persona  # also when a bot talks to itself
    assert all(len(v) == 1 for v in by_index.values())  # conversation k: the same material in every pair


def test_what_each_side_sees(tmp_path: Path) -> None:
    plan = plan_conversations(config(tmp_path), list(PERSONAS), [])[0]
    said = ["hello", "u1 by evaluated", "u2 by partner", "u3 by evaluated"]
    partner = view(plan, said, 2)  # the partner is to say utterance 2
    assert partner.persona == plan.partner_persona
    assert [(t.role, t.text) for t in partner.turns] == [("assistant", "hello"), ("user", "u1 by evaluated")]
    evaluated = view(plan, said, 3)
    assert evaluated.persona == plan.evaluated_persona and evaluated.turns[-1].role == "user"
    side = side_view(plan, said, 3, "how many dogs do you have?")
    assert [t.role for t in side.turns] == ["user", "assistant", "user", "assistant", "user"]
    assert side.turns[-2].text == "u3 by evaluated" and side.turns[-1].text == "how many dogs do you have?"


@pytest.mark.slow
def test_run_files(tmp_path: Path) -> None:
    run = run_converse(config(tmp_path), nli=OverlapNLI())
    info = json.loads((run / RUN_FILE).read_text())
    assert info["complete"] and info["conversations"] == 6
    assert info["signature"].startswith("consistest:v1|aih:1|bots:a=baseline:persona-bot:0@none,")
    assert "|nli:overlap-nli[c,n,e]|rules:3|tau:0.15|" in info["signature"]
    convs = [json.loads(x) for x in (run / CONVERSATIONS_FILE).read_text().splitlines()]
    assert [len(c["utterances"]) for c in convs] == [8] * 6
    assert [u["speaker"] for u in convs[0]["utterances"][:3]] == ["a", "b", "a"]
    inquiries = [json.loads(x) for x in (run / INQUIRIES_FILE).read_text().splitlines()]
    assert {q["turn"] for q in inquiries} <= {3, 5, 7} and inquiries
    q = inquiries[0]
    assert {"utterance", "entity", "question", "truth", "answer", "nli", "paper", "ours_score"} <= set(q)
    assert q["truth"] in q["utterance"].lower() and q["paper"] == (q["nli"]["contradiction"] > 0.15)
    a_answers = [q for q in inquiries if q["bot"] == "a"]
    assert a_answers and all(q["ours_score"] == 1.0 and not q["paper"] for q in a_answers)


class CrashAfter:
    """A persona bot that dies after ``n`` chunks (a kill at a known point)."""

    def __init__(self, rate: str, n: int) -> None:
        self.inner, self.left = PersonaBot(f"persona-bot:{rate}"), n
        self.name, self.inner.batch_size = self.inner.name, 2

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        for chunk in self.inner.stream(items, skip):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield chunk


@pytest.mark.slow
def test_a_crashed_run_resumes_to_the_clean_files(tmp_path: Path) -> None:
    clean = run_converse(config(tmp_path, "clean"))
    crashy = config(
        tmp_path, "crashed", extra_models={"baseline:persona-bot:0.5": lambda: CrashAfter("0.5", 5)}
    )
    with pytest.raises(KeyboardInterrupt):
        run_converse(crashy)
    events = (tmp_path / "crashed" / EVENTS_FILE).read_text().splitlines()
    assert len(events) > 0 and not (tmp_path / "crashed" / INQUIRIES_FILE).exists()
    resumed = run_converse(config(tmp_path, "crashed"))
    assert outputs(resumed) == outputs(clean)


@pytest.mark.slow
def test_other_settings_are_refused_unless_overwrite(tmp_path: Path) -> None:
    run_converse(config(tmp_path))
    with pytest.raises(InputError, match="settings differ.*turns"):
        run_converse(config(tmp_path, turns=5))
    with pytest.raises(InputError, match="settings differ.*bots"):
        run_converse(config(tmp_path, bots=("a=baseline:persona-bot:0", "b=baseline:persona-bot:0.4")))
    run_converse(config(tmp_path, turns=5, overwrite=True))
    assert json.loads((tmp_path / "run" / RUN_FILE).read_text())["settings"]["turns"] == 5


def test_judging_again_with_another_nli_keeps_the_conversations(tmp_path: Path) -> None:
    run = run_converse(config(tmp_path))
    before = (run / CONVERSATIONS_FILE).read_bytes()
    assert all(json.loads(x)["paper"] is None for x in (run / INQUIRIES_FILE).read_text().splitlines())
    run_converse(config(tmp_path, tau=0.5), nli=OverlapNLI())
    assert (run / CONVERSATIONS_FILE).read_bytes() == before
    judged = [json.loads(x) for x in (run / INQUIRIES_FILE).read_text().splitlines()]
    assert all(q["paper"] is not None for q in judged)
    assert "|tau:0.5|" in json.loads((run / RUN_FILE).read_text())["signature"]


@pytest.mark.parametrize(
    ("text", "name", "spec", "persona", "decoding", "options"),
    [
        ("a=baseline:persona-bot:0.2", "a", "baseline:persona-bot:0.2", True, {}, {}),
        ("hot=hf:m,temperature=1.3,do_sample=true", "hot", "hf:m", True, {"temperature": 1.3}, {}),
        (
            "g=hf:m,do_sample=false,chat_template=true",
            "g",
            "hf:m",
            True,
            {"do_sample": False},
            {"chat_template": True},
        ),
        ("own=openai:gpt,persona=false,concurrency=4", "own", "openai:gpt", False, {}, {"concurrency": 4}),
    ],
)
def test_bot_specs(text: str, name: str, spec: str, persona: bool, decoding: dict, options: dict) -> None:
    bot = parse_bot(text)
    assert (bot.name, bot.model.spec, bot.persona) == (name, spec, persona)
    assert bot.model.decoding.top_p == 0.9  # the paper's nucleus sampling unless a bot says otherwise
    assert all(getattr(bot.model.decoding, k) == v for k, v in decoding.items())
    assert dict(bot.model.options) == options


@pytest.mark.parametrize(
    "text", ["noequals", "bad name=baseline:generic", "a=", "a=hf:m,top_p", "a=hf:m,seed=x"]
)
def test_bad_bot_specs_are_input_errors(text: str) -> None:
    with pytest.raises(InputError):
        parse_bot(text)


def test_bots_file(tmp_path: Path) -> None:
    path = tmp_path / "bots.yaml"
    path.write_text(
        "bots:\n  a: baseline:persona-bot:0\n  b: {model: 'hf:m', temperature: 1.3, persona: false}\n"
    )
    a, b = bots_from_file(path)
    assert (a.name, a.model.spec, b.name, b.persona, b.model.decoding.temperature) == (
        "a",
        "baseline:persona-bot:0",
        "b",
        False,
        1.3,
    )
    path.write_text("bots: [1, 2]\n")
    with pytest.raises(InputError, match="expected"):
        bots_from_file(path)


def test_config_checks(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="at least two bots"):
        config(tmp_path, bots=("a=baseline:persona-bot:0",))
    with pytest.raises(InputError, match="dialogue file"):
        config(tmp_path, dialogues=None)
    with pytest.raises(InputError, match="unique"):
        config(tmp_path, bots=("a=baseline:persona-bot:0", "a=baseline:persona-bot:0.1"))
    assert config(tmp_path, bots=("a=baseline:persona-bot:0",), self_pairs=True).pairs() == [("a", "a")]


def test_cli_converse_and_its_errors(tmp_path: Path) -> None:
    personas = write_personas(tmp_path / "personas.json")
    args = [
        "converse",
        "--bot",
        "a=baseline:persona-bot:0",
        "--bot",
        "b=baseline:persona-bot:1",
        "--dialogues",
        personas,
        "--conversations",
        "2",
        "--turns",
        "3",
        "--nli",
        "none",
        "-q",
    ]
    res = run_cli(*args, "--out", tmp_path / "run")
    assert res.exit_code == 0, res.stderr
    assert "4 conversations" in res.stdout and "consistest rank" in res.stdout
    res = run_cli(*args, "--out", tmp_path / "run", "--turns", "4")
    assert res.exit_code == 2 and "--overwrite" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = run_cli(
        "converse",
        "--bot",
        "a=baseline:persona-bot:2",
        "--bot",
        "b=baseline:generic",
        "--no-persona",
        "--out",
        tmp_path / "x",
        "-q",
    )
    assert res.exit_code == 2 and "persona-bot" in res.stderr
    assert not (tmp_path / "x").exists()


def test_no_persona_needs_no_dialogue_file(tmp_path: Path) -> None:
    res = run_cli(
        "converse",
        "--bot",
        "a=baseline:persona-bot:0",
        "--bot",
        "b=baseline:retrieval",
        "--no-persona",
        "--conversations",
        "1",
        "--turns",
        "2",
        "--nli",
        "none",
        "--dialogues",
        tmp_path / "missing.json",
        "--out",
        tmp_path / "run",
        "-q",
    )
    assert res.exit_code == 0, res.stderr
    conv = json.loads((tmp_path / "run" / CONVERSATIONS_FILE).read_text().splitlines()[0])
    assert conv["bot_persona"] == conv["partner_persona"] == []
    assert conv["utterances"][2]["speaker"] == "a" and conv["utterances"][2]["text"].startswith(
        "i do not know"
    )


@pytest.mark.slow
def test_killed_subprocess_resumes_to_the_clean_run(tmp_path: Path) -> None:
    """A sampled tiny GPT-2 talks to a persona bot; the CLI is killed mid-run and resumed in-process."""
    from tests.tiny_models import tiny_generator

    gpt2 = tiny_generator(tmp_path / "gpt2", "gpt2")
    bots = (f"g={gpt2},max_new_tokens=60,batch_size=2,device=cpu", "p=baseline:persona-bot:0.3")
    personas = write_personas(tmp_path / "personas.json")
    killed = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-c",
        "from consistest.cli.main import main; main()",
        "converse",
        "--bot",
        bots[0],
        "--bot",
        bots[1],
        "--dialogues",
        str(personas),
        "--conversations",
        "3",
        "--turns",
        "4",
        "--nli",
        "none",
        "--out",
        str(killed),
        "-q",
    ]
    proc = subprocess.Popen(
        cmd, env={**os.environ, "OMP_NUM_THREADS": "1"}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    events, deadline = killed / EVENTS_FILE, time.monotonic() + 180
    while proc.poll() is None and time.monotonic() < deadline:
        if events.exists() and events.read_bytes().count(b"\n") >= 12:
            break
        time.sleep(0.005)
    proc.kill()
    proc.wait()
    written = events.read_bytes().count(b"\n")
    assert 12 <= written < 48 and not (killed / INQUIRIES_FILE).exists(), f"not interrupted ({written} lines)"
    with events.open("a") as f:
        f.write('{"id": "g>p#0:u')  # a line cut by the kill
    cfg = ConverseConfig(
        bots=tuple(parse_bot(b) for b in bots),
        out=killed,
        dialogues=personas,
        conversations=3,
        turns=4,
        nli="none",
        quiet=True,
    )
    resumed = run_converse(cfg)
    clean = run_converse(replace(cfg, out=tmp_path / "clean"))
    assert outputs(resumed) == outputs(clean)


@pytest.mark.slow
def test_an_endpoint_bot_talks_like_the_same_model_run_locally(tmp_path: Path) -> None:
    """openai: (a tiny chat model behind ``transformers serve``) and hf: give the same greedy conversation."""
    from tests.serving import Server, serve_available
    from tests.tiny_models import tiny_chat_model

    if not serve_available():
        pytest.skip('needs pip install -e ".[serve]" (transformers serve)')
    chat = tiny_chat_model(tmp_path / "tiny-chat")
    common = ("p=baseline:persona-bot:0",)
    greedy = "do_sample=false,max_new_tokens=12"
    with Server(chat) as server:
        endpoint = f"s=openai:{chat},{greedy},api_base={server.api_base},concurrency=2"
        run_converse(config(tmp_path, "served", bots=(endpoint, *common)))
    local = f"s=hf:{chat},{greedy},chat_template=true,device=cpu"
    run_converse(config(tmp_path, "local", bots=(local, *common)))
    convs = [(tmp_path / r / CONVERSATIONS_FILE).read_text() for r in ("served", "local")]
    assert convs[0] == convs[1]
    said = [u for c in convs[0].splitlines() for u in json.loads(c)["utterances"] if u["speaker"] == "s"]
    assert len(said) == 2 * 3 * 4 and sum(bool(u["text"]) for u in said) >= len(said) // 2  # openers too
    info = json.loads((tmp_path / "served" / RUN_FILE).read_text())
    assert f"s=openai:{chat}@greedy-12@chat-persona-v1" in info["signature"] and "api_base" not in json.dumps(
        info
    )
