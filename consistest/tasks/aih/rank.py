"""``consistest rank RUNDIR``: contradiction-rate matrices, the ranking with bootstrap intervals and paired
tests, ranking stability, per judge; the report dict that ``report`` renders and ``plots`` draws."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from consistest.core.errors import InputError
from consistest.core.io import read_jsonl
from consistest.core.rundir import read_manifest
from consistest.core.signature import make_signature
from consistest.core.stats import MIN_BOOT, N_BOOT
from consistest.tasks.aih import stats
from consistest.tasks.aih.config import DEFAULT_TAU
from consistest.tasks.aih.converse import CONVERSATIONS_FILE, INQUIRIES_FILE, RUN_FILE
from consistest.tasks.aih.judges import (
    JUDGE_LABELS,
    JUDGES,
    NLI_JUDGES,
    RENAMED,
    STORED_KEY,
    JudgeName,
    contradiction,
)
from consistest.tasks.aih.model_judge import judge_agreement

DEFAULT_GRID = (1, 2, 5, 10, 20, 50, 100, 200)
REPETITIONS = 1000


@dataclass(frozen=True)
class RankConfig:
    """How a run is ranked; every setting here that changes a number is in the report's signature."""

    run: Path
    judges: tuple[JudgeName, ...] = NLI_JUDGES  # and "model" for a run with a model judge
    tau: float = DEFAULT_TAU
    reference: tuple[str, ...] = ()  # best (lowest rate) first; empty = the full-data ranking
    grid: tuple[int, ...] = DEFAULT_GRID
    repetitions: int = REPETITIONS
    n_boot: int = N_BOOT
    seed: int = 0
    taus: tuple[float, ...] = field(default=(0.05, 0.1, 0.15, 0.3, 0.5, 0.7, 0.9))  # for --judged

    def __post_init__(self) -> None:
        judges = tuple(RENAMED.get(j, j) for j in self.judges)  # "ours" is the hybrid judge's old name
        if unknown := [j for j in judges if j not in JUDGES]:
            raise InputError(f"unknown judge {unknown[0]!r} (one of {', '.join(JUDGES)})", field="judge")
        object.__setattr__(self, "judges", judges)
        if not 0.0 < self.tau < 1.0:
            raise InputError("must lie between 0 and 1", field="tau")
        if self.n_boot != 0 and self.n_boot < MIN_BOOT:
            raise InputError(f"must be 0 (no intervals) or at least {MIN_BOOT}", field="n-boot")
        if self.repetitions < 1 or not self.grid or min(self.grid) < 1:
            raise InputError("repetitions and every S of the grid must be at least 1", field="subsample")


@dataclass(frozen=True)
class Run:
    """A finished converse run: its aih.json, conversations and judged inquiries."""

    path: Path
    info: dict[str, Any]
    conversations: list[dict[str, Any]]
    inquiries: list[dict[str, Any]]

    @property
    def bots(self) -> list[str]:
        return sorted(self.info["settings"]["bots"])


def load_converse_run(path: Path) -> Run:
    """Read a run directory written by ``consistest converse`` (complete, judged)."""
    info_path = Path(path) / RUN_FILE
    if not info_path.is_file():
        raise InputError(f"no {RUN_FILE}: not a consistest converse run directory", path=str(path))
    info = read_manifest(info_path)
    if not info.get("complete"):
        raise InputError("the run is not complete; run consistest converse again to finish it",
                         path=str(path))  # fmt: skip
    convs = _unique(Path(path) / CONVERSATIONS_FILE, ("id", "partner", "bot"))
    inquiries = _unique(Path(path) / INQUIRIES_FILE, ("id", "conversation")) if convs else []
    ids = {c["id"] for c in convs}
    for q in inquiries:
        if q["conversation"] not in ids:
            raise InputError(
                f"conversation {q['conversation']!r} is not in {CONVERSATIONS_FILE}; run consistest converse "
                "again to rewrite the run's files",
                path=str(Path(path) / INQUIRIES_FILE),
                record=q["id"],
                field="conversation",
            )
    return Run(Path(path), info, convs, inquiries)


def _unique(path: Path, need: tuple[str, ...]) -> list[dict[str, Any]]:
    """The records of a run file, each with the fields ``need`` and an id seen once (a repeated line
    would count twice)."""
    out: dict[str, dict[str, Any]] = {}
    for lineno, rec in read_jsonl(path):
        missing = [k for k in need if k not in rec]
        if missing:
            raise InputError("missing field", path=str(path), record=f"line {lineno}", field=missing[0])
        if rec["id"] in out:
            raise InputError(
                f"id {rec['id']!r} appears twice; run consistest converse again to rewrite the run's files",
                path=str(path),
                record=f"line {lineno}",
                field="id",
            )
        out[rec["id"]] = rec
    return list(out.values())


