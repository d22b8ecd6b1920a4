"""Exercises of notebook 04 (building and trusting the evaluation set).

Each checker recomputes the right answer from the exercise's data with
:mod:`reteval.judging`, so the exercise text and its check cannot drift apart.
Worked solutions: ``notebooks/solutions/04_solutions.ipynb``.

* ``04.1`` (kappa by hand): Cohen's kappa between :data:`ASSESSOR_A` and
  :data:`ASSESSOR_B`, a number.
* ``04.2`` (where a swap happens): ``(tau_AP of TOP_SWAP, tau_AP of BOTTOM_SWAP)``
  against :data:`TRUTH`, a pair of numbers (Kendall's tau is the same for both).
* ``04.3`` (pooling): how many (query, document) pairs the depth-3 pool of
  :data:`POOL_RUNS` sends to the assessors, a number.
* ``04.4`` (reusability): P@3 of run ``"c"`` of :data:`POOL_RUNS` when it is
  left out of the depth-3 pool, judged by :data:`POOL_QRELS` (unjudged = not
  relevant), a number.
* ``04.5`` (code): ``kappa(a, b)``, plain Cohen's kappa of two lists of grades,
  run on hidden judgments against :func:`reteval.judging.cohen_kappa`.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, number, whole_number

__all__ = [
    "ASSESSOR_A",
    "ASSESSOR_B",
    "BOTTOM_SWAP",
    "EXERCISES",
    "POOL_QRELS",
    "POOL_RUNS",
    "TOP_SWAP",
    "TRUTH",
]

#: 04.1: two assessors' binary labels of the same ten documents.
ASSESSOR_A = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
ASSESSOR_B = [1, 1, 1, 1, 0, 1, 1, 0, 0, 0]

#: 04.2: a ranking of five systems (system -> score) and two rankings with one swap each.
TRUTH = {"s1": 0.50, "s2": 0.45, "s3": 0.40, "s4": 0.35, "s5": 0.30}
TOP_SWAP = {"s2": 0.50, "s1": 0.45, "s3": 0.40, "s4": 0.35, "s5": 0.30}
BOTTOM_SWAP = {"s1": 0.50, "s2": 0.45, "s3": 0.40, "s5": 0.35, "s4": 0.30}

#: 04.3 and 04.4: three runs of one query (best first) and the complete judgments.
POOL_RUNS = {
    "a": {"q1": ["d1", "d2", "d3", "d4"]},
    "b": {"q1": ["d2", "d5", "d1", "d6"]},
    "c": {"q1": ["d7", "d8", "d2", "d1"]},
}
POOL_QRELS = {"q1": {"d1": 1, "d2": 1, "d3": 0, "d5": 0, "d6": 1, "d7": 1, "d8": 0}}

# 04.5: the hidden judgments (two assessors' grades, what the case is about).
_KAPPA_CASES = [
    ([1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 1], [1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1],
     "二元判断", "binary grades"),
    ([0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 2, 0], [0, 0, 0, 1, 0, 1, 1, 2, 3, 2, 2, 0],
     "0–3 的分级判断", "grades 0–3"),
    ([0, 0, 1, 1, 2, 0, 1, 0], [0, 0, 1, 3, 2, 0, 1, 0],
     "一个等级只有一位评估员用过", "a grade only one assessor used"),
    ([2, 0, 1, 2, 0, 1], [2, 0, 1, 2, 0, 1],
     "完全一致（应得 1）", "perfect agreement (kappa is 1)"),
    ([1, 0, 1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1, 1, 0],
     "比偶然还差的一致（kappa 为负）", "agreement worse than chance (a negative kappa)"),
    ([0] * 40 + [1] * 6 + [2] * 3 + [3], [0] * 37 + [1] * 3 + [1] * 4 + [0] * 2 + [2] * 3 + [3],
     "大多数文档不相关", "most documents not relevant"),
]



def _close(answer, expected: float) -> bool:
    return close_to(answer, expected, decimals=2)


def _check_1(answer) -> bool:
    from reteval.judging import cohen_kappa

    return _close(answer, cohen_kappa(ASSESSOR_A, ASSESSOR_B))


def _check_2(answer) -> bool:
    from reteval.judging import tau_ap

    if isinstance(answer, (str, bytes)):
        raise TypeError("a pair of numbers is expected")
    top, bottom = list(answer)
    truth = pd.Series(TRUTH)
    return (_close(top, tau_ap(truth, pd.Series(TOP_SWAP)))
            and _close(bottom, tau_ap(truth, pd.Series(BOTTOM_SWAP))))


def _check_3(answer) -> bool:
    from reteval.judging import pool

    return whole_number(answer, len(pool(POOL_RUNS, depth=3)))


def _check_4(answer) -> bool:
    from reteval.judging import leave_one_out

    result = leave_one_out(POOL_QRELS, POOL_RUNS, measure="P@3", depth=3)
    return _close(answer, result.table.loc["c", "left_out"])


def _kappa_function(answer) -> bool:
    from reteval.judging import cohen_kappa

    if not callable(answer):
        raise TypeError("a function is expected")
    for a, b, zh, en in _KAPPA_CASES:
        try:
            got = number(answer(list(a), list(b)))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"在“{zh}”这组判断上，你的函数出错：{type(error).__name__}。",
                              f"On the hidden case \"{en}\" your function raised "
                              f"{type(error).__name__}.") from error
        if abs(got - cohen_kappa(a, b)) > 1e-9:
            raise WrongAnswer(f"在“{zh}”这组判断上，结果不对。",
                              f"On the hidden case \"{en}\" the result is wrong.")
    return True


EXERCISES = {
    "04.1": Exercise(
        _check_1,
        hints_zh=(
            "答案是一个数。kappa 比较的是观测到的一致与偶然会有的一致。",
            ("先数两位评估员一致的比例 p_o，再用各自给 1 和 0 的比例算偶然一致 "
            "p_e = p_A(1)·p_B(1) + p_A(0)·p_B(0)。"),
            "kappa = (p_o − p_e) / (1 − p_e)。",
        ),
        hints_en=(
            ("The answer is a number. Kappa compares the agreement observed with the agreement "
            "chance would give."),
            ("Count the share of items where they agree (p_o); chance agreement is "
            "p_e = p_A(1)·p_B(1) + p_A(0)·p_B(0)."),
            "kappa = (p_o − p_e) / (1 − p_e).",
        ),
    ),
    "04.2": Exercise(
        _check_2,
        hints_zh=(
            "答案是一对数：(顶部交换的 tau_AP, 底部交换的 tau_AP)。",
            ("按被检验的排序从上往下，对第 i 个系统（i ≥ 2）数它上面的系统中"
            "有几个在 TRUTH 里也排在它上面，记为 C(i)。"),
            "tau_AP = 2/(N−1) · Σ C(i)/(i−1) − 1：靠前的位置权重更大。",
        ),
        hints_en=(
            "The answer is a pair: (tau_AP of the top swap, tau_AP of the bottom swap).",
            ("Go down the ranking under test: for the i-th system (i ≥ 2) count C(i), "
            "the systems above it that TRUTH also puts above it."),
            "tau_AP = 2/(N−1) · Σ C(i)/(i−1) − 1: the top positions weigh more.",
        ),
    ),
    "04.3": Exercise(
        _check_3,
        hints_zh=(
            "答案是一个整数：送去判断的（查询, 文档）对的个数。",
            "取每个运行的前 3 个文档，合并后去掉重复，数剩下多少个。",
        ),
        hints_en=(
            "The answer is a whole number: the (query, document) pairs sent to the assessors.",
            "Take each run's top 3 documents, merge them, drop repeats, and count.",
        ),
    ),
    "04.4": Exercise(
        _check_4,
        hints_zh=(
            "答案是一个数。c 不参与建池时，哪些文档会被判断？",
            "只用 a 和 b 的前 3 个文档组成的池：池外的判断都当作不存在（不相关）。",
            "再看 c 的前 3 个文档里有几个既在池里又相关，除以 3。",
        ),
        hints_en=(
            "The answer is a number. With c left out of the pool, which documents get judged?",
            ("Pool only a's and b's top 3; judgments outside that pool are dropped (unjudged "
            "counts as not relevant)."),
            "Then count c's top 3 documents that are in the pool and relevant, and divide by 3.",
        ),
    ),
    "04.5": Exercise(
        _kappa_function,
        hints_zh=(
            ("写一个函数 kappa(a, b)，返回一个数。先算 p_o：两人给出相同等级的文档占多少。"),
            ("p_e 是偶然一致：对两人用过的每个等级 g，把 A 给 g 的比例乘以 B 给 g 的比例，"
             "再把这些乘积加起来。"),
            ("用 collections.Counter(a) 和 Counter(b) 数每个等级的次数，除以文档数得到比例；"
             "最后 (p_o − p_e) / (1 − p_e)。"),
        ),
        hints_en=(
            ("Write a function kappa(a, b) that returns a number. Start with p_o: the share of "
             "documents given the same grade by both."),
            ("p_e is chance agreement: for every grade g either assessor used, multiply the share "
             "of A's grades that are g by the share of B's grades that are g, and add these up."),
            ("Count each grade with collections.Counter(a) and Counter(b), divide by the number "
             "of documents for the shares; then (p_o − p_e) / (1 − p_e)."),
        ),
        code=True,
    ),
}
