"""``consistest train-detector``, ``consistest detect`` and ``consistest detector-pairs`` (CDConv's
dialogue contradiction detectors and English training data for them)."""

from __future__ import annotations

import json

import click

from consistest.cli.deprecation import deprecated_alias
from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import format_option, judge_output_option
from consistest.tasks.cdconv.model_judge import DEFAULT_JUDGE_PROMPT, JUDGE_PROMPTS

ARCHITECTURES = ("pair", "flatten", "hierarchical", "nli-pairs")


@click.command("train-detector")
@deprecated_alias("--method", "--architecture")
@click.option(
    "--architecture",
    type=click.Choice(ARCHITECTURES),
    default="hierarchical",
    show_default=True,
    help="pair (b1 vs b2), flatten (whole dialogue), hierarchical (intra -> role -> history), or nli-pairs "
    "(no training: the --nli guard on the last bot turn against each earlier bot turn and persona "
    "sentence, contradiction when the largest P(contradiction) exceeds a tau picked on dev).",
)
@click.option(
    "--data",
    "data",
    multiple=True,
    required=True,
    help="Labelled dialogues: CDConv JSONL, DECODE JSONL, detector-pairs JSONL or a scored run "
    "directory; repeatable. Split train/dev/test unless rows carry a split.",
)
@click.option("--test", "tests", multiple=True, help="Extra labelled test sets (same layouts); repeatable.")
@click.option(
    "--dev",
    "dev",
    multiple=True,
    help="Extra labelled dev sets, used whole: tau is picked on them (nli-pairs, and --decision tau), else "
    "on the dev split of --data; they are reported too; repeatable.",
)
@click.option(
    "--dataset",
    default=None,
    help="Dataset directory of scored ConsisTest runs or labelled-replies files among the inputs.",
)
@click.option("--nli", default=None, help="nli-pairs: the guard (an NLI model folder or hub id).")
@click.option(
    "--pair-unit",
    type=click.Choice(["sentence", "turn"]),
    default="sentence",
    show_default=True,
    help="nli-pairs: compare sentence by sentence, or whole turns.",
)
@click.option(
    "--pairs",
    "pair_sources",
    default="history,persona",
    show_default=True,
    help="nli-pairs: what the last turn is checked against: history (earlier bot turns), persona, intra "
    "(its own sentences), comma-separated.",
)
@click.option(
    "--qa-rules",
    is_flag=True,
    help="nli-pairs: read the last turn with the user's question before it: yes/no answers spelled out, "
    "the guard on the question's topic, and the answer rules decide where they can (returned questions, "
    "a yes/no word its own reply contradicts, the other stand than the persona).",
)
@click.option(
    "--guard-pairs/--no-guard-pairs",
    default=True,
    show_default=True,
    help="nli-pairs with --qa-rules: the guard reads the last turn against --pairs for contradictions; "
    "off, only the answer rules (still reading --pairs' premises) and the role reading decide.",
)
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output detector directory.")
@click.option(
    "--base",
    default="scratch",
    show_default=True,
    help="Encoder: 'minilm' (offline), a hub id or folder, or scratch[-LxH] (a small BERT trained "
    "from scratch with a vocabulary learnt from the data; Chinese by character).",
)
@click.option(
    "--split-by",
    type=click.Choice(["context", "row"]),
    default="context",
    show_default=True,
    help="context: every reply to one (u1, b1, u2) on one side; row: the authors' random rows.",
)
@click.option("--split-seed", type=int, default=13, show_default=True)
@click.option(
    "--nli-stage",
    "nli_stage",
    multiple=True,
    help="NLI JSONL for a first stage (contradiction vs rest) before the detector; repeatable.",
)
@click.option("--nli-epochs", type=int, default=1, show_default=True)
@click.option("--epochs", type=int, default=5, show_default=True)
@click.option("--lr", type=float, default=None, help="[default: 3e-4 for scratch, else 5e-5 (the paper's)]")
@click.option("--batch-size", type=int, default=32, show_default=True)
@click.option("--max-length", type=int, default=128, show_default=True)
@click.option(
    "--persona/--no-persona",
    default=True,
    show_default=True,
    help="The history views (pair, flatten, hierarchical's history stage) read the bot's persona sentences "
    "first, where the data has them (DECODE agents, detector-pairs, ConsisTest items).",
)
@click.option(
    "--user-turn/--no-user-turn",
    default=False,
    show_default=True,
    help="pair: also read the user's turn the judged one answers (after the persona), so that a short "
    "answer ('no') is read with its question; named in the signature (user:yes).",
)
@click.option(
    "--decision",
    type=click.Choice(["argmax", "tau"]),
    default="argmax",
    show_default=True,
    help="pair, flatten, hierarchical: argmax (the classifiers' own decision, the paper's) or tau (a "
    "contradiction when P(contradiction) exceeds a threshold picked on --dev, else on the dev split, for "
    "the best balanced accuracy; stored with the detector). A rerun with the other choice reuses the "
    "trained stages.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Training seed (init, batch order).")
@click.option("--max-steps", type=int, default=None, help="Stop each stage after this many steps.")
@click.option("--threads", type=int, default=0, show_default=True, help="torch threads (0: default).")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="cpu", show_default=True)
@click.option(
    "--overwrite",
    is_flag=True,
    help="Empty --out first: a folder trained on other data or settings, or one that is not a detector's.",
)
@format_option
@quiet_option
@handle_errors
def train_detector(fmt: str, quiet: bool, **opts) -> None:
    """Train a dialogue contradiction detector (resumable per epoch); print its test figures."""
    from consistest.tasks.cdconv.report import render_metrics
    from consistest.tasks.cdconv.train import TrainDetectorConfig
    from consistest.tasks.cdconv.train import train_detector as run

    for k in ("data", "tests", "nli_stage", "dev"):
        opts[k] = tuple(opts[k])
    opts["pair_sources"] = tuple(x.strip() for x in opts["pair_sources"].split(",") if x.strip())
    metrics = run(TrainDetectorConfig(quiet=quiet, **opts))
    rows = {name: m for name, m in metrics["results"].items()}
    click.echo(render_metrics(rows, fmt, metrics["signature"]))


