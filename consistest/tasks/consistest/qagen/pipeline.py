"""make_qas: raw dialogues -> persona and history QAs in the curated ConsisTest layout."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from consistest.core import log
from consistest.core.errors import InputError
from consistest.core.io import atomic_write_json, progress
from consistest.core.records import QA, Dialogue
from consistest.models.base import Answerer, QuestionGenerator
from consistest.tasks.consistest.qagen import QAGEN_VERSION
from consistest.tasks.consistest.qagen.extract import extract_qas
from consistest.tasks.consistest.qagen.facts import Fact, history_facts, persona_facts
from consistest.tasks.consistest.qagen.filters import filter_qas
from consistest.tasks.consistest.qagen.wh_neural import DEFAULT_QA_MODEL, DEFAULT_QG_MODEL
from consistest.text.lexicon import lexicon
from consistest.text.questions.yn_templates import Question
from consistest.text.sentences import informative, statement_pieces

WH_GENERATORS = ("rules", "neural", "auto")
HIST_YN_MAX_WORDS = (4, 8)  # longest history Y/N question kept: (positive, negated)


@dataclass(frozen=True)
class QAGenConfig:
    """Settings of the question builders (all go into ``info`` and so into build_info.json)."""

    wh_generator: str = "auto"  # rules | neural | auto (neural when both models load locally, else rules)
    qg_model: str = DEFAULT_QG_MODEL
    qa_model: str = DEFAULT_QA_MODEL
    min_qa_confidence: float = 0.5
    max_answer_tokens: int = 5
    seed: int = 0
    batch_size: int = 16
    device: str = "cpu"
    counterfactual: bool = True

    def __post_init__(self) -> None:
        if self.wh_generator not in WH_GENERATORS:
            raise ValueError(f"wh_generator must be one of {WH_GENERATORS}, got {self.wh_generator!r}")


@dataclass
class QAGenResult:
    persona_qas: dict[str, list[QA]]
    history_qas: dict[str, list[QA]]
    info: dict[str, Any] = field(default_factory=dict)


def _resolve_wh(cfg: QAGenConfig, qg: QuestionGenerator | None, answerer: Answerer | None):
    """(mode, qg, answerer): injected models win; 'auto' tries the neural models (hub id or local dir)
    and falls back to rules with a one-line warning; 'neural' that cannot load is a one-line error."""
    if qg is not None and answerer is not None:
        return "neural", qg, answerer
    if cfg.wh_generator == "rules":
        return "rules", None, None
    from consistest.tasks.consistest.qagen.wh_neural import load_neural

    try:
        qg, answerer = load_neural(cfg.qg_model, cfg.qa_model, cfg.device, cfg.batch_size)
        return "neural", qg, answerer
    except Exception as e:  # any load failure: missing files, offline hub, bad config
        why = f"{type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"
        if cfg.wh_generator == "neural":
            raise InputError(f"cannot load the neural WH models ({why})", field="qg-model/qa-model") from None
        log.warning(f"qagen: neural WH models not loadable ({why}); using rules")
        return "rules", None, None


def _questions_by_piece(
    pieces: list[str],
    persona_pieces: set[str],
    cfg: QAGenConfig,
    mode: str,
    qg: Any,
    answerer: Any,
    quiet: bool,
):
    """piece -> (yes/no questions, WH questions) made by templates/rules or the neural models;
    history-only pieces get Y/N questions only when ``history_worthy``."""
    from consistest.tasks.consistest.qagen.wh_neural import neural_wh
    from consistest.text.clauses import coordinated, core
    from consistest.text.parse import parse_all
    from consistest.text.questions.wh_rules import wh_questions
    from consistest.text.questions.yn_templates import build_pool, counterfactual, history_worthy, yn_question

    parsed = parse_all(pieces, quiet=quiet)
    subs = {p: coordinated(parsed[p]) for p in pieces}  # "i x and y" -> "i x", "i y"
    texts = list(dict.fromkeys([*pieces, *(s for p in pieces for s in subs[p])]))
    parsed.update(parse_all([t for t in texts if t not in parsed]))
    pool = build_pool([parsed[t] for t in texts])
    if mode == "neural":
        wh = dict(zip(pieces, neural_wh(pieces, qg, answerer, cfg.min_qa_confidence, cfg.max_answer_tokens),
                      strict=True))  # fmt: skip
    else:
        wh = {t: wh_questions(parsed[t], cfg.max_answer_tokens) for t in texts}
    out: dict[str, tuple[list[Question], list[Question]]] = {}
    for p in pieces:
        yn: list[Question] = []
        for unit in subs[p] or [p]:
            toks = core(parsed[unit])
            base = yn_question(toks) if p in persona_pieces or history_worthy(toks) else None
            if base is None:
                continue
            yn.append(base)
            rng = random.Random(f"{cfg.seed}:{unit}")  # seeded by content, not by order
            cf = counterfactual(toks, base, pool, rng) if cfg.counterfactual and p in persona_pieces else None
            yn.extend([cf] if cf else [])
        whs = [*wh[p], *(q for s in subs[p] for q in wh.get(s, []))]
        out[p] = (yn, list({q.q: q for q in reversed(whs)}.values())[::-1])
    return out


def _cap_history_yn(qas: list[QA], per_dialogue: int = 1) -> list[QA]:
    """History Y/N of one dialogue, kept sparse like the paper's (about 1 in 5 history QAs): every
    negated statement, at most one per agent utterance (its "no" is the informative truth), else the
    ``per_dialogue`` shortest positive ones (short statements are the clear facts: "i love horses");
    long questions (HIST_YN_MAX_WORDS) are dropped: they copy chatty clauses, not facts."""
    keep: set[int] = set()
    neg_turns: set[int] = set()
    positives = []
    for k, qa in enumerate(qas):
        if qa.source != "hist" or qa.type != "yn":
            continue
        n_words = len(qa.q.split())
        if ".neg" not in qa.template:
            positives.extend([(n_words, k, qa)] if n_words <= HIST_YN_MAX_WORDS[0] else [])
        elif qa.turn not in neg_turns and n_words <= HIST_YN_MAX_WORDS[1]:
            neg_turns.add(qa.turn)
            keep.add(id(qa))
    if not keep:  # a positive one only where the dialogue gave no negated statement
        keep |= {id(qa) for _, _, qa in sorted(positives, key=lambda x: x[:2])[:per_dialogue]}
    return [qa for qa in qas if qa.type != "yn" or qa.source != "hist" or id(qa) in keep]


def _qas_of(fact: Fact, qs: dict[str, tuple[list[Question], list[Question]]], mode: str) -> list[QA]:
    out: list[QA] = []
    for piece in statement_pieces(fact.norm):
        if fact.source == "hist" and not informative(piece):
            continue
        yn, wh = qs[piece]
        # alt_c: the clean sub-statement when the raw history clause holds more (markers, other clauses)
        alt_c = piece if fact.source == "hist" and piece != fact.norm.rstrip(" .!") else ""
        for q, kind, gen in [*((q, "yn", "rules") for q in yn), *((q, "wh", mode) for q in wh)]:
            out.append(QA(q=q.q, a=q.a, c=fact.c, source=fact.source, type=kind, turn=fact.turn,
                          dialog=fact.dialog, alt_c=alt_c, generator=gen, template=q.template))  # fmt: skip
    return out


def make_qas(
    dialogues: Sequence[Dialogue],
    cfg: QAGenConfig | None = None,
    quiet: bool = False,
    qg: QuestionGenerator | None = None,
    answerer: Answerer | None = None,
) -> QAGenResult:
    """Persona QAs keyed by the exact persona sentence, history QAs keyed by dialog_id (deterministic)."""
    cfg = cfg or QAGenConfig()
    mode, qg, answerer = _resolve_wh(cfg, qg, answerer)
    pfacts = persona_facts(dialogues)
    hfacts = {d.dialog_id: history_facts(d) for d in dialogues}
    all_facts = [*pfacts.values(), *(f for fs in hfacts.values() for f in fs)]
    pieces = list(dict.fromkeys(p for f in all_facts for p in statement_pieces(f.norm)))
    persona_pieces = {p for f in pfacts.values() for p in statement_pieces(f.norm)}
    qs = _questions_by_piece(pieces, persona_pieces, cfg, mode, qg, answerer, quiet)
    dropped: Counter[str] = Counter()
    by_norm: dict[str, list[QA]] = {}
    persona: dict[str, list[QA]] = {}
    for key, fact in pfacts.items():
        if fact.norm not in by_norm:
            by_norm[fact.norm] = filter_qas(_qas_of(fact, qs, mode), dropped)
        kept = [replace(qa, c=fact.c) for qa in by_norm[fact.norm]]
        if kept:
            persona[key] = kept
    history: dict[str, list[QA]] = {}
    for d in progress(dialogues, quiet=quiet, desc="history QAs"):
        kept = [qa for f in hfacts[d.dialog_id] for qa in filter_qas(_qas_of(f, qs, mode), dropped)]
        kept = _cap_history_yn(kept)
        kept += filter_qas(extract_qas(d, cfg.max_answer_tokens), dropped)
        if kept:
            history[d.dialog_id] = kept
    n_hist = len(all_facts) - len(pfacts)
    info = _info(cfg, mode, qg, answerer, persona, history, dropped, len(pfacts), n_hist)
    return QAGenResult(persona, history, info)


def _info(cfg, mode, qg, answerer, persona, history, dropped, n_pers, n_hist) -> dict[str, Any]:
    from consistest.text.parse import spacy_model_name

    qas = [qa for qas in (*persona.values(), *history.values()) for qa in qas]
    return {
        "qagen_version": QAGEN_VERSION,
        "lexicon_version": lexicon()["version"],
        "spacy_model": spacy_model_name(),
        "wh_generator": mode,
        "qg_model": qg.name if qg is not None else None,
        "qa_model": answerer.name if answerer is not None else None,
        "config": asdict(cfg),
        "facts": {"persona_sentences": n_pers, "history_statements": n_hist},
        "counts": dict(sorted(Counter(f"{qa.source}/{qa.type}" for qa in qas).items())),
        "by_generator": dict(sorted(Counter(qa.generator for qa in qas).items())),
        "by_template": dict(sorted(Counter(qa.template for qa in qas).items())),
        "dropped": dict(sorted(dropped.items())),
    }


def write_qas(result: QAGenResult, out_dir: str | Path) -> tuple[Path, Path]:
    """Write persona_qas.json and history_qas.json in the curated layout (+ generator/template keys)."""
    out = Path(out_dir)
    paths = out / "persona_qas.json", out / "history_qas.json"
    atomic_write_json(paths[0], {k: [qa.to_json() for qa in v] for k, v in result.persona_qas.items()})
    atomic_write_json(paths[1], {k: [qa.to_json() for qa in v] for k, v in result.history_qas.items()})
    return paths
