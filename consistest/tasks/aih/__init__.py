"""AIH (Li et al., 2021, "Addressing Inquiries about History"): rank chatbots by how often they contradict
themselves in bot-bot conversations, asked about what they just said in side queries.

``converse`` runs the conversations, the inquirer and the judges into a run directory (resumable);
``rank`` turns a run into contradiction-rate matrices, a ranking with bootstrap intervals and paired
tests, ranking stability under subsampling, plots, and agreement with human labels.
"""

AIH_VERSION = 1  # bump when the conversation protocol, the files or a default changes a number
