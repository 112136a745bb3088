"""The layer rule, checked by parsing every import (lazy ones inside functions included).

core <- data <- models, metrics, text, training <- tasks/<method> <- cli: a module imports only its own
layer or those below; tasks never import each other; no import cycles between modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "consistest"
RANK = {"core": 0, "data": 1, "models": 2, "metrics": 2, "text": 2, "training": 2, "tasks": 3, "cli": 4}
# Siblings of one rank that may use each other: training fine-tunes models (with the shared HF loader)
# and scores them with metrics.
ALLOWED_SIDEWAYS = {("training", "metrics"), ("training", "models")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path) -> set[str]:
    """Every consistest module this file imports, at any depth of the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("consistest"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("consistest"))
    known = modules()
    return {m for m in out if m in known}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""  # "" = the package root (version only)


def task(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "tasks" else None


def test_every_module_lives_in_a_known_layer() -> None:
    stray = [m for m in modules() if layer(m) not in RANK and m != "consistest"]
    assert not stray, f"modules outside the layers: {stray}"


@pytest.mark.parametrize("module", sorted(modules()))
def test_imports_go_down_or_sideways_within_a_layer(module: str) -> None:
    if module == "consistest":
        return
    here = layer(module)
    for dep in imports_of(modules()[module]):
        there = layer(dep)
        if dep == "consistest" or there == here:
            if here == "tasks" and task(dep) is not None:
                assert task(dep) == task(module), f"{module} imports another task: {dep}"
            continue
        ok = RANK[there] < RANK[here] or (here, there) in ALLOWED_SIDEWAYS
        assert ok, f"{module} ({here}) imports {dep} ({there}): only lower layers may be imported"


@pytest.mark.slow
def test_no_import_cycles() -> None:
    graph = {m: imports_of(p) - {m} for m, p in modules().items()}
    state: dict[str, int] = {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if d.startswith(m + "."):  # a package importing its own submodule is not a cycle
                continue
            if state.get(d) == 1:
                cycle = stack[stack.index(d) :] + [d] if d in stack else [m, d]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)}")
            if state.get(d) is None:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


def test_the_checker_catches_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from consistest.tasks.consistest.score import run_score\n")
    assert "consistest.tasks.consistest.score" in imports_of(bad)
