"""The chapter's RAGAS example, kept unchanged for teaching.

The chapter evaluates retrieved contexts with the ``ragas`` package::

    results = evaluate(dataset, metrics=[context_recall, context_precision])

That code cannot run offline: ``ragas`` is an optional package, and both of
its measures ask a language model (by default one configured from an API key
in the environment) to judge every reference statement and every context.
So it is kept here as the chapter wrote it, inside
:func:`chapter_ragas_example`, whose body is the chapter's code line for line
(the imports run only when the function is called). A notebook shows its
source and runs the same data through :func:`reteval.rag.evaluate_contexts`
instead, which computes the same two measures with a judge you choose: the
offline :class:`reteval.rag.OverlapJudge` or an LLM through
:class:`reteval.rag.LLMJudge`.

What the chapter's code leaves out:

* the judge. ``evaluate`` silently uses whatever LLM ragas finds configured;
  the scores are that model's verdicts, and change with it;
* the column names. ragas 0.2 and newer call the columns ``user_input``,
  ``retrieved_contexts`` and ``reference``; ``ground_truth`` is the older
  name. :func:`reteval.rag.evaluate_with_ragas` converts them.

:data:`EVAL_DATA` is the chapter's data, the same dict that the function
builds.
"""

# ruff: noqa: I001  (the chapter's imports are kept in its order)
from __future__ import annotations

__all__ = ["EVAL_DATA", "chapter_ragas_example"]

#: The chapter's two samples (question, retrieved contexts, reference answer).
EVAL_DATA = {
    "question": ["Python是什么？", "机器学习是什么？"],
    "contexts": [
        ["Python是一种编程语言", "Python广泛用于数据科学"],
        ["机器学习是AI的分支", "深度学习使用神经网络"],
    ],
    "ground_truth": ["Python是一种编程语言", "机器学习是人工智能的分支"],
}


def chapter_ragas_example():
    """按原样运行本章的 RAGAS 代码（需要 ragas、datasets 和一个大语言模型）。"""
    from ragas import evaluate
    from ragas.metrics import context_recall, context_precision
    from datasets import Dataset

    # 准备评估数据
    eval_data = {
        'question': ['Python是什么？', '机器学习是什么？'],
        'contexts': [
            ['Python是一种编程语言', 'Python广泛用于数据科学'],
            ['机器学习是AI的分支', '深度学习使用神经网络']
        ],
        'ground_truth': ['Python是一种编程语言', '机器学习是人工智能的分支']
    }

    dataset = Dataset.from_dict(eval_data)

    # 评估
    results = evaluate(
        dataset,
        metrics=[context_recall, context_precision]
    )

    print(results)
