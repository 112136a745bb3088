"""Layer 1: readers of dialogue and QA files, downloads, built dataset directories. Imports only core."""
