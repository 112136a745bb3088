"""ConsisTest's scoring methods, by name (``score --method``; ``agree`` reports every one).

A method is one module in this package implementing :class:`~.base.ScoringMethod` (see ``paper.py``,
``plus.py``) plus one line in ``METHODS`` below; ``score``, ``agree``, signatures and reports then take it.
``DEFAULT_METHOD`` is ``plus``: on replies frozen before it was tuned it beat ``paper`` with an interval
clear of 0 (docs/results.md#judges-test); ``paper`` reproduces published numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.metrics.plus import DEFAULT_RULES, Rule
from consistest.models.base import NLI
from consistest.tasks.consistest.methods.base import Judged, ScoringMethod
from consistest.tasks.consistest.methods.judge import JudgeMethod
from consistest.tasks.consistest.methods.paper import PaperMethod
from consistest.tasks.consistest.methods.plus import PlusMethod

# One line per method: --method name -> the method with its default settings. A method that needs a model
# (judge: its judge) is configured by the caller (``get_method(..., judge=JudgeMethod(model=...))``).
METHODS: dict[str, ScoringMethod] = {
    "paper": PaperMethod(),
    "plus": PlusMethod(),
    "judge": JudgeMethod(),
}
Method = str  # a key of METHODS
DEFAULT_METHOD: Method = "plus"
UNSIGNED_METHOD = "paper"  # what scored a run whose signature is older than its ``method`` part

__all__ = ["DEFAULT_METHOD", "METHODS", "UNSIGNED_METHOD", "JudgeMethod", "Judged", "Method", "ScoringMethod",
           "check_method", "get_method", "judge_replies", "judge_samples", "needs_model",
           "signature_value"]  # fmt: skip


def needs_model(method: str) -> bool:
    """Whether the registered method needs a model to judge (only the configured one can run)."""
    m = METHODS[check_method(method)]
    return isinstance(m, JudgeMethod) and m.model is None


def check_method(method: str) -> Method:
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}, expected one of {', '.join(METHODS)}", field="method")
    return method


def get_method(
    method: str, rules: Sequence[Rule] = DEFAULT_RULES, judge: JudgeMethod | None = None
) -> ScoringMethod:
    """The registered method; ``rules`` other than the default pick a subset of plus's rules; ``judge`` is
    the configured judge method (its model, prompt, cascade) for ``judge``."""
    m = METHODS[check_method(method)]
    if isinstance(m, JudgeMethod):
        if judge is None or judge.model is None:
            raise InputError("--method judge needs a judge model: --judge SPEC", field="judge")
        return judge
    if isinstance(m, PlusMethod) and tuple(rules) != tuple(m.rules):
        return PlusMethod(m.name, tuple(rules))
    return m


def signature_value(
    method: Method, rules: Sequence[Rule] = DEFAULT_RULES, judge: JudgeMethod | None = None
) -> str:
    """``paper``, ``plus-<version>`` (a rule subset is named: ``plus-1[extras]``) or
    ``judge-1[<judge>@<prompt>,<decoding>,<when>]``."""
    return get_method(method, rules, judge).tag()


def judge_samples(
    samples: Sequence[Sample],
    responses: Mapping[str, str],
    nli: NLI | None,
    *,
    method: Method = DEFAULT_METHOD,
    rules: Sequence[Rule] = DEFAULT_RULES,
    judge: JudgeMethod | None = None,
    quiet: bool = True,
) -> list[Judged]:
    """Judge every sample's reply with ``method``; ``nli=None`` leaves NLI-only decisions undecided."""
    replies = [responses[s.id] for s in samples]
    return judge_replies(samples, replies, nli, method=method, rules=rules, judge=judge, quiet=quiet)


def judge_replies(
    samples: Sequence[Sample],
    replies: Sequence[str],
    nli: NLI | None,
    *,
    method: Method = DEFAULT_METHOD,
    rules: Sequence[Rule] = DEFAULT_RULES,
    judge: JudgeMethod | None = None,
    quiet: bool = True,
) -> list[Judged]:
    """Judge ``replies[i]`` as the reply to ``samples[i]`` (a sample may come several times, answered by
    different models)."""
    scorer = get_method(method, rules, judge)
    if len(replies) != len(samples):
        raise ValueError("one reply per sample")
    return scorer.judge(samples, replies, nli, quiet=quiet)
