"""make_qas end to end: 20 real dialogues with fake neural generators, rules, determinism, layout."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from consistest.core.records import QA, Dialogue
from consistest.data.dialogues import read_dialogues
from consistest.data.qa_files import read_history_qas, read_persona_qas
from consistest.models.base import Answerer, QuestionGenerator
from consistest.tasks.consistest.qagen.pipeline import QAGenConfig, _cap_history_yn, make_qas, write_qas
from consistest.text.sentences import normalise, statement_pieces, strip_punct


class FakeQG:
    """Asks 'what do you have?' and 'what is your name?' about every statement."""

    name = "fake-qg"

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, statements: Sequence[str]) -> list[list[str]]:
        self.calls += 1
        return [["what do you have?", "what is your name?"] for _ in statements]


class FakeAnswerer:
    """Answers with the last word of the context: confident for short contexts, not for long ones."""

    name = "fake-qa"

    def answer(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, float]]:
        return [(c.split()[-1], 0.9 if len(c.split()) <= 5 else 0.1) for _, c in pairs]


@pytest.fixture(scope="module")
def dialogues(consistest_json: Path) -> list[Dialogue]:
    return read_dialogues(consistest_json)[:20]


@pytest.fixture(scope="module")
def rules_result(dialogues: list[Dialogue]):
    return make_qas(dialogues, QAGenConfig(wh_generator="rules"), quiet=True)


def test_fakes_satisfy_protocols() -> None:
    assert isinstance(FakeQG(), QuestionGenerator) and isinstance(FakeAnswerer(), Answerer)


@pytest.mark.slow
def test_rules_build_on_real_dialogues(dialogues: list[Dialogue], rules_result) -> None:
    r = rules_result
    personas = {s for d in dialogues for s in d.persona}
    assert r.persona_qas and set(r.persona_qas) <= personas
    for sent, qas in r.persona_qas.items():
        assert all(qa.c == sent and qa.source == "pers" and qa.q.endswith("?") for qa in qas)
    by_id = {d.dialog_id: d for d in dialogues}
    for did, qas in r.history_qas.items():
        for qa in qas:  # turn k: the fact is in agent utterance 2k+1
            assert qa.dialog == did and qa.source in ("hist", "hist_ext")
            assert strip_punct(qa.c) in strip_punct(by_id[did].utterances[2 * qa.turn + 1])
    counts = r.info["counts"]
    assert {"pers/yn", "pers/wh", "hist/yn", "hist_ext/yn"} <= set(counts)
    assert sum(counts.values()) == sum(r.info["by_generator"].values()) == sum(r.info["by_template"].values())
    assert r.info["wh_generator"] == "rules" and r.info["by_generator"].keys() <= {"rules", "extract"}


def test_counterfactual_no_questions_present(rules_result) -> None:
    qas = [qa for v in rules_result.persona_qas.values() for qa in v]
    cfs = [qa for qa in qas if ".cf_" in qa.template]
    assert cfs and all(qa.a == "no" for qa in cfs)


@pytest.mark.slow
def test_deterministic_and_seeded(dialogues: list[Dialogue], rules_result, tmp_path: Path) -> None:
    again = make_qas(list(reversed(dialogues)), QAGenConfig(wh_generator="rules"), quiet=True)
    write_qas(rules_result, tmp_path / "a")
    write_qas(again, tmp_path / "b")
    for name in ("persona_qas.json", "history_qas.json"):  # order of dialogues does not matter
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_write_qas_curated_layout(rules_result, tmp_path: Path) -> None:
    p, h = write_qas(rules_result, tmp_path)
    persona, history = read_persona_qas(p), read_history_qas(h)  # the lead's curated readers accept it
    assert sum(map(len, persona.values())) == sum(map(len, rules_result.persona_qas.values()))
    assert sum(map(len, history.values())) == sum(map(len, rules_result.history_qas.values()))
    raw = json.loads(p.read_text())
    first = next(iter(raw.values()))[0]
    assert set(first) == {"q", "a", "c", "source", "type", "generator", "template"}
    raw_h = json.loads(h.read_text())
    assert set(next(iter(raw_h.values()))[0]) >= {"q", "a", "c", "turn", "source", "type", "dialog", "alt_c"}


@pytest.mark.slow
def test_full_build_with_fake_neural(dialogues: list[Dialogue]) -> None:
    qg, qa = FakeQG(), FakeAnswerer()
    r = make_qas(dialogues, QAGenConfig(wh_generator="neural", batch_size=4), quiet=True, qg=qg, answerer=qa)
    assert qg.calls == 1  # all statements in one batched call
    assert r.info["wh_generator"] == "neural" and r.info["qg_model"] == "fake-qg"
    neural = [
        x for v in (*r.persona_qas.values(), *r.history_qas.values()) for x in v if x.generator == "neural"
    ]
    assert neural
    for x in neural:  # only confident answers (short statements, see FakeAnswerer) are kept
        pieces = statement_pieces(normalise(x.c))
        assert x.type == "wh" and any(len(p.split()) <= 5 and p.split()[-1] == x.a for p in pieces)
        assert x.q != "what do you have?"  # dropped by the exclusivity filter
        assert strip_punct(x.a) in strip_punct(x.c)


def test_auto_falls_back_to_rules(dialogues: list[Dialogue], tmp_path: Path, capsys) -> None:
    cfg = QAGenConfig(
        wh_generator="auto", qg_model=str(tmp_path / "missing"), qa_model=str(tmp_path / "none")
    )
    r = make_qas(dialogues[:2], cfg, quiet=True)
    assert r.info["wh_generator"] == "rules"
    assert "using rules" in capsys.readouterr().err


def test_bad_generator_name() -> None:
    with pytest.raises(ValueError, match="wh_generator"):
        QAGenConfig(wh_generator="magic")


def _hist_yn(q: str, turn: int, neg: bool) -> QA:
    return QA(q=q, a="no" if neg else "yes", c=f"fact {turn}", source="hist", type="yn", turn=turn,
              dialog="d", generator="rules", template="yn.do.neg" if neg else "yn.do")  # fmt: skip


def test_history_yn_kept_sparse() -> None:
    """One negated Y/N per agent utterance; a short positive one only when no negated one exists."""
    neg = [_hist_yn("do you like clowns?", 0, True), _hist_yn("do you eat meat?", 0, True),
           _hist_yn("can you drive?", 2, True)]  # fmt: skip
    pos = [_hist_yn("do you like pizza?", 1, False), _hist_yn("do you have a lot of dogs?", 3, False)]
    wh = QA(q="how many dogs do you have?", a="two", c="fact 3", source="hist", type="wh", turn=3)
    kept = _cap_history_yn([*neg, *pos, wh])
    assert [qa.q for qa in kept] == ["do you like clowns?", "can you drive?", "how many dogs do you have?"]
    kept = _cap_history_yn([*pos, wh])  # no negated statement: the shortest positive (<= 4 words)
    assert [qa.q for qa in kept] == ["do you like pizza?", "how many dogs do you have?"]


def test_real_history_yn_at_most_one_negated_per_turn(rules_result) -> None:
    for qas in rules_result.history_qas.values():
        yn = [qa for qa in qas if qa.source == "hist" and qa.type == "yn"]
        turns = [qa.turn for qa in yn]
        assert len(turns) == len(set(turns)) and len(yn) <= len(qas)
        assert all(".neg" in qa.template for qa in yn) or len(yn) <= 1
