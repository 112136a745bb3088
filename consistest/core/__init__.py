"""Layer 0: records, errors, files, signature, statistics, logging. Imports nothing else from consistest."""
