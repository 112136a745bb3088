"""The NLI guard as a task: its training pairs and probe sets (``consistest nli-pairs``), its whole training
recipe (``consistest train-guard``) and its evaluation (``consistest eval-nli``). The generic fine-tuning
loop, NLI files and the pair builders from Dialogue-NLI triples (which CDConv's detector data uses too)
stay in ``consistest.training``."""
