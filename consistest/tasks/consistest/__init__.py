"""ConsisTest (Lotfi et al., 2022): build the benchmark, run a chat model over it, score and compare runs."""
