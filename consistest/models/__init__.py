"""Layer 2: things that produce text or labels and know no benchmark: chat models (a registry of backends
keyed by spec prefix), decoding settings, NLI, question generators, the resumable runner, the HF loader.
Imports core and data."""
