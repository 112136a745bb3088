"""Load a detector folder, trained or a calibrated ``nli-pairs`` one, by the architecture it names."""

from __future__ import annotations

from pathlib import Path

from consistest.core.errors import InputError
from consistest.core.io import read_json
from consistest.tasks.cdconv.detector import DETECTOR_FILE, Detector, architecture_of
from consistest.tasks.cdconv.pairwise import ARCHITECTURE, PairwiseDetector


def load_detector(
    directory: str | Path, *, batch_size: int = 64, device: str = "cpu", nli: str | None = None
) -> Detector | PairwiseDetector:
    """A trained detector or a calibrated ``nli-pairs`` one, by the architecture its ``detector.json``
    names."""
    spec = Path(directory) / DETECTOR_FILE
    if not spec.is_file():
        raise InputError(
            f"not a trained detector (no {DETECTOR_FILE}); run consistest train-detector", path=str(directory)
        )
    if architecture_of(read_json(spec)) == ARCHITECTURE:
        return PairwiseDetector(directory, batch_size=batch_size, device=device, nli=nli)
    return Detector(directory, batch_size=batch_size, device=device)
