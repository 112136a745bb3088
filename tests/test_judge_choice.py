"""``--judge-output choice``: a local chat model's judge label is chosen from its scores of the allowed labels
(never unparseable), cached with the scores, named in the signature; backends that cannot score labels are
refused with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Conversation, Turn
from consistest.models.judging import judge_spec
from consistest.tasks.consistest.methods import JudgeMethod
from tests.test_judge import REPLIES, SAMPLES, Scripted
from tests.tiny_models import tiny_chat_model


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory):
    directory = tiny_chat_model(tmp_path_factory.mktemp("choice") / "tiny-chat")
    return judge_spec(str(directory)).load(quiet=True)


def test_padding_does_not_change_a_labels_score(chat) -> None:
    conv = Conversation(
        persona=("grade it",), turns=(Turn("user", "Reply: i am a nurse . Score (0, 0.5 or 1):"),)
    )
    together = chat.label_logprobs([("a", conv)], [("0", "0.5", "1")])[0]
    alone = {x: chat.label_logprobs([("a", conv)], [(x,)])[0][x] for x in ("0", "0.5", "1")}
    assert together == pytest.approx(alone, abs=1e-4)
    assert all(v < 0 for v in together.values())


def test_choice_always_gives_an_allowed_label_and_caches_the_scores(chat, tmp_path: Path) -> None:
    cache = tmp_path / "judge.jsonl"
    method = JudgeMethod(model=chat, when="all", output="choice", cache=cache)
    judged = method.judge(SAMPLES, REPLIES, None)
    for s, j in zip(SAMPLES, judged, strict=True):
        assert j.score in ({0.0, 1.0} if s.type == "yn" else {0.0, 0.5, 1.0})
        (raw,) = j.detail["judge_raw"]
        scores = json.loads(raw)
        assert set(scores["logprobs"]) == ({"0", "1"} if s.type == "yn" else {"0", "0.5", "1"})
        assert scores["choice"] == max(scores["logprobs"], key=scores["logprobs"].get)
    assert len(cache.read_text().splitlines()) == len(SAMPLES)
    again = JudgeMethod(model=chat, when="all", output="choice", cache=cache).judge(SAMPLES, REPLIES, None)
    assert [j.score for j in again] == [j.score for j in judged]
    assert len(cache.read_text().splitlines()) == len(SAMPLES)  # all cached: nothing scored again
    assert ",choice,all]" in method.tag()


def test_a_backend_that_cannot_score_labels_is_refused(tmp_path: Path) -> None:
    method = JudgeMethod(model=Scripted({}), when="all", output="choice")
    with pytest.raises(InputError, match="cannot score labels"):
        method.judge(SAMPLES, REPLIES, None)
    with pytest.raises(InputError, match="expected one of text, choice"):
        JudgeMethod(model=Scripted({}), output="logits")  # type: ignore[arg-type]


def test_the_cached_prompt_scores_as_the_whole_sequence_does(chat) -> None:
    from consistest.models.label_scores import _padded, label_logprobs, reply_ids

    conv = Conversation(
        persona=("grade it",), turns=(Turn("user", "Reply: i am a teacher . Score (0 or 1):"),)
    )
    prompt = chat.encode(conv)
    whole = _padded(chat, prompt, {x: reply_ids(chat, conv, prompt, x) for x in ("0", "1", "0.5")})
    assert label_logprobs(chat, [conv], [("0", "1", "0.5")])[0] == pytest.approx(whole, abs=1e-4)
