"""Layer 2: training data (NLI pairs from triples) and fine-tuning. Imports core, data and metrics."""
