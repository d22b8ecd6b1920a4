"""Exercises of notebook 07 (A/B testing): the chapter's framework, power, peeking.

* ``07.1`` (computed): the program's next ``random.random()`` after the
  chapter's ``assign_group("user42")``: a number (4 decimals are enough).
* ``07.2`` (computed): users per variant to detect 0.80 -> 0.82: a whole number.
* ``07.3`` (choice): what to do with an early fixed-horizon p-value: a letter.
* ``07.4`` (computed): users in B in two successive experiments of the
  chapter's framework: a whole number.
* ``07.5`` (code): a hash-based ``assign_group(user_id, experiment)``, run on
  hidden users and experiments.
* ``07.6`` (computed): users per variant with CUPED when a covariate correlated
  0.6 with the metric and 10,000 users without: a whole number.
* ``07.7`` (computed): the chance to win of a normal posterior of the lift,
  mean +2%, standard deviation 1%: a number (4 decimals are enough).
"""

from __future__ import annotations

import ast
import inspect
import math
import random
import textwrap

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, letters, number

__all__ = ["EXERCISES"]


def _draw_after_assignment(answer) -> bool:
    generator = random.Random("user42")  # what assign_group("user42") leaves behind
    generator.random()                    # the draw the assignment used
    return close_to(answer, generator.random(), decimals=4)


def _sample_size(answer) -> bool:
    from reteval.ab import proportion_effect_size, sample_size

    n = math.ceil(sample_size(proportion_effect_size(0.82, 0.80), alpha=0.05, power=0.8))
    value = number(answer)
    return value == int(value) and abs(value - n) <= 1


def _early_look(answer) -> bool:
    return letters(answer) == {"B"}


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


def _fail(zh: str, en: str):
    raise WrongAnswer(zh, en)


def _hash_assignment(answer) -> bool:
    if not callable(answer):
        raise TypeError("a function is expected")
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
            raise WrongAnswer(f"你的函数在隐藏的用户上出错：{type(error).__name__}。",
                              f"Your function raised {type(error).__name__} on the hidden "
                              f"users.") from error
        touched = random.getstate() != marker
    finally:
        random.setstate(saved)
    if not set(first) | set(other) <= {"A", "B"}:
        _fail("函数应当返回 \"A\" 或 \"B\"。", "The function must return \"A\" or \"B\".")
    if touched:
        _fail("你的函数改变了 random 模块的全局状态。",
              "Your function changed the global state of the random module.")
    if first != again:
        _fail("同一个用户在同一个实验中两次得到了不同的组。",
              "The same user got two different groups in the same experiment.")
    if _calls_builtin_hash(answer):
        _fail("内置的 hash() 对字符串每个进程都不同（PYTHONHASHSEED）：重启以后用户会换组。",
              "The built-in hash() of a string differs from process to process "
              "(PYTHONHASHSEED): users would change groups after a restart.")
    share = first.count("B") / len(users)
    if abs(share - 0.5) > 4 * math.sqrt(0.25 / len(users)):
        _fail("B 组的份额离一半太远。", "The share of users in B is too far from one half.")
    agreement = sum(a == b for a, b in zip(first, other, strict=True)) / len(users)
    if abs(agreement - 0.5) > 4 * math.sqrt(0.25 / len(users)):
        _fail("两个不同实验的分组几乎一样（或几乎相反）：实验名没有进入哈希。",
              "Two different experiments split the users almost alike (or almost "
              "oppositely): the experiment is not part of the hash.")
    return True


def _cuped_users(answer) -> bool:
    # the share of variance removed is rho^2: the users scale by 1 - rho^2
    value = number(answer)
    return value == int(value) and abs(value - 10_000 * (1 - 0.6**2)) <= 1


def _chance_to_win(answer) -> bool:
    from scipy.stats import norm

    return close_to(answer, float(norm.sf(0, loc=0.02, scale=0.01)), decimals=4)


