"""``consistest train-detector``, ``consistest detect`` and ``consistest detector-pairs`` (CDConv's
dialogue contradiction detectors and English training data for them)."""

from __future__ import annotations

import json

import click

from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import format_option

METHOD_CHOICES = ("pair", "flatten", "hierarchical")


@click.command("train-detector")
@click.option(
    "--method",
    type=click.Choice(METHOD_CHOICES),
    default="hierarchical",
    show_default=True,
    help="pair (b1 vs b2), flatten (whole dialogue), hierarchical (intra -> role -> history).",
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
@click.option("--dataset", default=None, help="Dataset directory of scored ConsisTest runs given as --data.")
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

    for k in ("data", "tests", "nli_stage"):
        opts[k] = tuple(opts[k])
    metrics = run(TrainDetectorConfig(quiet=quiet, **opts))
    rows = {name: m for name, m in metrics["results"].items()}
    click.echo(render_metrics(rows, fmt, metrics["signature"]))


@click.command("detect")
@click.option(
    "--detector", required=True, type=click.Path(file_okay=False), help="A train-detector directory."
)
@click.option(
    "--data",
    "data",
    multiple=True,
    required=True,
    help="Dialogues: CDConv, DECODE or detector-pairs JSONL, or a scored run directory; repeatable.",
)
@click.option("--dataset", default=None, help="Dataset directory of a scored ConsisTest run given as --data.")
@click.option(
    "--out",
    default=None,
    type=click.Path(dir_okay=False),
    help="Predictions JSONL (figures beside it as <out>.metrics.json).",
)
@click.option("--batch-size", type=int, default=64, show_default=True)
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="cpu", show_default=True)
@click.option("--threads", type=int, default=0, show_default=True)
@click.option("--overwrite", is_flag=True, help="Replace --out even when it is not an earlier detect output.")
@format_option
@quiet_option
@handle_errors
def detect(fmt: str, quiet: bool, **opts) -> None:
    """Judge the last turn of each dialogue: category (none/intra/role/history) and probability."""
    from consistest.tasks.cdconv.detect import DetectConfig, run_detect
    from consistest.tasks.cdconv.report import render_metrics

    opts["data"] = tuple(opts["data"])
    summary = run_detect(DetectConfig(quiet=quiet, **opts))
    if summary["results"]:
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
    from consistest.training.detector_data import DetectorPairsConfig, build_detector_pairs

    stats = build_detector_pairs(DetectorPairsConfig(quiet=quiet, **opts))
    click.echo(json.dumps(stats["counts"], sort_keys=True))
