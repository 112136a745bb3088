"""Score a set of replies in memory, with no run folder: cut each reply to ``MAX_REPLY_CHARS``, judge every
sample (rules, then the NLI guard, then the model judge for ``--method judge``) into ScoredItems, and the
score signature. ``consistest score`` (:mod:`.score`) writes them into RUNDIR; ``consistest rejudge``
(:mod:`.rejudge`) scores a run's replies again with each judge.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from consistest.core.records import Sample, ScoredItem
from consistest.core.signature import make_signature
from consistest.data.dataset_dir import DatasetDir, has_sessions
from consistest.metrics.rules import RULES_VERSION
from consistest.models.base import NLI
from consistest.models.nli import nli_signature
from consistest.tasks.consistest.categories import CATEGORIES_VERSION
from consistest.tasks.consistest.generation import RespondConfig
from consistest.tasks.consistest.methods import (
    DEFAULT_METHOD,
    Judged,
    JudgeMethod,
    Method,
    judge_samples,
    signature_value,
)
from consistest.tasks.consistest.trigger_config import config_parts

# The rules and the categories read at most this much of a reply: ConsisTest answers are a sentence or
# two, and a runaway reply (a megabyte of repeated text) would otherwise cost minutes. Cut replies are
# counted, warned about and named in the signature (cut:N).
MAX_REPLY_CHARS = 2000


def cap_replies(responses: Mapping[str, str], samples: Sequence[Sample]) -> tuple[dict[str, str], int]:
    """The samples' replies cut to ``MAX_REPLY_CHARS`` (the rules and categories read no more), and how
    many were cut."""
    out = {s.id: responses[s.id] for s in samples}
    long = [k for k, v in out.items() if len(v) > MAX_REPLY_CHARS]
    for k in long:
        out[k] = out[k][:MAX_REPLY_CHARS]
    return out, len(long)


def score_items(
    samples: Sequence[Sample],
    responses: Mapping[str, str],
    nli: NLI | None,
    *,
    quiet: bool = True,
    method: Method = DEFAULT_METHOD,
    judge: JudgeMethod | None = None,
) -> list[ScoredItem]:
    """Rules for every sample, then one NLI call for the distinct pairs whose label can change a score (and,
    for ``judge``, the model judge for what they leave open)."""
    judged = judge_samples(samples, responses, nli, method=method, judge=judge, quiet=quiet)
    return [_item(s, responses[s.id], j) for s, j in zip(samples, judged, strict=True)]


def _item(s: Sample, response: str, j: Judged) -> ScoredItem:
    return ScoredItem(
        id=s.id,
        qa_id=s.qa_id,
        question=s.question,
        truth=s.answer,
        response=response,
        cleaned=j.cleaned,
        outcome=j.outcome,
        rule_score=j.rule_score,
        nli_use=j.nli_use,
        nli_label=j.nli_label,
        score=j.score,
        source=s.source,
        type=s.type,
        distance=s.distance,
        judge=j.detail,
    )


def score_signature(
    ds: DatasetDir,
    samples: Sequence[Sample],
    nli: NLI | None,
    responder: RespondConfig | None = None,
    *,
    subset: str | None = None,
    method: Method = DEFAULT_METHOD,
    config: str = "default",
    cut: int = 0,
    judge: JudgeMethod | None = None,
) -> str:
    """The data (its verified hash, the config and a subset when not all of it, how many replies were cut to
    MAX_REPLY_CHARS when any, memory and distances), the
    scorer (NLI model and label map, rules version, method, category version) and, for generated responses,
    the model, variant and decoding."""
    settings = dict((ds.info or {}).get("settings") or {})
    return make_signature(
        [
            ("data", ds.content_hash[:12]),
            *config_parts(ds, config),
            ("subset", subset),
            ("cut", cut or None),
            ("nli", nli_signature(nli)),
            ("rules", RULES_VERSION),
            ("method", signature_value(method, judge=judge)),
            ("cat", CATEGORIES_VERSION),
            ("mem", settings.get("memory")),
            ("d", settings.get("distances") or sorted({s.distance for s in samples})),
            ("paired", settings.get("paired")),
            *(responder.signature_parts(has_sessions(samples)) if responder is not None else []),
        ]
    )
