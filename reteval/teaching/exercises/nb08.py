"""Exercises of notebook 08 (interleaving): team-draft credit, the preference, what it says.

* ``08.1`` (code): ``team_draft_winner(docs, teams, clicked)``, the outcome of one
  team-draft impression, run on hidden lists and clicks.
* ``08.2`` (computed): the preference statistic from counts of wins, losses, ties
  and impressions without clicks: a number (3 decimals are enough).
* ``08.3`` (computed): the chance that A wins an impression with one click when both
  rankers return the same list: a number.
* ``08.4`` (choice): what an interleaving preference says about click-through: a letter.
"""

from __future__ import annotations

import numpy as np

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, letters

__all__ = ["EXERCISES"]

OUTCOMES = ("A", "B", "tie", "none")


def _hidden_impressions():
    """(kind, docs, teams, clicked) of team-draft impressions, each kind of outcome included."""
    from reteval.ab.interleaving import team_draft

    gen = np.random.default_rng(808)
    cases = []
    for i in range(60):
        pool = [f"d{j}" for j in range(12)]
        a = list(gen.permutation(pool)[:8])
        b = list(gen.permutation(pool)[:8])
        shown = team_draft(a, b, rng=gen, length=int(gen.integers(3, 9)))
        docs, teams = list(shown.docs), list(shown.teams)
        on_a = [d for d, t in zip(docs, teams, strict=True) if t == "A"]
        on_b = [d for d, t in zip(docs, teams, strict=True) if t == "B"]
        kind = ("none", "tie", "one", "several")[i % 4]
        if kind == "none":
            clicked = []
        elif kind == "tie":
            k = int(gen.integers(1, min(len(on_a), len(on_b)) + 1))
            clicked = list(gen.permutation(on_a)[:k]) + list(gen.permutation(on_b)[:k])
        elif kind == "one":
            clicked = [docs[int(gen.integers(len(docs)))]]
        else:
            k = int(gen.integers(2, len(docs) + 1))
            clicked = list(gen.permutation(docs)[:k])
        clicked = [str(d) for d in gen.permutation(clicked)]  # in any order, as clicks come
        cases.append((kind, docs, teams, clicked))
    return cases


def _team_draft_winner(answer) -> bool:
    from reteval.ab.interleaving import Interleaving, credit

    if not callable(answer):
        raise TypeError("a function is expected")
    for kind, docs, teams, clicked in _hidden_impressions():
        shown = Interleaving(tuple(docs), tuple(teams), "team_draft", tuple(docs), tuple(docs))
        expected = credit(shown, clicked).winner
        try:
            got = answer(list(docs), list(teams), list(clicked))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"你的函数在隐藏的展示上出错：{type(error).__name__}。",
                              f"Your function raised {type(error).__name__} on the hidden "
                              f"impressions.") from error
        if got not in OUTCOMES:
            raise WrongAnswer("函数应当返回 \"A\"、\"B\"、\"tie\" 或 \"none\" 之一。",
                              "The function must return one of \"A\", \"B\", \"tie\" and "
                              "\"none\".")
        if got == expected:
            continue
        if kind == "none":
            raise WrongAnswer("没有任何点击的展示，结果不对。",
                              "An impression without any click gets the wrong outcome.")
        if kind == "tie":
            raise WrongAnswer("两队得到同样多（不为零）点击的展示，结果不对。",
                              "An impression where both teams get as many clicks (not zero) "
                              "gets the wrong outcome.")
        raise WrongAnswer("有的展示胜负判错了：点击应当记给贡献该文档的队伍。",
                          "Some impressions get the wrong winner: a click counts for the team "
                          "that contributed the clicked document.")
    return True


def _preference(answer) -> bool:
    wins, losses, ties = 430, 370, 100  # and 300 impressions without clicks
    return close_to(answer, (wins + ties / 2) / (wins + losses + ties) - 0.5, decimals=3)


