"""The documentation cannot drift: its runnable examples run, and every option it names exists.

A fenced block whose info string is exactly ``bash title="runnable"`` or ``python title="runnable"`` is
run here (with mktestdocs): the blocks of one page in order, bash in one temporary folder, Python in one
namespace. Other blocks are only shown. Every ``consistest COMMAND ... --option`` written in the docs must
be an option of that command, so a renamed or removed option fails here, not in a user's shell.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import click
import mktestdocs
import pytest
from mktestdocs.__main__ import exec_bash, exec_python

from consistest.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
BASH = 'bash title="runnable"'
PYTHON = 'python title="runnable"'
# The library's own executors (bash -e -u in a subprocess; exec in a fresh namespace), under our markers.
mktestdocs.register_executor(BASH, exec_bash)
mktestdocs.register_executor(PYTHON, exec_python)

# Options the docs may name before the code has them (a change landing in two halves); none today.
PLANNED_OPTIONS: set[str] = set()


def doc_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]


def runnable(lang: str) -> list[Path]:
    return [p for p in doc_files() if mktestdocs.grab_code_blocks(p.read_text(), lang=lang)]


def shell_pages() -> list:
    """The README's quick start runs in the fast loop; the other pages' shell examples (several processes
    each) are marked slow, and CI runs them all."""
    return [p if p.name == "README.md" else pytest.param(p, marks=pytest.mark.slow) for p in runnable(BASH)]


@pytest.fixture
def docs_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working folder, this interpreter's scripts first on PATH, nothing from the network."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / ".hf-datasets"))
    return tmp_path


def test_the_readme_and_the_api_page_hold_runnable_examples():
    """The marker is found where the quick start and the Python API promise tested examples."""
    assert ROOT / "README.md" in runnable(BASH)
    assert ROOT / "docs" / "reference" / "python-api.md" in runnable(PYTHON)


@pytest.mark.parametrize("page", shell_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_runnable_shell_examples(page: Path, docs_env: Path):
    mktestdocs.check_md_file(page, memory=True, lang=BASH)


@pytest.mark.parametrize("page", runnable(PYTHON), ids=lambda p: str(p.relative_to(ROOT)))
def test_runnable_python_examples(page: Path, docs_env: Path):
    mktestdocs.check_md_file(page, memory=True, lang=PYTHON)


def _options(cmd: click.Command) -> set[str]:
    names = {"--help", "--debug"}
    for p in cmd.params:
        names.update(o for o in (*p.opts, *p.secondary_opts) if o.startswith("--"))
    return names


def _resolve(words: list[str]) -> tuple[click.Command, str]:
    """The deepest (sub)command the words name, and its name."""
    ctx = click.Context(main)
    cmd: click.Command = main
    name: list[str] = []
    for w in words:
        sub = cmd.get_command(ctx, w) if isinstance(cmd, click.Group) else None
        if sub is None:
            break
        cmd, name = sub, [*name, w]
    return cmd, " ".join(name)


CALL = re.compile(r"consistest ((?:[a-z][a-z0-9-]* ?)+)(.*?)(?=`|$|;|&&|\||\)$)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def documented_options(text: str) -> list[tuple[int, str, str]]:
    """(line, command, option) for every option written after ``consistest COMMAND`` on one logical line."""
    found = []
    lines = text.replace("\\\n", " ").split("\n")
    for number, line in enumerate(lines, 1):
        for m in CALL.finditer(line):
            cmd, name = _resolve(m.group(1).split())
            if cmd is main:
                continue
            for opt in OPTION.findall(m.group(1) + m.group(2)):
                found.append((number, name, opt))
    return found


@pytest.mark.parametrize("page", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_documented_options_exist(page: Path):
    ctx = click.Context(main)
    wrong = []
    for line, name, opt in documented_options(page.read_text()):
        cmd = main
        for w in name.split():
            cmd = cmd.get_command(ctx, w)  # type: ignore[union-attr]
        if opt not in _options(cmd) and opt not in PLANNED_OPTIONS:
            wrong.append(f"{page.relative_to(ROOT)}: logical line {line}: consistest {name} has no {opt}")
    assert not wrong, "\n".join(wrong)


def test_the_option_check_finds_what_it_should():
    """A documented call with an unknown option is caught; continuation lines count."""
    text = "consistest score --model m \\\n    --no-such-option 3\n`consistest models get x --out d`"
    found = documented_options(text)
    assert ("score", "--no-such-option") in {(n, o) for _, n, o in found}
    assert ("models get", "--out") in {(n, o) for _, n, o in found}


@pytest.mark.parametrize(
    "page", [*doc_files(), ROOT / "CHANGELOG.md", ROOT / "mkdocs.yml"], ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_machine_paths(page: Path):
    """Docs name the paths the documented commands create, never a build machine's."""
    hits = [m.group(0) for m in re.finditer(r"(?<![\w.])/(work|tmp)/\S*", page.read_text())]
    assert not hits, f"{page.relative_to(ROOT)}: machine paths {hits[:5]}"
