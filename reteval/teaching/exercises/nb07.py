"""Exercises of notebook 07 (A/B testing): the chapter's framework, CUPED, the Bayesian reading.

* ``07.1`` (computed): the program's next ``random.random()`` after the
  chapter's ``assign_group("user42")``: a number (4 decimals are enough).
* ``07.2`` (computed): users in B in two successive experiments of the
  chapter's framework: a whole number.
* ``07.3`` (code): a hash-based ``assign_group(user_id, experiment)``, run on
  hidden users and experiments.
* ``07.4`` (computed): users per variant with CUPED for the precision of 10,000
  users without, when a covariate correlates 0.6 with the metric: a whole number.
* ``07.5`` (computed): the chance to win of a normal posterior of the lift,
  mean +2%, standard deviation 1%: a number (4 decimals are enough).

Power and peeking are notebook 07b's (:mod:`reteval.teaching.exercises.nb07b`).
"""

from __future__ import annotations

import ast
import inspect
import math
import random
import textwrap

from reteval.teaching.exercises import Exercise, WrongAnswer, WrongType, close_to, number

__all__ = ["EXERCISES"]


def _draw_after_assignment(answer) -> bool:
    generator = random.Random("user42")  # what assign_group("user42") leaves behind
    generator.random()                    # the draw the assignment used
    return close_to(answer, generator.random(), decimals=4)


def _same_b_users(answer) -> bool:
    from reteval.teaching.chapter_ab import ABTestFramework

    saved = random.getstate()
    try:
        framework = ABTestFramework()
        users = [f"user{i}" for i in range(1000)]
        in_b = {u for u in users if framework.assign_group(u) == "B"}
    finally:
        random.setstate(saved)
    return number(answer) == len(in_b)


def _calls_builtin_hash(function) -> bool:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return False
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
               and node.func.id == "hash" for node in ast.walk(tree))


def _hash_assignment(answer) -> bool:
    if not callable(answer):
        raise WrongType("function", answer)
    users = [f"user{i}" for i in range(2000)]
    saved = random.getstate()
    try:
        random.seed(12345)
        marker = random.getstate()
        try:
            first = [answer(u, "ranker-v2") for u in users]
            again = [answer(u, "ranker-v2") for u in users]
            other = [answer(u, "snippets-v1") for u in users]
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", error=type(error).__name__) from error
        touched = random.getstate() != marker
    finally:
        random.setstate(saved)
    if not set(first) | set(other) <= {"A", "B"}:
        raise WrongAnswer("not_a_or_b")
    if touched:
        raise WrongAnswer("random_state")
    if first != again:
        raise WrongAnswer("inconsistent")
    if _calls_builtin_hash(answer):
        raise WrongAnswer("builtin_hash")
    share = first.count("B") / len(users)
    if abs(share - 0.5) > 4 * math.sqrt(0.25 / len(users)):
        raise WrongAnswer("unbalanced")
    agreement = sum(a == b for a, b in zip(first, other, strict=True)) / len(users)
    if abs(agreement - 0.5) > 4 * math.sqrt(0.25 / len(users)):
        raise WrongAnswer("experiment_not_hashed")
    return True


def _cuped_users(answer) -> bool:
    # the share of variance removed is rho^2, and the variance of the difference goes as 1 / users:
    # the same variance with 1 - rho^2 times the users
    value = number(answer)
    return value == int(value) and abs(value - 10_000 * (1 - 0.6**2)) <= 1


def _chance_to_win(answer) -> bool:
    from scipy.stats import norm

    return close_to(answer, float(norm.sf(0, loc=0.02, scale=0.01)), decimals=4)


EXERCISES = {
    "07.1": Exercise(_draw_after_assignment),
    "07.2": Exercise(_same_b_users),
    "07.3": Exercise(_hash_assignment, code=True),
    "07.4": Exercise(_cuped_users),
    "07.5": Exercise(_chance_to_win),
}
