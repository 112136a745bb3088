"""``consistest converse``: bot-bot conversations with inquiries, judged, into a resumable run directory.

All conversations advance together: in each round every bot gets, as one batch of items through
``ChatModel.stream``, the next utterance of each conversation where it is to speak and the side queries
asking it about what it just said; HF backends batch across conversations, endpoints send them
concurrently. Replies are appended to RUNDIR/events.jsonl (fsynced per chunk) and a rerun resumes where
the log ends; sampling is seeded per item id, so the texts depend neither on batching nor on resuming.
When every conversation is done, the inquiries are judged and the run is written out:

- ``aih.json``: settings, the signature and its parts, counts, ``complete``;
- ``conversations.jsonl``: one conversation per line (personas, opener, utterances by speaker);
- ``inquiries.jsonl``: one inquiry per line (utterance, entity, question, answer, the judges' verdicts);
- ``judge.jsonl``: with ``--judge-model``, the model judge's raw replies by call key (a rerun asks only
  what is missing; rerunning a finished run with ``--judge-model`` judges it without generating again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, atomic_write_jsonl, progress, read_json
from consistest.core.rundir import JUDGE_FILE, AppendLog, read_log, resumed_settings, run_lock
from consistest.core.signature import make_signature
from consistest.data.dialogues import read_dialogues
from consistest.metrics.rules import RULES_VERSION
from consistest.models.base import ChatModel, ProbabilisticNLI
from consistest.models.nli import nli_from_option, nli_signature
from consistest.tasks.aih import AIH_VERSION
from consistest.tasks.aih.config import ConverseConfig
from consistest.tasks.aih.inquirer import Inquirer
from consistest.tasks.aih.judges import judge_inquiries
from consistest.tasks.aih.model_judge import add_model_verdicts, counts_line
from consistest.tasks.aih.plan import (
    Plan,
    inquiry_id,
    opener_pool,
    persona_pool,
    plan_conversations,
    pools_hash,
    speaker,
)
from consistest.tasks.aih.state import RunState

RUN_FILE = "aih.json"
EVENTS_FILE = "events.jsonl"
CONVERSATIONS_FILE = "conversations.jsonl"
INQUIRIES_FILE = "inquiries.jsonl"
OUR_FILES = (RUN_FILE, EVENTS_FILE, CONVERSATIONS_FILE, INQUIRIES_FILE, JUDGE_FILE)


@dataclass(frozen=True)
class Setup:
    """A run resolved from its config: conversations, inquirer, settings, signature parts."""

    plans: list[Plan]
    inquirer: Inquirer
    settings: dict[str, Any]
    parts: list[tuple[str, Any]]


def setup(cfg: ConverseConfig) -> Setup:
    """Plans, inquirer, settings and signature parts (up to the judge); loads no chat model."""
    dialogues = read_dialogues(cfg.dialogues) if cfg.dialogues is not None else []
    personas, openers = persona_pool(dialogues), opener_pool(dialogues)
    plans = plan_conversations(cfg, personas, openers)
    inquirer = Inquirer(cfg.inquirer, cfg.seed, _load_qg(cfg) if cfg.inquirer == "neural" else None)
    pool = pools_hash(personas, openers) if dialogues else "none"
    settings = {
        "aih": AIH_VERSION,
        "bots": {b.name: b.settings() for b in cfg.bots},
        "conversations": cfg.conversations,
        "turns": cfg.turns,
        "self_pairs": cfg.self_pairs,
        "opener": cfg.opener,
        "personas": pool,
        "seed": cfg.seed,
        "inquirer": inquirer.signature_value(),
        **({"inquiry_delays": list(cfg.inquiry_delays)} if cfg.inquiry_delays != (0,) else {}),
    }
    parts: list[tuple[str, Any]] = [
        ("aih", AIH_VERSION),
        ("bots", [b.signature_value() for b in sorted(cfg.bots, key=lambda b: b.name)]),
        ("pairs", "ordered+self" if cfg.self_pairs else "ordered"),
        ("conv", cfg.conversations),
        ("turns", cfg.turns),
        ("personas", pool),
        ("opener", cfg.opener),
        ("inquirer", settings["inquirer"]),
        ("delay", list(cfg.inquiry_delays) if cfg.inquiry_delays != (0,) else None),
        ("seed", cfg.seed),
    ]
    return Setup(plans, inquirer, settings, parts)


def _load_qg(cfg: ConverseConfig) -> Any:
    from consistest.models.hf_loader import resolve_device
    from consistest.models.questions import HFAnswerAwareQG

    return HFAnswerAwareQG(cfg.qg_model, device=resolve_device(cfg.device), batch_size=cfg.batch_size)


def load_judge_nli(cfg: ConverseConfig, nli: Any = None) -> ProbabilisticNLI | None:
    """The judges' NLI model (``none`` = rules only: no paper verdicts); it must give probabilities."""
    model = (
        nli
        if nli is not None
        else nli_from_option(
            cfg.nli, cfg.nli_labels, batch_size=cfg.batch_size, device=cfg.device, quiet=cfg.quiet
        )
    )
    if model is not None and not isinstance(model, ProbabilisticNLI):
        raise InputError(f"the NLI model {model.name!r} gives no probabilities (predict_proba)", field="nli")
    return model