@click.command("detect")
@click.option(
    "--detector",
    default=None,
    type=click.Path(file_okay=False),
    help="A train-detector directory (or --judge).",
)
@click.option(
    "--judge",
    default=None,
    metavar="SPEC",
    help="A chat model as the detector (or --detector): any chat model spec, e.g. "
    "openai:NAME,api_base=URL,concurrency=8 or a HF chat model folder; greedy, 8 new tokens unless the spec "
    "says otherwise. It answers none/intra/role/history; a reply without one is asked again once, then "
    "recorded as undecided.",
)
@click.option(
    "--judge-prompt",
    type=click.Choice(JUDGE_PROMPTS),
    default=None,
    help=f"The judge's prompt version. [default: {DEFAULT_JUDGE_PROMPT}]",
)
@click.option(*judge_output_option[0], **judge_output_option[1])
@click.option(
    "--judge-cache",
    default=None,
    type=click.Path(dir_okay=False),
    help="JSONL file of the judge's calls (appended; a rerun asks only what is missing). "
    "[default: <out>.judge.jsonl]",
)
@click.option(
    "--data",
    "data",
    multiple=True,
    required=True,
    help="Dialogues: CDConv, DECODE or detector-pairs JSONL, or a scored run directory; repeatable.",
)
@click.option(
    "--dataset",
    default=None,
    help="Dataset directory of a scored ConsisTest run or a labelled-replies file given as --data.",
)
@click.option(
    "--out",
    default=None,
    type=click.Path(dir_okay=False),
    help="Predictions JSONL (figures beside it as <out>.metrics.json).",
)
@click.option(
    "--nli", default=None, help="nli-pairs: the guard's folder if it moved (its weights must not change)."
)
@click.option("--n-boot", type=int, default=1000, show_default=True, help="Bootstrap resamples (0: none).")
@click.option("--boot-seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@click.option("--batch-size", type=int, default=64, show_default=True)
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="cpu", show_default=True)
@click.option("--threads", type=int, default=0, show_default=True)
@click.option("--overwrite", is_flag=True, help="Replace --out even when it is not an earlier detect output.")
@format_option
@quiet_option
@handle_errors
def detect(fmt: str, quiet: bool, **opts) -> None:
    """Judge each dialogue's last bot turn with a trained --detector or a chat model --judge.

    Category none/intra/role/history; with labels, CDConv's Table 4 figures, figures with 95% bootstrap
    intervals, and figures by bot model (a judge's: over the dialogues it decided, undecided ones counted)."""
    from consistest.tasks.cdconv.detect import DetectConfig, run_detect
    from consistest.tasks.cdconv.report import coverage_line, render_intervals, render_metrics

    opts["data"] = tuple(opts["data"])
    summary = run_detect(DetectConfig(quiet=quiet, **opts))
    if summary["results"] and fmt != "json":
        for m in summary["results"].values():
            parts = [render_metrics({"all": m, **m.get("by_origin", {})}, fmt)] if "acc2" in m else []
            parts += [render_intervals(m["intervals"], fmt)] if m.get("intervals") else []
            parts += [coverage_line(m["judged"])] if "judged" in m else []
            click.echo("\n\n".join(parts))
        click.echo(summary["signature"] if fmt != "markdown" else f"`{summary['signature']}`")
    elif summary["results"]:
        click.echo(render_metrics(summary["results"], fmt, summary["signature"]))
    else:
        click.echo(json.dumps({"n": summary["n"], "categories": summary["categories"]}, sort_keys=True))


@click.command("detector-pairs")
@click.option("--dialogues", required=True, help="Dialogues with DNLI triples (ConvAI2 'both' text layout).")
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False), help="Output JSONL (one dialogue a line)."
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--dev-fraction", type=float, default=0.15, show_default=True, help="Share of personas held out."
)
@click.option(
    "--window", type=int, default=6, show_default=True, help="Turns per example, the judged one included."
)
@quiet_option
@handle_errors
def detector_pairs(quiet: bool, **opts) -> None:
    """Synthesise English detector examples (history, intra, role, real and repeated negatives)."""
    from consistest.tasks.cdconv.detector_data import DetectorPairsConfig, build_detector_pairs

    stats = build_detector_pairs(DetectorPairsConfig(quiet=quiet, **opts))
    click.echo(json.dumps(stats["counts"], sort_keys=True))


@click.command("detector-dialogues")
@click.option("--labels", required=True, help="Labelled replies JSONL: item, id, model, response, category.")
@click.option("--dataset", required=True, help="The built dataset the ids come from.")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="DECODE-layout JSONL to write.")
@quiet_option
@handle_errors
def detector_dialogues(quiet: bool, labels: str, dataset: str, out: str) -> None:
    """Labelled replies to ConsisTest samples as DECODE-layout dialogues (persona, speakers, category)."""
    from collections import Counter

    from consistest.core.io import atomic_write_jsonl
    from consistest.tasks.cdconv.inputs import labelled_dialogues

    rows = labelled_dialogues(labels, dataset)
    atomic_write_jsonl(out, rows)
    click.echo(json.dumps(dict(Counter(str(r["category"]) for r in rows)), sort_keys=True))
