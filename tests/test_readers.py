"""Dialogue and QA readers: real shared files, other layouts, and one-line errors on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.data.dialogues import detect_layout, read_dialogues
from consistest.data.qa_files import read_history_qas, read_persona_qas
from tests.helpers import write_json


@pytest.mark.slow
def test_two_real_layouts_agree_on_structure(consistest_json: Path, convai2_txt: Path) -> None:
    a = read_dialogues(consistest_json)
    b = read_dialogues(convai2_txt)
    assert len(a) == len(b) == 1000
    assert [d.dialog_id for d in a] == [d.dialog_id for d in b]
    assert [(len(x.persona), len(x.utterances)) for x in a] == [
        (len(y.persona), len(y.utterances)) for y in b
    ]
    # Same dialogues, different text normalisation ("i'm" vs "i am").
    assert a[1].utterances[1].startswith("i'm doing great")
    assert b[1].utterances[1].startswith("i am doing great")


@pytest.mark.slow
def test_convai2_triples_are_aligned(convai2_txt: Path) -> None:
    d = read_dialogues(convai2_txt)[0]
    assert d.persona[0] == "i read twenty books a year."
    assert d.persona_triples[0] == (("i", "has_hobby", "reading"),)
    assert len(d.utterance_triples) == len(d.utterances) == 16
    assert d.utterance_triples[0] == ()
    assert ("i", "favorite_movie", "horror") in d.utterance_triples[2]
    assert d.partner_persona[0] == "horror movies are my favorites."


def test_parlai_self_original_layout(tmp_path: Path) -> None:
    text = (
        "1 your persona: i like to ski.\n2 your persona: i have a cat.\n"
        "3 hi there\thello , i just got back from skiing\t\tcand a|cand b\n"
        "4 cool !\tmy cat hates snow though\n"
        "1 your persona: i am a chef.\n2 hello\thi , i cook for a living\n"
    )
    path = tmp_path / "valid_self_original.txt"
    path.write_text(text)
    assert detect_layout(path) == "convai2-text"
    d0, d1 = read_dialogues(path)
    assert d0.persona == ("i like to ski.", "i have a cat.")
    assert d0.utterances == (
        "hi there",
        "hello , i just got back from skiing",
        "cool !",
        "my cat hates snow though",
    )
    assert d0.persona_triples == ()
    assert d1.persona == ("i am a chef.",) and len(d1.utterances) == 2


def test_hf_dataset_directory(tmp_path: Path) -> None:
    from datasets import Dataset

    rows = {
        "conv_id": [7, 7],
        "utterance_idx": [0, 1],
        "personality": [["i ski ."], ["i ski ."]],
        "history": [["hi"], ["hi", "hello , i ski", "nice"]],
        "candidates": [["x", "hello , i ski"], ["y", "thanks"]],
    }
    Dataset.from_dict(rows).save_to_disk(tmp_path / "pc")
    (d,) = read_dialogues(tmp_path / "pc")
    assert d.dialog_id == "7" and d.persona == ("i ski .",)
    assert d.utterances == ("hi", "hello , i ski", "nice", "thanks")


def test_real_qa_files(persona_qas_json: Path, history_qas_json: Path) -> None:
    p = read_persona_qas(persona_qas_json)
    h = read_history_qas(history_qas_json)
    assert len(p) == 670 and sum(map(len, p.values())) == 1136
    assert len(h) == 1000 and sum(map(len, h.values())) == 1953
    qa = h["0"][0]
    assert (qa.q, qa.a, qa.turn, qa.source, qa.type) == ("How many jobs do you have?", "two", 0, "hist", "wh")


@pytest.mark.parametrize(
    ("content", "reader", "expected"),
    [
        ('{"0": {"persona": ["i ski ."], "utt', read_dialogues, "invalid JSON at line 1"),
        ("", read_dialogues, "file is empty"),
        (
            '{"0": {"persona": [], "utterances": ["hi"]}}',
            read_dialogues,
            "record 0: field 'persona': is empty",
        ),
        ('{"0": {"utterances": ["hi"]}}', read_dialogues, "record 0: field 'persona': missing"),
        ('{"s .": [{"a": "yes", "type": "yn", "c": "s ."}]}', read_persona_qas, "field 'q'"),
        ('{"s .": [{"q": "q ?", "type": "yn", "c": "s ."}]}', read_persona_qas, "field 'a'"),
        ('{"s .": [{"q": "q ?", "a": "yes", "c": "s ."}]}', read_persona_qas, "field 'type'"),
        (
            '{"s .": [{"q": "q ?", "a": "yes", "type": "why", "c": "s ."}]}',
            read_persona_qas,
            "unknown type 'why'",
        ),
        (
            '{"0": [{"q": "q ?", "a": "x", "type": "wh", "c": "s", "turn": "1"}]}',
            read_history_qas,
            "field 'turn'",
        ),
    ],
)
def test_bad_input_is_one_line_naming_file_record_field(
    tmp_path: Path, content: str, reader, expected: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InputError) as err:
        reader(path)
    msg = str(err.value)
    assert "\n" not in msg and str(path) in msg and expected in msg


def test_unreadable_path_and_bad_triple(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or directory"):
        read_dialogues(tmp_path / "nope.json")
    bad = tmp_path / "t.txt"
    bad.write_text("your persona: i ski.\t['i', 'like'\n1\thi\n")
    with pytest.raises(InputError, match=r"record line 1: bad DNLI triple"):
        read_dialogues(bad)
    write_json(tmp_path / "list.json", [1, 2])
    with pytest.raises(InputError, match="expected a JSON object"):
        read_dialogues(tmp_path / "list.json")