def run_converse(cfg: ConverseConfig, nli: Any = None) -> Path:
    """Run (or resume) every conversation, judge the inquiries, write the run directory; return it.
    ``nli`` overrides ``cfg.nli`` with a model object (tests)."""
    run = setup(cfg)
    judge_nli = load_judge_nli(cfg, nli)  # before any generation: a bad --nli costs nothing
    out = Path(cfg.out)
    with run_lock(out):
        run = replace(run, settings=_check_resume(out, run.settings, cfg.overwrite))
        state = RunState(run.plans, cfg.turns, cfg.inquiry_delays)
        events_path = out / EVENTS_FILE
        state.restore(read_log(events_path, state.known_ids()), str(events_path))
        info = partial(_info, run, cfg, nli_signature(judge_nli))
        if not state.complete:
            _generate(cfg, run, state, events_path, lambda: atomic_write_json(out / RUN_FILE, info(False)))
        _write_results(out, run, state, judge_nli, cfg, info)
    return out


def _info(
    run: Setup, cfg: ConverseConfig, nli: str, complete: bool, model: dict[str, Any] | None = None
) -> dict[str, Any]:
    """aih.json: settings, the NLI judges and the signature (of the run: generation and the NLI judges),
    the model judge's record (its tag is added to the signature of what ``rank`` figures with it)."""
    parts = [*run.parts, ("nli", nli), ("rules", RULES_VERSION), ("tau", cfg.tau)]
    return {"settings": run.settings, "judge": {"nli": nli, "rules": RULES_VERSION, "tau": cfg.tau},
            "signature": make_signature(parts), "signature_parts": [[k, v] for k, v in parts],
            "conversations": len(run.plans), "complete": complete,
            **({"model_judge": model} if model else {})}  # fmt: skip


def _check_resume(out: Path, settings: dict[str, Any], overwrite: bool) -> dict[str, Any]:
    """The settings the run will store, after refusing a resume with other settings."""
    if overwrite:
        for name in OUR_FILES:
            (out / name).unlink(missing_ok=True)
        return settings
    if (out / RUN_FILE).exists():
        old = (read_json(out / RUN_FILE) or {}).get("settings") or {}
        return resumed_settings(old, settings, out / RUN_FILE)
    if (out / EVENTS_FILE).exists():
        raise InputError(f"{EVENTS_FILE} exists without {RUN_FILE}; use --overwrite", path=str(out))
    return settings


