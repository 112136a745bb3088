"""Reading a model judge's reply as one label of a closed set, strictly (never guessed).

A ConsisTest judge answers Y/N items with ``0`` or ``1`` and WH items with ``0``, ``0.5`` or ``1``
(Appendix C). The label is read from the start of the reply: optionally a ``{"score": x}`` JSON object, a
lead-in naming the score (``Score:``, ``The answer is:``), quotes or markdown stars around it. Anything
else, or a label outside the item type's set (``0.5`` for Y/N, ``2``, ``0.75``), is unparseable: ``None``.
"""

from __future__ import annotations

import json
import re

JUDGE_LABELS: dict[str, tuple[str, ...]] = {"yn": ("0", "1"), "wh": ("0", "0.5", "1")}
_VALUES = {"0": 0.0, "0.0": 0.0, "0.5": 0.5, ".5": 0.5, "1": 1.0, "1.0": 1.0}
# A lead-in naming the score ("Score:", "The answer is:", "The correct score is") may precede the label.
_LEAD = r"(?:(?:the\s+)?(?:correct\s+|final\s+)?(?:score|answer|label|grade)\s*(?:is)?\s*[:=]?\s*)?"
_START = re.compile(
    rf"""^[\s"'`*(\[]*{_LEAD}[\s"'`*]*(0\.5|0\.0|1\.0|\.5|0|1)(?![\d/,]|\.\d)""", re.IGNORECASE
)


def labels_text(qtype: str) -> str:
    """The labels a judge may answer for ``qtype``, as the prompt names them: ``0 or 1``, ``0, 0.5 or 1``."""
    labels = JUDGE_LABELS[qtype]
    return f"{', '.join(labels[:-1])} or {labels[-1]}"


def parse_judge_label(text: str, qtype: str) -> float | None:
    """The score a judge's reply gives, or None when it gives none of the labels allowed for ``qtype``."""
    value = _json_score(text)
    if value is None:
        m = _START.match(text or "")
        value = m.group(1) if m else None
    score = _VALUES.get(value) if value is not None else None
    allowed = {_VALUES[x] for x in JUDGE_LABELS[qtype]}
    return score if score in allowed else None


def _json_score(text: str) -> str | None:
    """``{"score": 1}`` -> "1"; None when the reply is not such an object."""
    t = (text or "").strip()
    if not t.startswith("{"):
        return None
    try:
        obj = json.loads(t)
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or isinstance(obj.get("score"), bool):
        return None
    v = obj.get("score")
    if isinstance(v, (int, float)):
        return f"{float(v):g}" if v != 0.5 else "0.5"
    return v.strip() if isinstance(v, str) else None


def parse_choice(text: str, labels: tuple[str, ...], key: str = "label") -> str | None:
    """The word label a judge's reply starts with (case-insensitive; quotes, stars, a lead-in like
    ``Label:`` allowed; or a ``{"label": x}`` JSON object), or None when it starts with none of ``labels``
    (so ``contradictory`` is not ``contradiction``, and ``not consistent`` is not ``consistent``) or with
    a list of them (``consistent or contradiction``: the choices echoed back, not a choice)."""
    t = (text or "").strip()
    if t.startswith("{"):
        try:
            obj = json.loads(t)
        except json.JSONDecodeError:
            return None
        value = obj.get(key) if isinstance(obj, dict) else None
        return value.strip().lower() if isinstance(value, str) and value.strip().lower() in labels else None
    words = "|".join(re.escape(x) for x in sorted(labels, key=len, reverse=True))
    m = re.match(rf"""^[\s"'`*(\[]*{_LEAD}[\s"'`*]*({words})(?![\w-])""", t, re.IGNORECASE)
    if m is None or re.match(rf"""[\s"'`*]*(?:,|/|\bor\b|\band\b)[\s"'`*]*(?:{words})(?![\w-])""",
                             t[m.end() :], re.IGNORECASE):  # fmt: skip
        return None  # no label, or the list of labels echoed back ("none, intra, role or history")
    return m.group(1).lower()