def cells(
    run: Run, judge: JudgeName, tau: float, delay: int | None = None, last_turn: int | None = None
) -> dict[tuple[str, str], tuple[Any, Any]]:
    """(partner, bot) -> (contradictions, judged inquiries) per conversation, as arrays; ``delay`` keeps the
    inquiries asked that many bot turns after their utterance, ``last_turn`` those about utterances up to
    it (every conversation stays, so bootstraps with one seed draw the same conversations: paired)."""
    import numpy as np

    per: dict[str, list[float]] = {c["id"]: [0.0, 0.0] for c in run.conversations}
    for q in run.inquiries:
        if delay is not None and q.get("delay", 0) != delay:
            continue
        if last_turn is not None and q["turn"] > last_turn:
            continue
        v = contradiction(q, judge, tau)
        if v is not None:
            per[q["conversation"]][0] += v
            per[q["conversation"]][1] += 1
    out: dict[tuple[str, str], list[list[float]]] = {}
    for c in run.conversations:
        out.setdefault((c["partner"], c["bot"]), []).append(per[c["id"]])
    return {k: (np.array([x[0] for x in v]), np.array([x[1] for x in v])) for k, v in sorted(out.items())}


def signature(run: Run, cfg: RankConfig) -> str:
    """The run's signature parts with this ranking's tau, judges (the model judge's tag when it ranks)
    and seeds."""
    parts = [(k, v) for k, v in run.info["signature_parts"] if k != "tau"]
    model = model_judge(run)["tag"] if "model" in cfg.judges else None
    own = [("judges", list(cfg.judges)), ("model_judge", model), ("tau", cfg.tau),
           ("boot", f"{cfg.n_boot}-s{cfg.seed}"), ("stab", f"{cfg.repetitions}-s{cfg.seed}")]  # fmt: skip
    return make_signature([*parts, *own])


def model_judge(run: Run) -> dict[str, Any]:
    """The run's model judge record (aih.json ``model_judge``); refused when the run has none."""
    if not isinstance(run.info.get("model_judge"), dict):
        raise InputError(f"the run has no model judge's verdicts; add them with: consistest judge-run "
                         f"{run.path} --judge-model SPEC", path=str(run.path), field="judge")  # fmt: skip
    return run.info["model_judge"]


def rank(cfg: RankConfig, run: Run | None = None) -> dict[str, Any]:
    """The report of a run: per judge the matrices, ranking, tests and stability."""
    run = run or load_converse_run(cfg.run)
    bots = run.bots
    unknown = sorted(set(cfg.reference) - set(bots))
    if unknown or (cfg.reference and sorted(cfg.reference) != bots):
        raise InputError(f"--reference must name every bot once ({', '.join(bots)})", field="reference")
    settings = run.info["settings"]
    report: dict[str, Any] = {
        "run": str(run.path), "bots": bots, "conversations": len(run.conversations),
        "conversations_per_pair": settings["conversations"], "turns": settings["turns"],
        "self_pairs": settings["self_pairs"], "inquiries": len(run.inquiries),
        "signature": signature(run, cfg), "judges": {},
    }  # fmt: skip
    if not run.inquiries:
        raise InputError("the run holds no inquiries: no bot stated an entity the inquirer could ask about",
                         path=str(run.path))  # fmt: skip
    for judge in cfg.judges:
        report["judges"][judge] = judge_report(run, judge, cfg)
    return report


