"""Question templates over a parse: first-person statement -> (second-person question, answer)."""
