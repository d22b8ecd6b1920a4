"""Exercises of notebook 08 (interleaving): team-draft credit, the preference, what it says.

* ``08.1`` (code): ``team_draft_winner(docs, teams, clicked)``, the outcome of one
  team-draft impression, run on hidden lists and clicks.
* ``08.2`` (computed): the preference statistic from counts of wins, losses, ties
  and impressions without clicks: a number (3 decimals are enough).
* ``08.3`` (computed): the chance that A wins an impression with clicks at the ranks
  :data:`SAME_LIST_CLICKS` when both rankers return the same list: a number.
* ``08.4`` (choice): what an interleaving preference says about click-through: a letter.
"""

from __future__ import annotations

import numpy as np

from reteval.teaching.exercises import Exercise, WrongAnswer, WrongType, close_to, letters

__all__ = ["EXERCISES", "SAME_LIST_CLICKS"]

#: 08.3: the ranks (from 1) a user clicks in a team-draft list of two identical rankings.
SAME_LIST_CLICKS = (2, 3)

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
        raise WrongType("function", answer)
    for kind, docs, teams, clicked in _hidden_impressions():
        shown = Interleaving(tuple(docs), tuple(teams), "team_draft", tuple(docs), tuple(docs))
        expected = credit(shown, clicked).winner
        try:
            got = answer(list(docs), list(teams), list(clicked))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", error=type(error).__name__) from error
        if got not in OUTCOMES:
            raise WrongAnswer("not_an_outcome")
        if got == expected:
            continue
        if kind == "none":
            raise WrongAnswer("no_click")
        if kind == "tie":
            raise WrongAnswer("tie")
        raise WrongAnswer("wrong_winner")
    return True


def _preference(answer) -> bool:
    wins, losses, ties = 430, 370, 100  # and 300 impressions without clicks
    return close_to(answer, (wins + ties / 2) / (wins + losses + ties) - 0.5, decimals=3)


def _same_lists(answer) -> bool:
    from reteval.ab.interleaving import all_team_drafts, credit

    same = [f"d{i}" for i in range(1, 9)]
    clicked = [same[rank - 1] for rank in SAME_LIST_CLICKS]
    drafts = all_team_drafts(same, same)  # every coin sequence, all equally likely
    wins = sum(credit(draft, clicked).winner == "A" for draft in drafts)
    return close_to(answer, wins / len(drafts), decimals=2)


def _preference_is_not_ctr(answer) -> bool:
    return letters(answer) == {"B"}


EXERCISES = {
    "08.1": Exercise(_team_draft_winner, code=True),
    "08.2": Exercise(_preference),
    "08.3": Exercise(_same_lists),
    "08.4": Exercise(_preference_is_not_ctr),
}
