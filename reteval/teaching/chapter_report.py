# ruff: noqa: I001, RUF013  (the chapter's code, kept as written)
"""The chapter's ``generate_evaluation_report``, kept unchanged for teaching.

The function below is the chapter's code as written (section 评估报告). It
turns the dict that the chapter's ``compare_retrievers`` returns
(``{system: {measure: mean}}``) into Markdown: the table of means, the best
system per measure by ``idxmax``, and a recommendation, "综合表现最佳", the
system with the highest mean of all its means. What it gets wrong, and what
:mod:`reteval.report` does instead:

* **The mean of means is not a conclusion.** It averages a precision, a
  recall, an nDCG and a reciprocal rank, each at several cutoffs, as if they
  were one scale; the winner depends on which measures and cutoffs happen to
  be in the table (drop ``recall@1`` or add ``recall@100`` and it can change),
  and a lead of 0.002 is declared as firmly as a lead of 0.2. Nothing says how
  many queries there were or whether any difference is larger than chance.
  reteval's report names no overall winner by averaging: per measure, it says
  whether the best system is significantly better than the runner-up.
* **Ties are broken by position.** ``idxmax`` returns the *first* row with the
  maximum, so when two systems have exactly the same mean the one listed
  first (the order the dict was built in) is called best. reteval's report
  says "tie".
* **Only means**: no confidence interval, no significance test, no number of
  queries.
* ``open(output_path, 'w')`` has no ``encoding``: where the locale's encoding
  is not UTF-8 (Windows with a Chinese or English code page), writing the
  Chinese report fails or garbles it. ``DataFrame.to_markdown`` also needs the
  ``tabulate`` package.

:func:`chapter_results` builds the function's input from runs with
:func:`reteval.evaluate`: the dict the chapter's ``compare_retrievers``
returns, under the chapter's keys.

Examples
--------
>>> results = {"a": {"recall@5": 0.50, "mrr": 0.90}, "b": {"recall@5": 0.50, "mrr": 0.91}}
>>> report = generate_evaluation_report(results)
>>> [line for line in report.splitlines() if line.startswith("- **recall@5**")]
['- **recall@5**: a (0.5000)']
>>> report.strip().splitlines()[-1]
'综合表现最佳的是 **b** 检索器。'
"""

import pandas as pd
from typing import Dict

__all__ = ["chapter_results", "generate_evaluation_report"]

_CHAPTER_KEYS = (("recall", "R"), ("precision", "P"), ("ndcg", "nDCG"))


def chapter_results(qrels, runs, *, k_values=(1, 3, 5, 10)) -> dict:
    """The chapter's comparison results ``{system: {"recall@1": mean, ...}}``, computed by reteval.

    The keys and their order are those of the chapter's
    ``RetrievalEvaluator.evaluate_retriever``: for each k ``recall@k``,
    ``precision@k``, ``ndcg@k``, then ``mrr``. The values are the means over
    queries of reteval's ``R@k``, ``P@k``, ``nDCG@k`` (trec_eval's linear gain)
    and ``RR``. Systems keep the order of ``runs``.

    Parameters
    ----------
    qrels : anything :func:`reteval.evaluate` accepts
    runs : dict
        System name -> run (anything :func:`reteval.evaluate` accepts).
    k_values : sequence of int, keyword-only

    Returns
    -------
    dict

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["x", "d2"]}}
    >>> chapter_results(qrels, runs, k_values=[1])
    {'a': {'recall@1': 0.5, 'precision@1': 0.5, 'ndcg@1': 0.5, 'mrr': 0.75}}
    """
    from reteval.errors import InputError
    from reteval.evaluation.engine import evaluate

    k_values = list(k_values)
    if not k_values or any(isinstance(k, bool) or not isinstance(k, int) or k < 1
                           for k in k_values):
        raise InputError(f"k_values must be positive integers; got {k_values!r}")
    names = {f"{ours}@{k}": f"{key}@{k}" for k in k_values for key, ours in _CHAPTER_KEYS}
    names["RR"] = "mrr"
    out = {}
    for system, run in runs.items():
        means = evaluate(qrels, run, list(names)).mean()
        out[system] = {key: float(means[ours]) for ours, key in names.items()}
    return out


def generate_evaluation_report(
    comparison_results: Dict[str, Dict],
    output_path: str = None
) -> str:
    """生成评估报告"""

    # 创建 DataFrame
    df = pd.DataFrame(comparison_results).T

    # 格式化
    report = "# 检索系统评估报告\n\n"
    report += "## 评估指标对比\n\n"
    report += df.to_markdown(floatfmt=".4f")

    # 找出最佳检索器
    report += "\n\n## 最佳检索器\n\n"
    for metric in df.columns:
        best = df[metric].idxmax()
        report += f"- **{metric}**: {best} ({df[metric][best]:.4f})\n"

    # 建议
    report += "\n\n## 建议\n\n"
    best_overall = df.mean(axis=1).idxmax()
    report += f"综合表现最佳的是 **{best_overall}** 检索器。\n"

    if output_path:
        with open(output_path, 'w') as f:
            f.write(report)

    return report