def judge_report(run: Run, judge: JudgeName, cfg: RankConfig) -> dict[str, Any]:
    import numpy as np

    bots = run.bots
    cs = cells(run, judge, cfg.tau)
    decided = int(sum(n.sum() for _, n in cs.values()))
    out: dict[str, Any] = {"label": JUDGE_LABELS[judge], "inquiries": decided,
                           "undecided": len(run.inquiries) - decided}  # fmt: skip
    if judge == "model":
        record = model_judge(run)
        out |= {"label": f"model: {record['tag']}", "retried": record["retried"],
                "agreement": judge_agreement(run.inquiries, cfg.tau)}  # fmt: skip
    if decided == 0:
        why = "no NLI model: converse --nli"
        why = "the model judge left every inquiry undecided" if judge == "model" else why
        out["note"] = f"no inquiry could be judged ({why})"
        return out
    convs = sum(len(c) for c, _ in cs.values())
    contradictions = sum(float(c.sum()) for c, _ in cs.values())
    out["per_conversation"] = {"inquiries": decided / convs, "contradictions": contradictions / convs}
    matrix = stats.rate_matrix(cs, bots)
    rates = stats.bot_rates(matrix)
    boots = stats.bootstrap(cs, bots, cfg.n_boot, cfg.seed, STORED_KEY[judge]) if cfg.n_boot else None
    out["matrix"] = {i: {j: _num(matrix[a, b]) for b, j in enumerate(bots)} for a, i in enumerate(bots)}
    out["bots"] = {b: _bot_figures(cs, b, rates[k], boots[:, k] if boots is not None else None)
                   for k, b in enumerate(bots)}  # fmt: skip
    order = stats.ranked(list(rates), bots)
    out["ranking"] = order
    adjacent = list(zip(order, order[1:], strict=False))
    out["ties"] = any(np.isclose(rates[bots.index(a)], rates[bots.index(b)]) for a, b in adjacent)
    out["tests"] = [_test(boots, bots, a, b, rates) for a, b in adjacent]
    reference = list(cfg.reference) or order
    usable = min(len(c) for c, _ in cs.values())
    grid = sorted({s for s in cfg.grid if s <= usable} | {usable})
    out["stability"] = {
        "reference": reference, "reference_from": "--reference" if cfg.reference else "full data",
        "all": usable,  # S = every conversation of a pair: the full data itself, not a subsample
        "tied": [[a, b] for a, b in zip(reference, reference[1:], strict=False)
                 if np.isclose(rates[bots.index(a)], rates[bots.index(b)])],  # never a strict rise
        **stats.stability(cs, bots, reference, grid, cfg.repetitions, cfg.seed, STORED_KEY[judge]),
    }  # fmt: skip
    delays = sorted({int(q.get("delay", 0)) for q in run.inquiries})
    if delays != [0]:
        out["by_delay"] = by_delay(run, judge, cfg, delays)
    return out


def by_delay(run: Run, judge: JudgeName, cfg: RankConfig, delays: Sequence[int]) -> dict[str, Any]:
    """Per delay, each bot's C_j with its interval and inquiries, and its change from the first delay, on
    the utterances asked about at every delay (a long delay only fits early utterances, so all delays are
    measured on those); paired bootstrap: the same conversations are drawn at every delay."""
    bots = run.bots
    last = 2 * int(run.info["settings"]["turns"]) - 1 - 2 * max(delays)
    base = None
    out: dict[str, Any] = {}
    for d in delays:
        cs = cells(run, judge, cfg.tau, d, last_turn=last)
        rates = stats.bot_rates(stats.rate_matrix(cs, bots))
        key = f"{STORED_KEY[judge]}:delay"
        boots = stats.bootstrap(cs, bots, cfg.n_boot, cfg.seed, key) if cfg.n_boot else None
        base = (rates, boots) if base is None else base
        entry = {}
        for k, b in enumerate(bots):
            n = int(sum(c[1].sum() for (_, j), c in cs.items() if j == b))
            ci = stats.interval(boots[:, k]) if boots is not None else None
            fig: dict[str, Any] = {"C": _num(rates[k]), "inquiries": n, "ci": ci}
            if d != delays[0]:
                diff = boots[:, k] - base[1][:, k] if boots is not None and base[1] is not None else None
                fig["delta"] = _num(rates[k] - base[0][k])
                fig["delta_ci"] = stats.interval(diff) if diff is not None else None
                fig["p"] = stats.paired_p(diff) if diff is not None else None
            entry[b] = fig
        out[str(d)] = entry
    return {"last_turn": last, "delays": out}


def _num(x: Any) -> float | None:
    import math

    return None if math.isnan(float(x)) else float(x)


def _bot_figures(cs: Mapping[tuple[str, str], tuple[Any, Any]], bot: str, rate: float, boot: Any) -> dict:
    mine = [(c, n) for (_, j), (c, n) in cs.items() if j == bot]
    convs = sum(len(c) for c, _ in mine)
    contradictions = float(sum(c.sum() for c, _ in mine))
    inquiries = int(sum(n.sum() for _, n in mine))
    return {"C": _num(rate), "ci": stats.interval(boot) if boot is not None else None,
            "conversations": convs, "inquiries": inquiries, "contradictions": contradictions,
            "inquiries_per_conversation": inquiries / convs if convs else None,
            "contradictions_per_conversation": contradictions / convs if convs else None}  # fmt: skip


def _test(boots: Any, bots: Sequence[str], better: str, worse: str, rates: Any) -> dict[str, Any]:
    """The difference C_worse - C_better, its bootstrap interval and two-sided p (resamples paired)."""
    a, b = bots.index(better), bots.index(worse)
    delta = _num(rates[b] - rates[a])
    if boots is None:
        return {"better": better, "worse": worse, "delta": delta, "ci": None, "p": None}
    d = boots[:, b] - boots[:, a]
    return {"better": better, "worse": worse, "delta": delta, "ci": stats.interval(d), "p": stats.paired_p(d)}