EXERCISES = {
    "07.1": Exercise(
        _draw_after_assignment,
        hints_zh=(
            "答案是一个数（保留 4 位小数即可）。assign_group 对全局的 random 模块做了什么？",
            "assign_group 调用 random.seed(user_id)，然后自己用掉了一次 random.random()。",
            ("程序接下来得到的是 random.seed('user42') 之后序列中的下一个数："
            "自己 seed 一次，先抽掉 assign_group 用掉的那一个，再抽一次。"),
        ),
        hints_en=(
            ("The answer is a number (4 decimals are enough). What does assign_group do to "
            "the global random module?"),
            "assign_group calls random.seed(user_id), then uses one random.random() itself.",
            ("The program then gets the next number of the sequence after "
            "random.seed('user42'): seed it yourself, draw the one assign_group used, then "
            "draw once more."),
        ),
    ),
    "07.2": Exercise(
        _sample_size,
        hints_zh=(
            "答案是一个整数：每组（不是两组合计）的用户数。",
            "先求效应量 ab.proportion_effect_size(0.82, 0.80)（Cohen 的 h）。",
            "再用 ab.sample_size(h, alpha=0.05, power=0.8)（双侧），向上取整。",
        ),
        hints_en=(
            "The answer is a whole number: users per variant (not both variants together).",
            "First the effect size ab.proportion_effect_size(0.82, 0.80) (Cohen's h).",
            "Then ab.sample_size(h, alpha=0.05, power=0.8) (two-sided), rounded up.",
        ),
    ),
    "07.3": Exercise(
        _early_look,
        hints_zh=(
            "答案是一个字母。固定样本量检验的 p 值在什么条件下才有效？",
            ("固定样本量检验的 5% 假阳性率，只在事先定好规模、只在最后看一次时成立；"
            "中途看一次就多一次犯错的机会。"),
            ("事后在两种检验之间挑一个更方便的结论，和中途偷看一样会抬高假阳性率；"
            "两种检验都只在自己的设计下有效。"),
        ),
        hints_en=(
            "The answer is one letter. Under which condition is a fixed-horizon p-value valid?",
            ("The fixed-horizon test's 5% false-positive rate holds only for a size fixed in "
            "advance and a single look at the end; each look before is one more chance to err."),
            ("Picking whichever test gives the handier conclusion afterwards raises the "
            "false-positive rate just as peeking does; each test is valid only under its own "
            "design."),
        ),
    ),
    "07.4": Exercise(
        _same_b_users,
        hints_zh=(
            "答案是一个整数。本章的 assign_group 有哪些参数？",
            "assign_group 没有实验名这个参数：同一用户在每个实验里的组都一样。",
            ("所以两个实验中都在 B 组的人，就是第一个实验中 B 组的人："
            "数一数 user0 … user999 中分到 B 的人数（记得恢复 random 的全局状态）。"),
        ),
        hints_en=(
            ("The answer is a whole number. Which parameters does the chapter's assign_group "
            "take?"),
            ("The chapter's assign_group takes no experiment name: a user gets the same group "
            "in every experiment."),
            ("So the users in B in both experiments are the users in B in the first: count "
            "those among user0 ... user999 (and restore the global random state)."),
        ),
    ),
    "07.5": Exercise(
        _hash_assignment,
        hints_zh=(
            ("写一个函数 assign_group(user_id, experiment)，返回 \"A\" 或 \"B\"："
             "同一用户在同一实验中"
            "总是同一组，不同实验之间互不相关，而且不碰 random 模块。"),
            ("用 hashlib（例如 hashlib.sha256）对 f\"{experiment}:{user_id}\" 的 UTF-8 字节求哈希；"
            "不要用内置的 hash()，它每个进程都不同。"),
            ("把摘要的前 8 个字节转成整数（int.from_bytes(digest[:8], \"big\")），除以 2**64 得到"
            " [0, 1) 中的数，小于 0.5 分到 A，否则分到 B。"),
        ),
        hints_en=(
            ("Write a function assign_group(user_id, experiment) returning \"A\" or \"B\": the "
            "same user always gets the same group in the same experiment, different "
            "experiments are unrelated, and the random module is left alone."),
            ("Hash the UTF-8 bytes of f\"{experiment}:{user_id}\" with hashlib (say "
            "hashlib.sha256); not with the built-in hash(), which differs from process to "
            "process."),
            ("Turn the first 8 bytes of the digest into an integer (int.from_bytes(digest[:8], "
            "\"big\")), divide by 2**64 for a number in [0, 1); below 0.5 is A, otherwise B."),
        ),
        code=True,
    ),
    "07.6": Exercise(
        _cuped_users,
        hints_zh=(
            "答案是一个整数：每组用户数。CUPED 去掉的是方差中的哪一部分？",
            "与指标相关系数为 ρ 的协变量能去掉方差的 ρ² 这一份；所需用户数与方差成正比。",
            ("所以所需用户数乘以 1 − ρ²；也可以用 ab.sample_size(d, variance_reduction=ρ²) "
             "与不调整时相比。"),
        ),
        hints_en=(
            ("The answer is a whole number: users per variant. Which part of the variance "
             "does CUPED remove?"),
            ("A covariate correlated rho with the metric removes the share rho^2 of the "
             "variance; the users needed are proportional to the variance."),
            ("So the users needed are multiplied by 1 - rho^2; or compare "
             "ab.sample_size(d, variance_reduction=rho**2) with the unadjusted size."),
        ),
    ),
    "07.7": Exercise(
        _chance_to_win,
        hints_zh=(
            ("答案是一个 0 到 1 之间的数（保留 4 位小数即可）。"
             "“实验组更好”对应相对变化的什么事件？"),
            "实验组更好的概率是后验分布中相对变化大于 0 的概率。",
            ("后验为正态分布 N(0.02, 0.01²)：求 P(X > 0)，例如 "
             "scipy.stats.norm.sf(0, loc=0.02, scale=0.01)。"),
        ),
        hints_en=(
            ("The answer is a number between 0 and 1 (4 decimals are enough). Which event of "
             "the relative lift is \"the treatment is better\"?"),
            "The chance to win is the posterior probability that the relative lift exceeds 0.",
            ("The posterior is normal, N(0.02, 0.01^2): compute P(X > 0), e.g. "
             "scipy.stats.norm.sf(0, loc=0.02, scale=0.01)."),
        ),
    ),
}
