"""Resume: a killed run finishes with the same file as a clean run; other settings are refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from consistest.core.errors import InputError
from consistest.core.records import Sample
from consistest.data.dataset_dir import write_samples
from consistest.models.decoding import Decoding
from consistest.models.registry import ModelSpec
from consistest.tasks.consistest.generation import RespondConfig
from consistest.tasks.consistest.generation import respond as generate_responses
from tests.helpers import run_cli
from tests.tiny_models import tiny_generator

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

PERSONA_TEXT = "i have two dogs and a cat . i work as a teacher in a small town ."
QUESTIONS = [
    "do you have any pets ?",
    "what do you do for a living ?",
    "are you married ?",
    "do you like music ?",
]


def many_samples(n: int = 16) -> list[Sample]:
    """``n`` samples with distinct inputs (the persona grows with the index, then carries it)."""
    words = PERSONA_TEXT.split()
    out = []
    for i in range(n):
        q = QUESTIONS[i % len(QUESTIONS)]
        persona = [" ".join(words[: 3 + i]) + (f" ( {i} )" if 3 + i > len(words) else "")]
        fixed = dict(
            answer="yes", fact="i have two dogs .", nli_premise="", source="pers", type="yn", turn=-1
        )
        out.append(Sample(f"s{i:02d}", f"q{i}", "d", persona, [q], q, distance=0, **fixed))
    return out


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_generator(tmp_path_factory.mktemp("resume") / "gpt2", "gpt2")


ARGS = ("--max-new-tokens", "120", "--batch-size", "2", "--device", "cpu", "--quiet")


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.slow
def test_killed_run_resumes_to_the_clean_file(gpt2: Path, tmp_path: Path) -> None:
    samples = many_samples(32)
    data = tmp_path / "data"
    write_samples(data, samples, "jsonl")
    run = tmp_path / "killed"
    # every batch is written at once (not every 2 s), so a fast machine cannot finish between two writes
    main = (
        "import consistest.models.refill as r; r.FLUSH_SECONDS = 0.0; "
        "from consistest.cli.main import main; main()"
    )
    cmd = [
        sys.executable,
        "-c",
        main,
        "generate",
        "--dataset",
        str(data),
        "--model",
        str(gpt2),
        "--out",
        str(run),
    ]
    cmd += ARGS
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _lines(run / "responses.jsonl") < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.kill()
    proc.wait()
    written = _lines(run / "responses.jsonl")
    assert 2 <= written < len(samples), f"the run was not interrupted mid-way ({written} lines)"
    with open(run / "responses.jsonl", "a", encoding="utf-8") as f:
        f.write('{"id": "s0')  # a line cut by the kill
    cfg = RespondConfig(
        ModelSpec(str(gpt2), Decoding(max_new_tokens=120), {"batch_size": 2, "device": "cpu"})
    )
    resumed = generate_responses(cfg, samples, run, quiet=True)
    clean = generate_responses(cfg, samples, tmp_path / "clean", quiet=True)
    assert resumed.read_bytes() == clean.read_bytes()
    ids = [json.loads(line)["id"] for line in resumed.read_text().splitlines()]
    assert ids == [s.id for s in samples]
    assert json.loads((run / "generation.json").read_text())["complete"] is True


def test_settings_mismatch_is_refused_unless_overwrite(tmp_path: Path) -> None:
    samples = many_samples(4)
    base = RespondConfig(ModelSpec("baseline:oracle"))
    generate_responses(base, samples, tmp_path, quiet=True)
    with pytest.raises(InputError, match="settings differ.*model"):
        generate_responses(replace(base, model=ModelSpec("baseline:generic")), samples, tmp_path, quiet=True)
    with pytest.raises(InputError, match="settings differ.*input_variant"):
        generate_responses(replace(base, input_variant="fact-question"), samples, tmp_path, quiet=True)
    with pytest.raises(InputError, match="different dataset"):
        generate_responses(base, many_samples(5), tmp_path, quiet=True)
    out = generate_responses(
        replace(base, model=ModelSpec("baseline:generic"), overwrite=True), samples, tmp_path, quiet=True
    )
    assert {json.loads(x)["response"] for x in out.read_text().splitlines()} == {"i don't know ."}


def test_cli_refuses_other_settings_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_samples(data, many_samples(3), "jsonl")
    assert (
        run_cli(
            "generate", "--dataset", data, "--model", "baseline:oracle", "--out", tmp_path / "r", "-q"
        ).exit_code
        == 0
    )
    res = run_cli(
        "generate", "--dataset", data, "--model", "baseline:retrieval", "--out", tmp_path / "r", "-q"
    )
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "--overwrite" in res.stderr and "baseline:oracle" in res.stderr


def test_foreign_or_duplicate_lines_are_errors(tmp_path: Path) -> None:
    samples = many_samples(3)
    cfg = RespondConfig(ModelSpec("baseline:generic"))
    out = generate_responses(cfg, samples, tmp_path, quiet=True)
    out.write_text(out.read_text() + out.read_text().splitlines()[0] + "\n")
    with pytest.raises(InputError, match="duplicate id"):
        generate_responses(cfg, samples, tmp_path, quiet=True)


def test_a_model_saved_again_into_its_folder_does_not_resume_the_run(gpt2: Path, tmp_path: Path) -> None:
    """A local folder is named by its files, not its path alone: new weights in the same folder are
    refused (the replies would mix two models); an unchanged folder resumes."""
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(gpt2, folder)
    samples = many_samples(2)
    cfg = RespondConfig(ModelSpec(str(folder), Decoding(max_new_tokens=4), {"device": "cpu"}), limit=1)
    generate_responses(cfg, samples, tmp_path / "run", quiet=True)
    generate_responses(replace(cfg, limit=2), samples, tmp_path / "run", quiet=True)  # same files: resumes
    weights = next(p for p in folder.iterdir() if p.suffix in (".safetensors", ".bin"))
    weights.write_bytes(weights.read_bytes()[:-1] + bytes([weights.read_bytes()[-1] ^ 1]))
    with pytest.raises(InputError, match="settings differ.*weights"):
        generate_responses(cfg, samples, tmp_path / "run", quiet=True)


def test_a_run_stored_before_weight_fingerprints_resumes(
    gpt2: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = many_samples(2)
    cfg = RespondConfig(ModelSpec(str(gpt2), Decoding(max_new_tokens=4), {"device": "cpu"}), limit=1)
    run = tmp_path / "run"
    generate_responses(cfg, samples, run, quiet=True)
    info = json.loads((run / "generation.json").read_text())
    del info["settings"]["weights"]  # what a run generated before this check stored
    (run / "generation.json").write_text(json.dumps(info))
    capsys.readouterr()
    out = generate_responses(replace(cfg, limit=2), samples, run, quiet=True)
    assert len(out.read_text().splitlines()) == 2
    assert "resuming without checking the model's weights (the run predates" in capsys.readouterr().err


def test_a_finished_run_rescores_after_its_model_folder_is_gone(gpt2: Path, tmp_path: Path) -> None:
    """Nothing is generated, so nothing needs the folder: the unknown fingerprint is not a change."""
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(gpt2, folder)
    samples = many_samples(1)
    cfg = RespondConfig(ModelSpec(str(folder), Decoding(max_new_tokens=4), {"device": "cpu"}))
    first = generate_responses(cfg, samples, tmp_path / "run", quiet=True).read_text()
    stored = json.loads((tmp_path / "run" / "generation.json").read_text())["settings"]["weights"]
    shutil.rmtree(folder)
    assert generate_responses(cfg, samples, tmp_path / "run", quiet=True).read_text() == first
    # the fingerprint it was generated with stays, for the resumes to come
    assert json.loads((tmp_path / "run" / "generation.json").read_text())["settings"]["weights"] == stored


def test_a_folder_that_appears_where_a_hub_id_ran_does_not_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from consistest.core.rundir import settings_changes
    from consistest.models import hf_chat

    monkeypatch.chdir(tmp_path)
    hub = hf_chat.settings("gpt2", Decoding(), {})
    assert hub["weights"] == "hub"
    (tmp_path / "gpt2").mkdir()
    (tmp_path / "gpt2" / "config.json").write_text("{}")
    changes, skipped = settings_changes(hub, hf_chat.settings("gpt2", Decoding(), {}))
    assert changes.startswith("weights: 'hub' -> ") and not skipped
