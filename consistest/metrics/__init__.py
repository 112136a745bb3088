"""Layer 2: pure, versioned scoring functions (answer rules) and statistics over labels and scores.
Imports core and data."""
