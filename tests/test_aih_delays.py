"""Delayed inquiries (converse --inquiry-delay): when a question is asked, what the bot sees then, resume,
and rank's contradiction rate by delay."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence, Set
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.models.base import Chunk, Item
from consistest.models.persona_bot import PersonaBot
from consistest.tasks.aih.config import ConverseConfig, parse_bot
from consistest.tasks.aih.converse import CONVERSATIONS_FILE, INQUIRIES_FILE, RUN_FILE, run_converse
from consistest.tasks.aih.plan import split_inquiry_id
from consistest.tasks.aih.rank import RankConfig, rank
from tests.aih_fixtures import write_personas
from tests.helpers import run_cli

pytest.importorskip("spacy")


def config(tmp_path: Path, out: str = "run", **kw) -> ConverseConfig:
    base = dict(
        bots=tuple(parse_bot(b) for b in ("a=baseline:persona-bot:0", "b=baseline:persona-bot:0.5")),
        out=tmp_path / out,
        conversations=3,
        turns=7,
        dialogues=write_personas(tmp_path / "personas.json"),
        nli="none",
        inquiry_delays=(0, 2, 4),
        quiet=True,
    )
    return ConverseConfig(**{**base, **kw})


class Recording:
    """A persona bot that keeps every side query it is asked (item id -> conversation)."""

    seen: dict[str, object] = {}

    def __init__(self, rate: str) -> None:
        self.inner = PersonaBot(f"persona-bot:{rate}")
        self.name, self.inner.batch_size = self.inner.name, 2

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        for item_id, conv in items:
            if ":q" in item_id:
                Recording.seen[item_id] = conv
        yield from self.inner.stream(items, skip)


@pytest.mark.slow
def test_a_delayed_inquiry_asks_the_same_question_later(tmp_path: Path) -> None:
    Recording.seen = {}
    extra = {
        "baseline:persona-bot:0.5": lambda: Recording("0.5"),
        "baseline:persona-bot:0": lambda: Recording("0"),
    }
    run = run_converse(config(tmp_path, extra_models=extra))
    inquiries = [json.loads(x) for x in (run / INQUIRIES_FILE).read_text().splitlines()]
    by_key = {(q["conversation"], q["turn"], q.get("delay", 0)): q for q in inquiries}
    assert {d for _, _, d in by_key} == {0, 2, 4}
    for (conv, n, d), q in by_key.items():
        assert n + 2 * d < 14  # asked after utterance n + 2d, which the conversation reaches
        assert q["question"] == by_key[(conv, n, 0)]["question"]  # one question per utterance
        seen = Recording.seen[q["id"]]
        assert len(seen.turns) == n + 2 * d + 2 and seen.turns[-1].text == q["question"]  # type: ignore[attr-defined]
        assert split_inquiry_id(q["id"]) == (conv, n, d)
    convs = [json.loads(x) for x in (run / CONVERSATIONS_FILE).read_text().splitlines()]
    said = [u["text"] for u in convs[0]["utterances"]]
    assert all(q["question"] not in said for q in inquiries)  # still side queries
    info = json.loads((run / RUN_FILE).read_text())
    assert info["settings"]["inquiry_delays"] == [0, 2, 4] and "|delay:0,2,4|" in info["signature"]


def test_default_runs_keep_their_settings_and_ids(tmp_path: Path) -> None:
    run = run_converse(config(tmp_path, inquiry_delays=(0,)))
    info = json.loads((run / RUN_FILE).read_text())
    assert "inquiry_delays" not in info["settings"] and "|delay:" not in info["signature"]
    inquiries = [json.loads(x) for x in (run / INQUIRIES_FILE).read_text().splitlines()]
    assert inquiries and all("delay" not in q and "+" not in q["id"] for q in inquiries)


class CrashAfter(Recording):
    def __init__(self, rate: str, n: int) -> None:
        super().__init__(rate)
        self.left = n

    def stream(self, items: Sequence[Item], skip: Set[str] = frozenset()) -> Iterator[Chunk]:
        for chunk in self.inner.stream(items, skip):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield chunk


@pytest.mark.slow
def test_a_crashed_delayed_run_resumes_to_the_clean_files(tmp_path: Path) -> None:
    clean = run_converse(config(tmp_path, "clean"))
    crashy = config(
        tmp_path, "crashed", extra_models={"baseline:persona-bot:0.5": lambda: CrashAfter("0.5", 7)}
    )
    with pytest.raises(KeyboardInterrupt):
        run_converse(crashy)
    resumed = run_converse(config(tmp_path, "crashed"))
    for name in (RUN_FILE, CONVERSATIONS_FILE, INQUIRIES_FILE):
        assert (resumed / name).read_bytes() == (clean / name).read_bytes()


@pytest.mark.parametrize(
    ("delays", "message"), [((0, 0), "distinct"), ((-1,), "distinct"), ((6,), "never fits")]
)
def test_bad_delays_are_refused(tmp_path: Path, delays, message) -> None:
    with pytest.raises(InputError, match=message):
        config(tmp_path, inquiry_delays=delays)


@pytest.mark.slow
def test_rank_reports_the_rate_by_delay_on_shared_utterances(tmp_path: Path) -> None:
    run = run_converse(config(tmp_path, conversations=6))
    report = rank(RankConfig(run=run, judges=("hybrid",), n_boot=200, repetitions=50))
    section = report["judges"]["hybrid"]["by_delay"]
    assert section["last_turn"] == 13 - 8 and list(section["delays"]) == ["0", "2", "4"]
    inquiries = [json.loads(x) for x in (run / INQUIRIES_FILE).read_text().splitlines()]
    for d in (0, 2, 4):
        for bot in ("a", "b"):
            n = sum(1 for q in inquiries if q["bot"] == bot and q.get("delay", 0) == d and q["turn"] <= 5)
            assert section["delays"][str(d)][bot]["inquiries"] == n
    assert section["delays"]["0"]["a"]["C"] == 0.0 and "delta" in section["delays"]["4"]["b"]
    r = run_cli("rank", run, "--judge", "hybrid", "--n-boot", "200", "--repetitions", "50")
    assert r.exit_code == 0, r.stderr
    assert "contradiction rate by delay" in r.stdout and "4 vs 0" in r.stdout
    pytest.importorskip("matplotlib")
    assert (run / "rank" / "delay.png").is_file()


def test_cli_inquiry_delay_option(tmp_path: Path) -> None:
    personas = write_personas(tmp_path / "p.json")
    bots = ["--bot", "a=baseline:persona-bot:0", "--bot", "b=baseline:persona-bot:0.5"]
    args = [
        "converse",
        *bots,
        "--dialogues",
        personas,
        "--conversations",
        "2",
        "--turns",
        "6",
        "--nli",
        "none",
    ]
    args.append("-q")
    bad = run_cli(*args, "--inquiry-delay", "0,x", "--out", tmp_path / "bad")
    assert bad.exit_code == 2 and "inquiry-delay" in bad.stderr
    ok = run_cli(*args, "--inquiry-delay", "2,0", "--out", tmp_path / "ok")
    assert ok.exit_code == 0, ok.stderr
    assert json.loads((tmp_path / "ok" / RUN_FILE).read_text())["settings"]["inquiry_delays"] == [0, 2]