def _generate(
    cfg: ConverseConfig, run: Setup, state: RunState, path: Path, on_first_write: Callable[[], None]
) -> None:
    """Rounds until every conversation is done: each bot replies to all it must say now, in one stream."""
    models: dict[str, ChatModel] = {}
    total = len(run.plans) * (state.length - 1)
    bar = progress(total=total, initial=state.generated(), unit="utt", desc="converse", quiet=cfg.quiet)
    first = [True]
    try:
        with AppendLog(path) as events:

            def write(records: list[dict[str, Any]]) -> None:
                if first[0] and records:
                    on_first_write()
                    first[0] = False
                events.append(records)

            write(_ask(run.inquirer, state, state.unasked()))
            while not state.complete:
                before = state.generated() + len(state.inquiries)
                for bot in sorted(b.name for b in cfg.bots):
                    items = state.items_for(bot)
                    if not items:
                        continue
                    if bot not in models:
                        models[bot] = cfg.bot(bot).model.load(cfg.quiet, extra=cfg.extra_models)
                    for chunk in models[bot].stream(items):
                        records, said = [], []
                        for item_id, text in chunk:
                            rec, follow = state.record(item_id, text)
                            records.append(rec)
                            said += [follow] if follow else []
                        write(records + _ask(run.inquirer, state, said))
                        bar.update(sum(1 for r in records if "text" in r))
                        bar.set_postfix(asked=state.asked(), refresh=False)
                if state.generated() + len(state.inquiries) == before:
                    raise RuntimeError("a bot returned no reply for some of its items")
    finally:
        bar.close()


def _ask(inquirer: Inquirer, state: RunState, said: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Make the inquiries after ``said`` utterances; the log records of those with nothing to ask."""
    if not said:
        return []
    made = inquirer.ask(said)
    return [r for iid, _ in said for r in state.ask(iid, made[iid])]


def _write_results(
    out: Path,
    run: Setup,
    state: RunState,
    nli: ProbabilisticNLI | None,
    cfg: ConverseConfig,
    info: Callable[..., dict[str, Any]],
) -> None:
    """Judge the inquiries (NLI judges, then the model judge) and write the run's files; aih.json says
    ``complete: false`` while they are replaced, so a kill in between leaves no mixed run to rank."""
    conversations, inquiries = _results(run, state)
    log.info(f"aih: judging {len(inquiries)} inquiries", quiet=cfg.quiet)
    judged = judge_inquiries(inquiries, nli, cfg.tau)
    model = None
    if cfg.model_judge is not None:
        judged, model = add_model_verdicts(judged, cfg.model_judge, out / JUDGE_FILE, cfg.quiet)
        log.info(f"aih: {counts_line(model)}", quiet=cfg.quiet)
    elif (out / RUN_FILE).exists() and "model_judge" in (read_json(out / RUN_FILE) or {}):
        log.warning("aih: the stored model judge's verdicts are not kept; pass --judge-model SPEC again to "
                    "keep them (its replies are cached in judge.jsonl)")  # fmt: skip
    atomic_write_json(out / RUN_FILE, info(False, model))
    atomic_write_jsonl(out / CONVERSATIONS_FILE, conversations)
    atomic_write_jsonl(out / INQUIRIES_FILE, judged)
    atomic_write_json(out / RUN_FILE, info(True, model))


def _results(run: Setup, state: RunState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The conversations and the inquiries asked in them (not yet judged), in plan order."""
    conversations, inquiries = [], []
    for p in run.plans:
        said = state.utterances[p.id]
        conversations.append({
            "id": p.id, "partner": p.partner, "bot": p.evaluated, "index": p.index,
            "partner_persona": list(p.partner_persona), "bot_persona": list(p.evaluated_persona),
            "utterances": [{"speaker": speaker(p, n), "text": t} for n, t in enumerate(said)],
        })  # fmt: skip
        for n in range(3, len(said), 2):
            for d in state.delays_of(n):
                rec = state.inquiries[inquiry_id(p, n, d)]
                if rec.get("question") is not None:
                    inquiries.append({**rec, "conversation": p.id, "partner": p.partner, "bot": p.evaluated,
                                      "turn": n, "utterance": said[n]})  # fmt: skip
    return conversations, inquiries
