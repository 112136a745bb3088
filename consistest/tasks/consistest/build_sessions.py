"""The session side of ``consistest build``: load the filler checks, assemble, and the counts table with
the samples that do not exist (no session left) or were dropped (their filler contradicts the fact)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.records import QA, Dialogue, SessionSample
from consistest.tasks.consistest.assemble_sessions import MISSING_REASONS, assemble_sessions
from consistest.tasks.consistest.filler import FillerCheck, triples_index


def filler_check(cfg: Any) -> FillerCheck:
    """The checks a BuildConfig asks for; none at all only with ``filler_unchecked``."""
    check = FillerCheck()
    if cfg.filler_triples is not None:
        from consistest.data.dataset_dir import file_sha256
        from consistest.data.dialogues import read_dialogues

        triples = triples_index(read_dialogues(cfg.filler_triples, "convai2-text"))
        if not triples:
            raise InputError("holds no Dialogue-NLI triples (a ConvAI2 'both' file with triples is needed)",
                             path=str(cfg.filler_triples), field="filler-triples")  # fmt: skip
        check.triples, check.triples_name = triples, file_sha256(cfg.filler_triples)[:8]
    if cfg.filler_guard is not None:
        from consistest.models.nli import nli_from_option

        check.guard = nli_from_option(cfg.filler_guard, None, device=cfg.device, quiet=cfg.quiet)
    if not check.enabled and not cfg.filler_unchecked:
        raise InputError(
            "a session build checks that filler sessions do not contradict the asked fact: give "
            "--filler-triples FILE (ConvAI2 'both' text with Dialogue-NLI triples) and/or --filler-guard "
            "NLI_MODEL, or --filler-unchecked (named check:none in the signature)",
            field="filler-triples",
        )
    return check


def session_samples(
    dialogues: Sequence[Dialogue],
    persona_qas: Mapping[str, Sequence[QA]],
    history_qas: Mapping[str, Sequence[QA]],
    cfg: Any,
    history_path: str | None,
) -> tuple[list[SessionSample], list[SessionSample], dict[str, Any]]:
    """(samples, paired subset, the build_info ``sessions`` section)."""
    check = filler_check(cfg)
    built = assemble_sessions(dialogues, persona_qas, history_qas, cfg.assembly, check, history_path)
    dropped = sum(built.missing["contradicted"].values())
    log.info(f"sessions: {dropped} samples dropped, their filler contradicts the fact ({check.tag()})",
             quiet=cfg.quiet)  # fmt: skip
    inputs = {}
    if cfg.filler_triples is not None:
        from pathlib import Path

        from consistest.data.dataset_dir import file_sha256

        path = Path(cfg.filler_triples)
        inputs["filler_triples"] = {"name": path.name, "sha256": file_sha256(path)}
    info = {**built.info, "missing": built.missing, "check_inputs": inputs}
    return built.samples, built.paired, info


def session_counts_table(info: Mapping[str, Any]) -> list[str]:
    """Counts per source/type/distance with the paired subset and the samples that do not exist."""
    counts, paired, missing = info["counts"], info["counts_paired"], info["sessions"]["missing"]
    keys = {k for k in counts if k != "total"} | {k for m in missing.values() for k in m}
    keys = sorted(keys, key=_order)
    width = max(len(k) for k in [*keys, "source/type/distance"])
    head = ["samples", "paired", "no session", "contradicted"]
    lines = [f"{'source/type/distance':<{width}}  " + "  ".join(f"{h:>12}" for h in head)]
    for k in keys:
        cells = [counts.get(k, 0), paired.get(k, 0), *(missing[r].get(k, 0) for r in MISSING_REASONS)]
        lines.append(f"{k:<{width}}  " + "  ".join(f"{c:>12,}" for c in cells))
    totals = [counts["total"], paired["total"], *(sum(missing[r].values()) for r in MISSING_REASONS)]
    lines.append(f"{'total':<{width}}  " + "  ".join(f"{c:>12,}" for c in totals))
    lines += [f"distance {d}: {n:,} samples" for d, n in by_distance(counts).items()]
    s = info["sessions"]
    streams = ", ".join(f"{k}: {v}" for k, v in s["streams"].items())
    lines.append(f"sessions per dialogue stream (sessions: dialogues): {streams}")
    lines.append(f"filler check {s['check']}: {s['contradicted_by'] or 'nothing dropped'}")
    return lines


def by_distance(counts: Mapping[str, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for k, n in counts.items():
        if k != "total":
            d = int(k.rsplit("/d", 1)[1])
            out[d] = out.get(d, 0) + n
    return dict(sorted(out.items()))


def _order(key: str) -> tuple[int, str, int]:
    from consistest.core.records import SOURCES

    src, qtype, d = key.split("/")
    return SOURCES.index(src), qtype, int(d[1:])  # type: ignore[arg-type]