def _same_lists(answer) -> bool:
    return close_to(answer, 0.5, decimals=1)


def _preference_is_not_ctr(answer) -> bool:
    return letters(answer) == {"B"}


EXERCISES = {
    "08.1": Exercise(
        _team_draft_winner,
        hints_zh=(
            ("写一个函数 team_draft_winner(docs, teams, clicked)：docs 是交错列表，"
             "teams 是每个位置的队伍（\"A\" 或 \"B\"），clicked 是被点击的文档；"
             "返回 \"A\"、\"B\"、\"tie\" 或 \"none\"。"),
            ("先查出每个被点击文档的队伍（例如用 dict(zip(docs, teams))），"
             "再分别数 A 队和 B 队得到的点击数。"),
            ("点击多的一方胜；两队一样多时要分两种情况：都是 0 说明没有点击，不计入（\"none\"），"
             "都大于 0 才是平局（\"tie\"）。"),
        ),
        hints_en=(
            ("Write a function team_draft_winner(docs, teams, clicked): docs is the interleaved "
             "list, teams the team at each position (\"A\" or \"B\"), clicked the clicked "
             "documents; return \"A\", \"B\", \"tie\" or \"none\"."),
            ("Look up the team of each clicked document (dict(zip(docs, teams)), say), then count "
             "the clicks of team A and of team B."),
            ("The team with more clicks wins; when both have as many, two cases: both 0 means no "
             "click, which is not counted (\"none\"); both above 0 is a tie (\"tie\")."),
        ),
        code=True,
    ),
    "08.2": Exercise(
        _preference,
        hints_zh=(
            "答案是一个数（保留 3 位小数即可）。公式中的 n 包括哪些展示？",
            "没有点击的展示既不算胜也不算负，不计入 n；平局计入 n。",
            "n = 胜 + 负 + 平；每个平局算半次胜利，Δ = (胜 + 平/2) / n − 0.5。",
        ),
        hints_en=(
            ("The answer is a number (3 decimals are enough). Which impressions does the n of "
             "the formula count?"),
            ("Impressions without clicks are neither wins nor losses and are not in n; ties are "
             "in n."),
            "n = wins + losses + ties; a tie counts as half a win: Δ = (wins + ties/2) / n - 0.5.",
        ),
    ),
    "08.3": Exercise(
        _same_lists,
        hints_zh=(
            "答案是一个数（概率）。两个列表相同时，每个位置上的文档归哪个队伍由什么决定？",
            ("每一轮先选的一方拿走两个列表共同的下一个文档，另一方拿走再下一个；"
             "谁先选由抛硬币决定。"),
            "所以被点击的那个位置归 A 还是归 B，和排序器的好坏无关，只取决于一枚公平的硬币。",
        ),
        hints_en=(
            ("The answer is a number (a probability). When the two lists are the same, what "
             "decides which team the document at a position joins?"),
            ("In each round the ranker that picks first takes the next document of the common "
             "list and the other takes the one after; a coin decides who picks first."),
            ("So whether the clicked position belongs to A or to B has nothing to do with the "
             "rankers' quality: only a fair coin decides it."),
        ),
    ),
    "08.4": Exercise(
        _preference_is_not_ctr,
        hints_zh=(
            "答案是一个字母。Δ 是什么量的差？",
            "Δ 是 A 胜的展示比例（平局算一半）减去 0.5，单位是“展示的比例”，不是点击率。",
            ("交错实验只比较同一次展示里两个排序器谁得到更多点击；上线后点击率变多少，"
             "要让两组用户分别使用两个排序器来测。"),
        ),
        hints_en=(
            "The answer is one letter. A difference of what is Δ?",
            ("Δ is the share of impressions A wins (a tie counting half) minus 0.5: a share of "
             "impressions, not a click-through rate."),
            ("Interleaving only compares which ranker gets more clicks within one impression; by "
             "how much click-through changes after a launch takes two groups of users, each "
             "using one ranker."),
        ),
    ),
}
