"""Automatic ConsisTest question builders: persona / history facts -> Y/N and WH QAs (issue 5).

Entry points: :func:`consistest.tasks.consistest.qagen.pipeline.make_qas` and ``write_qas``.
"""

from __future__ import annotations

QAGEN_VERSION = "qagen-4"  # 3: alt_c for yes/no answers opened by any yes/no word; 4: more WH rules (wh_more)
