"""Layer 2: English language tools that know no benchmark: sentence and clause splitting, spaCy parsing into
plain tuples, polarity and person swaps, and the versioned Y/N and WH question templates (shared by the
ConsisTest question builders and the AIH inquirer). Imports core and data."""
