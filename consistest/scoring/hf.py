"""Shared plumbing of the Hugging Face adapters (generation backend, NLI guard); imports torch lazily."""

from __future__ import annotations

from consistest.errors import InputError


def resolve_device(device: str) -> str:
    """``auto`` -> cuda when available, else cpu; asking for cuda without one is an InputError."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise InputError("--device cuda was asked for but no CUDA device is available", field="device")
    return device


def quiet_transformers() -> None:
    """No transformers progress bars or warnings (the CLI's --quiet)."""
    from transformers.utils import logging

    logging.disable_progress_bar()
    logging.set_verbosity_error()
