"""Exercises of notebook 02 (a cheating leaderboard).

Each checker recomputes the right answer from the exercise's data with the
library (or the chapter's own function), so the exercise text and its check
cannot drift apart. Worked solutions: ``notebooks/solutions/02_solutions.ipynb``.

* ``02.1`` (stopping early): ``(m, AP)``: the fewest documents of
  :data:`STOP_RANKING` that maximise the chapter's ``average_precision`` against
  :data:`STOP_RELEVANT`, and trec_eval's AP of that cut list.
* ``02.2`` (code): ``duplicate_ranks(ranking)``, the ranks (from 1) of the first
  document found listed a second time, going down the list, or ``None``; run on
  hidden cases.
* ``02.3`` (padding by chance): the expected gain in P@10 when the list of
  :data:`PAD_QUERY` is filled up to 10 with random documents, a number.
* ``02.4`` (a tie band): ``(worst, trec_eval, best)``, the AP of :data:`TIE_RUN`
  against :data:`TIE_QRELS` under the least favourable order of its ties,
  trec_eval's order and the most favourable one.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, number

__all__ = [
    "EXERCISES",
    "PAD_QUERY",
    "STOP_RANKING",
    "STOP_RELEVANT",
    "TIE_QRELS",
    "TIE_RUN",
]

#: 02.1: an honest ranked list and the query's relevant documents (d4 and d9 never retrieved).
STOP_RANKING = ["d8", "d3", "d7", "d6", "d5", "d1"]
STOP_RELEVANT = ["d1", "d3", "d4", "d9"]

#: 02.3: one query's list before padding (4 documents, 1 of them relevant), its relevant
#: documents (7, all in the collection) and the collection's size.
PAD_QUERY = {"listed": 4, "listed_relevant": 1, "relevant": 7, "collection": 204, "k": 10}

#: 02.4: one query: three documents tie at 0.5; d6 is relevant and never retrieved.
TIE_RUN = {"q": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.5, "d5": 0.1}}
TIE_QRELS = {"q": {"d1": 1, "d2": 0, "d3": 1, "d4": 0, "d5": 1, "d6": 1}}

# 02.2: the hidden cases (ranked list, what the case is about).
_DUPLICATE_CASES = [
    (["a", "b", "c"], "没有重复的列表", "a list without repeats"),
    (["a", "a", "b"], "紧跟在原文档后面的副本", "a copy right after its original"),
    (["a", "b", "c", "b"], "隔了几位的副本", "a copy further down"),
    (["a", "b", "b", "a"], "两个文档都重复了", "two documents repeated"),
    ([], "空列表", "an empty list"),
    (["D1", "d1"], "只有大小写不同的编号（是两个文档）",
     "ids that differ in case only (two documents)"),
    ([f"d{i}" for i in range(1000)] + ["d500"], "一个很长的列表", "a long list"),
]


def _duplicate_ranks(ranking):
    seen = {}
    for rank, doc in enumerate(ranking, 1):
        if doc in seen:
            return seen[doc], rank
        seen[doc] = rank
    return None


def _trec_ap(ranking, relevant) -> float:
    import reteval

    run = pd.DataFrame({"query_id": "q", "doc_id": list(ranking),
                        "score": [float(len(ranking) - i) for i in range(len(ranking))]})
    return float(reteval.evaluate({"q": {d: 1 for d in relevant}}, run, ["AP"])["AP"].iloc[0])


def _pair(answer, size):
    if isinstance(answer, (str, bytes)):
        raise TypeError(f"{size} numbers are expected")
    values = list(answer)
    if len(values) != size:
        raise TypeError(f"{size} numbers are expected")
    return values


def _check_02_1(answer) -> bool:
    from reteval.teaching.chapter_metrics import average_precision

    m, ap = _pair(answer, 2)
    chapter = [float(average_precision(STOP_RANKING[:cut], STOP_RELEVANT))
               for cut in range(1, len(STOP_RANKING) + 1)]
    best = chapter.index(max(chapter)) + 1  # the fewest documents with the highest value
    if number(m) != best:
        return False
    return close_to(ap, _trec_ap(STOP_RANKING[:best], STOP_RELEVANT), decimals=2)


def _check_02_2(answer) -> bool:
    if not callable(answer):
        raise TypeError("a function is expected")
    for ranking, zh, en in _DUPLICATE_CASES:
        try:
            got = answer(list(ranking))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"在一个隐藏的测试用例上（{zh}），你的函数出错："
                              f"{type(error).__name__}。",
                              f"On a hidden case ({en}) your function raised "
                              f"{type(error).__name__}.") from error
        expected = _duplicate_ranks(ranking)
        same = got is None if expected is None else (
            got is not None and not isinstance(got, (str, bytes))
            and [number(x) for x in got] == list(expected))
        if not same:
            raise WrongAnswer(f"在一个隐藏的测试用例上（{zh}），结果不对。",
                              f"On a hidden case ({en}) the result is wrong.")
    return True


def _pad_expectation() -> float:
    from reteval.teaching.cheats import expected_padding_gain

    q = PAD_QUERY
    doc_ids = [f"d{i:03d}" for i in range(q["collection"])]
    relevant = doc_ids[:q["relevant"]]
    listed = relevant[:q["listed_relevant"]] + doc_ids[-(q["listed"] - q["listed_relevant"]):]
    gain = expected_padding_gain({"q": {d: 1 for d in relevant}}, {"q": listed}, doc_ids, q["k"])
    return float(gain.loc["q", f"P@{q['k']}"])


def _check_02_3(answer) -> bool:
    return close_to(answer, _pad_expectation(), decimals=4)


def _check_02_4(answer) -> bool:
    from reteval.evaluation import tie_bounds

    worst, value, best = _pair(answer, 3)
    bounds = tie_bounds(TIE_QRELS, TIE_RUN, ["AP"])
    return all(close_to(given, float(frame.loc["q", "AP"]), decimals=2)
               for given, frame in ((worst, bounds.worst), (value, bounds.value),
                                    (best, bounds.best)))


EXERCISES = {
    "02.1": Exercise(
        _check_02_1,
        hints_zh=(
            ("答案是一对数：(m, AP)。对 m = 1, 2, …, 6，把列表截成前 m 个，用本章的 "
            "average_precision 算一遍。"),
            ("本章的 AP 只在检索到的相关文档上取平均：截断后还剩几个相关文档，它们各自位置上的"
            "精确率是多少？取最高值对应的最小 m。"),
            ("得到 m 之后，trec_eval 的 AP 仍然是这些精确率之和除以全部 4 个相关文档"
            "（包括从未被检索到的两个）。"),
        ),
        hints_en=(
            ("The answer is a pair: (m, AP). For m = 1, 2, ..., 6, cut the list to its first m "
            "documents and compute the chapter's average_precision."),
            ("The chapter's AP averages over the relevant documents retrieved only: after the "
            "cut, which relevant documents are left, and what is the precision at each? Take the "
            "smallest m with the highest value."),
            ("With that m, trec_eval's AP is still the sum of those precisions divided by all 4 "
            "relevant documents (the two never retrieved included)."),
        ),
    ),
    "02.2": Exercise(
        _check_02_2,
        hints_zh=(
            ("写一个函数 duplicate_ranks(ranking)：从上往下读列表，第一次遇到已经出现过的文档时，"
            "返回 (它第一次出现的名次, 这一次的名次)，名次从 1 数起；没有重复时返回 None。"),
            "用一个字典记下每个文档第一次出现的名次：enumerate(ranking, 1) 给出名次。",
            ("文档编号按字符串原样比较（\"D1\" 和 \"d1\" 是两个文档）；空列表没有重复。"
            "找到第一个重复就立即返回，不要继续往下找。"),
        ),
        hints_en=(
            ("Write a function duplicate_ranks(ranking): read the list from the top; at the first "
            "document seen before, return (the rank where it first appeared, this rank), ranks "
            "counted from 1; return None when nothing repeats."),
            ("Keep a dict of the rank where each document first appeared: enumerate(ranking, 1) "
            "gives the ranks."),
            ("Compare doc ids as the strings they are (\"D1\" and \"d1\" are two documents); an "
            "empty list has no repeat. Return at the first repeat found, do not read on."),
        ),
        code=True,
    ),
    "02.3": Exercise(
        _check_02_3,
        hints_zh=(
            "答案是一个数：P@10 的期望增益。先算要补几个文档，以及可以从多少个文档里抽。",
            ("补 10 − 4 = 6 个文档，从列表之外的 204 − 4 = 200 个文档里不放回地随机抽取；"
            "列表之外还有几个相关文档？"),
            ("抽到的相关文档数的期望 = 抽取个数 × 列表外相关文档数 ÷ 列表外文档数；"
            "P@10 的增益是它再除以 10。"),
        ),
        hints_en=(
            ("The answer is one number: the expected gain in P@10. First count the documents to "
            "add, and how many documents they are drawn from."),
            ("6 documents (10 - 4) are drawn without replacement from the 200 (204 - 4) outside "
            "the list; how many relevant documents are outside the list?"),
            ("Expected relevant documents drawn = draws × relevant outside the list ÷ documents "
            "outside the list; the gain in P@10 is that divided by 10."),
        ),
    ),
    "02.4": Exercise(
        _check_02_4,
        hints_zh=(
            ("答案是三个数：(最差, trec_eval, 最好)。d2、d3、d4 同为 0.5 分，只有它们三个的顺序"
            "会变；d1 始终第 1，d5 始终第 5。"),
            ("最好：相关的 d3 排在三者最前（第 2 位）；最差：排在三者最后（第 4 位）；trec_eval 按"
            "文档编号降序排列同分文档。"),
            ("每种顺序下，AP = 各相关文档位置上的精确率之和 ÷ 全部 4 个相关文档"
            "（d6 从未被检索到）。"),
        ),
        hints_en=(
            ("The answer is three numbers: (worst, trec_eval, best). d2, d3 and d4 all score 0.5: "
            "only their order changes; d1 is always first and d5 always fifth."),
            ("Best: the relevant d3 comes first of the three (rank 2); worst: last of the three "
            "(rank 4); trec_eval orders equal scores by doc id, descending."),
            ("In each order, AP = the sum of the precision at each relevant document's rank ÷ all "
            "4 relevant documents (d6 is never retrieved)."),
        ),
    ),
}
