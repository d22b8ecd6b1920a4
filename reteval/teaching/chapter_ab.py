"""The chapter's ``ABTestFramework``, kept unchanged for teaching.

The class below is the chapter's online A/B test, as written. It is kept so
that a notebook can run it beside :mod:`reteval.ab` on the same log and show
where they agree and where they differ:

* **It resets the global random state.** ``assign_group`` calls
  ``random.seed(user_id)``: after it, every draw from the ``random`` module,
  anywhere in the process, repeats the sequence fixed by the last user id (a
  shuffle, a sampled query, a retry jitter). :func:`draws_after_assignment`
  shows it. ``random.seed`` of a string is *stable* across Python 3 versions and
  ``PYTHONHASHSEED`` (it hashes the string with SHA-512, not ``hash()``), so the
  assignment itself is reproducible; the flaw is the side effect.
  :func:`reteval.ab.bucket` hashes instead and draws nothing.
* **The experiment is not part of the key**: a user gets the same group in
  every experiment run with it, so two experiments' B groups are the same
  people. reteval's key is ``experiment + user``.
* ``log_interaction`` keeps the records in a list in memory (lost when the
  process stops; not shared between servers) and stamps them with the local
  ``datetime.now()``.
* ``analyze`` reports two rates and no uncertainty: no test, no interval, no
  sample-ratio check. Its rate is satisfied / all records, so a record without
  feedback counts as "not satisfied" unless the caller leaves it out.
  On the records that have feedback its rates equal reteval's
  ``satisfaction_rate`` (a ratio of sums over queries).
"""

import random
from datetime import datetime
from typing import Dict, List

__all__ = ["ABTestFramework", "draws_after_assignment"]


class ABTestFramework:
    def __init__(self):
        self.results = {'A': [], 'B': []}

    def assign_group(self, user_id: str) -> str:
        """分配用户到测试组"""
        random.seed(user_id)
        return 'A' if random.random() < 0.5 else 'B'

    def log_interaction(
        self,
        group: str,
        query: str,
        retrieved_docs: List,
        user_feedback: int  # 1=满意, 0=不满意
    ):
        """记录用户交互"""
        self.results[group].append({
            'timestamp': datetime.now(),
            'query': query,
            'retrieved_count': len(retrieved_docs),
            'feedback': user_feedback
        })

    def analyze(self) -> Dict:
        """分析 A/B 测试结果"""
        analysis = {}

        for group in ['A', 'B']:
            data = self.results[group]
            if not data:
                continue

            total = len(data)
            satisfied = sum(1 for d in data if d['feedback'] == 1)

            analysis[group] = {
                'total_queries': total,
                'satisfaction_rate': satisfied / total if total > 0 else 0,
                'avg_retrieved': sum(d['retrieved_count'] for d in data) / total
            }

        return analysis


def draws_after_assignment(user_id: str, n: int = 3) -> list[float]:
    """What ``random.random()`` returns in the rest of the program after ``assign_group(user_id)``.

    The global state of the ``random`` module is saved first and restored
    afterwards, so calling this function has no side effect itself.

    Parameters
    ----------
    user_id : str
        The user the chapter's framework just assigned.
    n : int, default 3
        How many draws to return.

    Returns
    -------
    list of float
        The same list every time for the same ``user_id``: the draws are no
        longer random.

    Examples
    --------
    >>> draws_after_assignment("user123") == draws_after_assignment("user123")
    True
    """
    saved = random.getstate()
    try:
        ABTestFramework().assign_group(user_id)
        return [random.random() for _ in range(n)]
    finally:
        random.setstate(saved)
