"""Layer 2: training data (NLI pairs from triples) and fine-tuning. Imports core and data, and uses
models (the shared HF loader) and metrics (evaluation) beside it."""
