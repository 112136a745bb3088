"""Layer 2: the generic training parts: the seeded fine-tuning loop (``loop``), NLI files and fine-tuning
(``nli_data``, ``nli_train``), and the Dialogue-NLI pair builders from PersonaChat triples (``nli_pairs``,
``nli_sentences``, ``nli_relations``, ``nli_splits``, ``nli_synth``, ``nli_synth_words``) that the guard and
CDConv's detector data both use.
Task pipelines live with their task: ``tasks/guard`` (train-guard, nli-pairs, eval-nli) and ``tasks/cdconv``
(the detector and its data). Imports core and data, and uses models (the shared HF loader) and metrics
(evaluation) beside it."""
