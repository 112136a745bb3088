"""hist_ext: QAs taken from the dialogue itself, a user question followed by the agent's answer."""

from __future__ import annotations

import re
from collections.abc import Iterator

from consistest.core.records import QA, Dialogue
from consistest.text.lexicon import lexicon
from consistest.text.polarity import answer_polarity, swap_person
from consistest.text.sentences import (
    ends_with_question_mark,
    normalise,
    split_sentences,
    strip_markers,
    strip_punct,
)

GENERATOR = "extract"
_PREFIXES = (
    r"i am (?:a |an |the )?",
    r"i (?:was|will be|have been) (?:a |an |the )?",
    r"my (?:\w+ )?(?:name )?is ",
    r"(?:it is|that is|they are|it was) (?:a |an |the )?",
    r"i (?:really )?(?:like|love|enjoy|have|own|live|work|do|play|drive|prefer|study|eat|read|watch|listen)"
    r"(?: to| in| at| for| as| on)?(?: a| an| the| my)? ",
)


def user_question(utterance: str) -> str | None:
    """The last interrogative sentence of a user turn that addresses the agent (has you/your)."""
    for sent in reversed(split_sentences(utterance)):
        if ends_with_question_mark(sent) and {"you", "your"} & set(normalise(sent).split()):
            return _strip_lead(sent)
    return None


def _strip_lead(sent: str) -> str:
    """Drop greetings/markers before the question opener ("oh cool , do you ...?" -> "do you ...?")."""
    openers = set(lexicon()["yn_openers"]) | set(lexicon()["wh_openers"])
    parts = re.split(r"\s*[,;]\s+", sent)
    for k, p in enumerate(parts):
        if normalise(p).split()[:1] and normalise(p).split()[0] in openers:
            return " , ".join(parts[k:])
    return sent


def agent_answer(utterance: str) -> str:
    """The non-interrogative part of the agent's reply, raw text."""
    return " ".join(s for s in split_sentences(utterance) if not ends_with_question_mark(s))


def opener(question: str) -> str:
    ws = normalise(question).split()
    return ws[0] if ws else ""


_SMALL_TALK = re.compile(
    r"^(how (are|is|was|were|have|do)\b|what about you|what are you (up to|doing)|what is up|"
    r"what do you think|what is new|how about you|are you there|what are your plans)"
)
_HOW_OK = ("how old", "how many", "how much", "how long", "how often", "how far")


def qtype(question: str) -> str | None:
    """'yn' / 'wh' from the question's opener ("x or y?" alternatives are WH); None for small talk,
    why-questions, questions too short to state a fact, and anything else."""
    q = strip_punct(question)
    if len(q.split()) < 3 or _SMALL_TALK.match(q) or (q.startswith("how") and not q.startswith(_HOW_OK)):
        return None
    op = opener(question)
    if op in lexicon()["yn_openers"]:
        return "wh" if " or " in f" {q} " else "yn"
    return "wh" if op in lexicon()["wh_openers"] else None


def _content_words(text: str) -> set[str]:
    stop = {*lexicon()["yn_openers"], "you", "your", "a", "an", "the", "to", "of", "in", "any", "i", "me"}
    return {w for w in strip_punct(text).split() if w not in stop and len(w) > 2}


def yn_truth(question: str, answer: str) -> str | None:
    """yes / no of a reply; "i do/am ..." counts as yes only when it ends there or shares a content word."""
    reply = strip_markers_keep_yes(answer)
    truth = answer_polarity(reply, opener(question))
    if truth != "yes" or reply.split()[0] != "i":
        return truth
    first = re.split(r"\s*[,.!;]\s*", reply)[0].split()
    return truth if len(first) <= 2 or _content_words(question) & set(first) else None


def choice_answer(question: str, answer: str) -> str | None:
    """For "x or y?" questions: the option the reply names."""
    q = strip_punct(question).split()
    reply = set(strip_punct(answer).split())
    for k, w in enumerate(q):
        if w == "or" and 0 < k < len(q) - 1:
            for option in (q[k - 1], q[k + 1]):
                if option in reply:
                    return option
    return None


def short_answer(question: str, answer: str, max_tokens: int = 5) -> str | None:
    """The short answer span of a WH reply, from its first clause: numbers for how old / how many,
    else the clause minus a restated "i am a / my X is / i like ..." prefix, when at most max_tokens."""
    q = strip_punct(question)
    clause = strip_markers(re.split(r"\s*[,.!;]\s*", normalise(answer))[0])
    if not clause:
        return None
    if q.startswith(("how old", "how many", "how much")):
        nums = [w for w in clause.split() if w.isdigit() or w in lexicon()["number_words"]]
        return nums[0] if nums else None
    if q.startswith("why"):
        return None
    for prefix in _PREFIXES:
        m = re.match(prefix, clause)
        if m and len(clause) > m.end():
            clause = clause[m.end() :]
            break
    clause = re.sub(r"\s+(a lot|very much|so much|too|as well|the most|really)$", "", clause)
    words = clause.split()
    if {"you", "your", "i", "it"} & set(words) or not 0 < len(words) <= max_tokens:
        return None
    return clause


def statement_of(question: str, truth: str) -> str | None:
    """alt_c for a yes/no pair: "are you rich?" + no -> "i am not rich" (a self-contained fact)."""
    ws = strip_punct(question).split()
    if len(ws) < 3 or ws[1] != "you":
        return None
    aux, rest = ws[0], swap_person(ws[2:])
    rest = ["me" if w == "you" else w for w in rest]
    subj_aux = {"are": "am", "were": "was"}.get(aux, aux)
    if aux in ("do", "does"):
        return " ".join(["i", *(["do", "not"] if truth == "no" else []), *rest])
    return " ".join(["i", subj_aux, *(["not"] if truth == "no" else []), *rest])


def extract_qas(dialogue: Dialogue, max_answer_tokens: int = 5) -> Iterator[QA]:
    """One hist_ext QA per (user question, agent answer) pair where the truth can be read off the answer."""
    u = dialogue.utterances
    for k in range(0, len(u) - 1, 2):
        question = user_question(u[k])
        answer = agent_answer(u[k + 1])
        kind = qtype(question) if question else None
        if not question or not answer or kind is None:
            continue
        if kind == "yn":
            truth = yn_truth(question, answer)
            template = "ext.yn"
            alt = statement_of(question, truth) if truth else None
            alt_c = alt if alt and explicit_yes_no(answer) else ""
        else:
            truth = choice_answer(question, answer) or short_answer(question, answer, max_answer_tokens)
            template, alt_c = f"ext.wh.{opener(question)}", ""
        if truth:
            yield QA(
                q=question, a=truth, c=answer, source="hist_ext", type=kind, turn=k // 2,
                dialog=dialogue.dialog_id, alt_c=alt_c, generator=GENERATOR, template=template,
            )  # fmt: skip


def explicit_yes_no(answer: str) -> bool:
    """The reply opens (after fillers) with a yes/no word ("absolutely , ...", "oh yes ..."), not with a
    mirrored "i do not ..." that already states the fact itself."""
    reply = strip_markers_keep_yes(answer)
    return not reply.startswith("i ") and answer_polarity(reply, "") is not None


def strip_markers_keep_yes(answer: str) -> str:
    """Normalised reply without fillers before yes/no ("oh yes i do" -> "yes i do")."""
    words = normalise(answer).split()
    fill = {"oh", "well", "um", "uh", "haha", "lol", "hmm", "ah", "wow", ","}
    while words and words[0] in fill:
        words.pop(0)
    return " ".join(words)
