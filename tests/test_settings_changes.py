"""Which stored run settings a resume may not change (``core.rundir.settings_changes``)."""

from __future__ import annotations

import pytest

from consistest.core.rundir import kept_settings, settings_changes


@pytest.mark.parametrize(
    ("old", "new", "changes", "skipped"),
    [
        ({"a": 1}, {"a": 1}, "", []),
        ({"a": 1}, {"a": 2}, "a: 1 -> 2", []),
        ({"a": 1}, {}, "a: 1 -> None", []),
        ({}, {"a": 1}, "a: None -> 1", []),  # a new ordinary setting is a change
        ({"a": 1}, {"a": 1, "weights": "x"}, "", ["weights"]),  # a run stored before fingerprints
        ({"a": 1, "weights": "x"}, {"a": 1, "weights": "y"}, "weights: 'x' -> 'y'", []),
        ({"a": 1, "weights": "x"}, {"a": 1}, "weights: 'x' -> None", []),  # a backend that stopped saying
        ({"a": 1, "weights": "x"}, {"a": 1, "weights": None}, "", ["weights"]),  # the folder is gone
        ({"a": 1, "weights": None}, {"a": 1, "weights": "x"}, "", ["weights"]),  # it was gone then
        ({"weights": "hub"}, {"weights": "x"}, "weights: 'hub' -> 'x'", []),  # a folder where a hub id ran
        # a conversation run's bots: the same rule one level down
        ({"bots": {"b": {"t": 1}}}, {"bots": {"b": {"t": 1, "weights": "x"}}}, "", ["weights"]),
        (
            {"bots": {"b": {"t": 1, "weights": "x"}}},
            {"bots": {"b": {"t": 1, "weights": "y"}}},
            "bots: {'b': {'t': 1, 'weights': 'x'}} -> {'b': {'t': 1, 'weights': 'y'}}",
            [],
        ),
    ],
)
def test_settings_changes(old, new, changes, skipped) -> None:
    assert settings_changes(old, new) == (changes, skipped)


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        ({"weights": "x"}, {"weights": None}, {"weights": "x"}),  # the folder is gone: keep its fingerprint
        ({}, {"weights": "y"}, {"weights": "y"}),  # a run from before: store it now
        ({"weights": None}, {"weights": "y"}, {"weights": "y"}),
        (
            {"bots": {"b": {"weights": "x", "t": 1}}},
            {"bots": {"b": {"weights": None, "t": 1}}},
            {"bots": {"b": {"weights": "x", "t": 1}}},
        ),  # fmt: skip
    ],
)
def test_kept_settings(old, new, kept) -> None:
    assert kept_settings(old, new) == kept
