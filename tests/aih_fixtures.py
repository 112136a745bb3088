"""Shared material of the AIH tests: hand-written personas and a rule-based NLI with probabilities."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

# Every fact states one value the inquirer can ask about and the persona bot can swap.
PERSONAS: tuple[tuple[str, ...], ...] = (
    ("i have 2 dogs .", "my name is Anna .", "i live in Paris .", "i am 33 years old ."),
    ("i have 3 cats .", "my name is John .", "i live in Boston .", "i am 41 years old ."),
    ("i have 4 kids .", "my name is Maria .", "i work at Google .", "i was born in 1990 ."),
    ("i have 5 sisters .", "my name is Tom .", "i live in Texas .", "i am 52 years old ."),
    ("i have 6 horses .", "my name is Lucy .", "i live in Chicago .", "i am 25 years old ."),
)


def write_personas(path: Path) -> Path:
    """A ConsisTest-layout dialogue file holding PERSONAS (first user utterances for --opener dialogues)."""
    data = {f"d{k}": {"persona": list(p), "utterances": [f"hi ! how are you {k} ?", "good ."]}
            for k, p in enumerate(PERSONAS)}  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class OverlapNLI:
    """A stand-in NLI: the hypothesis contradicts the premise when it holds a word the premise lacks."""

    name = "overlap-nli"
    signature = "overlap-nli[c,n,e]"

    @staticmethod
    def _words(text: str) -> set[str]:
        return set(re.findall(r"\w+", text.lower()))

    def predict_proba(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]]:
        out = []
        for premise, hypothesis in pairs:
            new = self._words(hypothesis) - self._words(premise)
            c = 0.8 if new else 0.05
            out.append({"contradiction": c, "neutral": 0.1, "entailment": 0.9 - c})
        return out

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        return [max(p, key=p.__getitem__) for p in self.predict_proba(pairs)]
