"""Building and trusting the evaluation set: agreement, pools, reusability, judges.

An evaluation is only as good as its judgments. This package answers the
questions to ask of them:

* **Do assessors agree?** :func:`cohen_kappa` (two assessors, optionally
  weighted by how far apart the grades are), :func:`fleiss_kappa` (several),
  :func:`krippendorff_alpha` (several, with missing labels), and
  :func:`confusion_matrix`; :func:`ratings_table` lines up the qrels of several
  assessors.
* **Do two judgments rank the systems alike?** :func:`kendall_tau`,
  :func:`tau_ap` (swaps at the top cost more) on rankings of systems, and
  :func:`rbo` (rank-biased overlap) on ranked lists of documents.
* **What to judge, and can it be reused?** :func:`pool` (TREC's depth pool),
  :func:`pool_take_n` and :func:`pool_rrf` (fixed budgets), and
  :func:`leave_one_out` (Zobel's reusability test, one run or one team's runs left out).
* **Machine judges.** :func:`judge` asks any callable for grades, with a dry run
  that counts the cost, repeated samples and a majority vote, failures
  reported, and a cache file so that nothing is asked twice;
  :func:`holes` lists what a run ranks high and nobody judged;
  :func:`llm_judge` wraps any ``complete(prompt) -> answer`` (a language model)
  with UMBRELA's prompt; :class:`TermOverlapJudge` is a deterministic offline
  judge for teaching; :func:`compare_judgments` says whether a judge's
  judgments would pick the same system as the human ones.

Examples
--------
>>> from reteval.judging import cohen_kappa
>>> round(cohen_kappa({"q1": {"d1": 2, "d2": 0, "d3": 1}}, {"q1": {"d1": 2, "d2": 1, "d3": 1}}), 4)
0.5
"""

from reteval.judging._agreement import (
    cohen_kappa,
    confusion_matrix,
    fleiss_kappa,
    krippendorff_alpha,
    ratings_table,
)
from reteval.judging._cache import JudgmentCache
from reteval.judging._holes import holes
from reteval.judging._judges import (
    JudgeError,
    JudgeWarning,
    JudgmentComparison,
    Judgments,
    TermOverlapJudge,
    compare_judgments,
    judge,
)
from reteval.judging._llm import (
    UMBRELA_PROMPT,
    UMBRELA_PROMPT_ZH,
    PromptJudge,
    llm_judge,
    parse_final_score,
)
from reteval.judging._pools import LeaveOneOut, leave_one_out, pool, pool_rrf, pool_take_n
from reteval.judging._rankings import kendall_tau, rbo, tau_ap

__all__ = [
    "UMBRELA_PROMPT",
    "UMBRELA_PROMPT_ZH",
    "JudgeError",
    "JudgeWarning",
    "JudgmentCache",
    "JudgmentComparison",
    "Judgments",
    "LeaveOneOut",
    "PromptJudge",
    "TermOverlapJudge",
    "cohen_kappa",
    "compare_judgments",
    "confusion_matrix",
    "fleiss_kappa",
    "holes",
    "judge",
    "kendall_tau",
    "krippendorff_alpha",
    "leave_one_out",
    "llm_judge",
    "parse_final_score",
    "pool",
    "pool_rrf",
    "pool_take_n",
    "ratings_table",
    "rbo",
    "tau_ap",
]
