"""Questions about any first-person statement, for AIH's statement inquirer: a bot that states no named
entity still says things like "i love hiking", and those can be asked about.

For an informative first-person piece (see :func:`consistest.text.sentences.informative`):

- **Y/N** (``st.yn.*``): the builders' yes/no template, truth by polarity ("i love hiking" -> *do you like
  hiking?* / yes; "i do not eat meat" -> *do you eat meat?* / no);
- **WH, exclusive** (``wh.*``): the builders' WH rules (*how many dogs do you have?*);
- **WH, open** (``st.wh.open``): the main verb's object or complement replaced by *what* ("i love hiking" ->
  *what do you love?* / hiking; "i love to hike in the mountains" -> *what do you love to do?* / hike in the
  mountains). The bot may love other things too, so its judge counts a reply without the truth as
  consistent unless the NLI guard calls it a contradiction (see tasks/aih/judges.py).

Pure functions over parsed tokens, versioned by STATEMENTS_VERSION (in the inquirer's signature).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.text.parse import Tok, children, subtree
from consistest.text.questions.wh_generic import question_body
from consistest.text.questions.wh_rules import wh_questions
from consistest.text.questions.yn_templates import Question, yn_question
from consistest.text.sentences import informative

STATEMENTS_VERSION = 1
OPEN_TEMPLATE = "st.wh.open"
_DETS = re.compile(r"^(?:a|an|the|my|some) ")
_PRONOUNS = frozenset("it them this that these those something anything everything you him her one".split())  # noqa: SIM905


def statement_questions(toks: Sequence[Tok]) -> list[Question]:
    """Y/N, exclusive WH and open WH questions about a normalised first-person statement piece."""
    text = " ".join(t.text for t in toks)
    if not toks or not informative(text):
        return []
    out: list[Question] = []
    yn = yn_question(toks)
    if yn is not None:
        out.append(Question(yn.q, yn.a, f"st.{yn.template}"))
    exclusive = wh_questions(toks)
    out += exclusive
    if not exclusive and (yn is None or yn.a == "yes"):
        out += open_questions(toks)
    return out


def open_questions(toks: Sequence[Tok]) -> list[Question]:
    """*what* in place of the main verb's object ("what do you love?") or its to-complement ("what do you
    love to do?"); None for negated or coordinated verbs, pronoun objects, long spans."""
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is None or root.tag not in ("VBP", "VBD", "VBZ") or toks[0].text != "i":
        return []
    kids = children(toks, root.i)
    if any(c.dep in ("neg", "conj") for c in kids):
        return []
    for comp in kids:
        if comp.dep not in ("dobj", "xcomp") or comp.i < root.i:
            continue
        span = subtree(toks, comp.i)
        words = [t.text for t in span]
        if len(span) > 6 or set(words) & _PRONOUNS or any(t.dep in ("relcl", "ccomp") for t in span):
            return []
        body = question_body(toks, {t.i for t in span})
        if body is None or not body.startswith(("do you ", "did you ")):
            return []
        if root.lemma in ("love", "enjoy", "adore"):  # the Y/N template asks "like"; ask with the bot's verb
            body = re.sub(r"\blike\b", root.lemma, body, count=1)
        if comp.dep == "xcomp" and words[0] == "to":
            return [Question(f"what {body} to do?", " ".join(words[1:]), OPEN_TEMPLATE)]
        return [Question(f"what {body}?", _DETS.sub("", " ".join(words)), OPEN_TEMPLATE)]
    return []
