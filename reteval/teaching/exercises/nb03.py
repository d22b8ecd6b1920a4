"""Exercises of notebook 03 (A/B testing): the chapter's framework, power, peeking."""

from __future__ import annotations

import math
import random

from reteval.teaching.exercises import Exercise

__all__ = ["EXERCISES"]


def _draw_after_assignment(answer) -> bool:
    generator = random.Random("user42")  # what assign_group("user42") leaves behind
    generator.random()                    # the draw the assignment used
    return abs(float(answer) - generator.random()) < 5e-5


def _sample_size(answer) -> bool:
    from reteval.ab import proportion_effect_size, sample_size

    n = sample_size(proportion_effect_size(0.82, 0.80), alpha=0.05, power=0.8)
    if isinstance(answer, bool):
        return False
    return abs(float(answer) - math.ceil(n)) <= 1


def _fixed_vs_sequential(answer) -> bool:
    return str(answer).strip().lower() == "b"


def _same_b_users(answer) -> bool:
    from reteval.teaching.chapter_ab import ABTestFramework

    saved = random.getstate()
    try:
        framework = ABTestFramework()
        users = [f"user{i}" for i in range(1000)]
        in_b = {u for u in users if framework.assign_group(u) == "B"}
    finally:
        random.setstate(saved)
    if isinstance(answer, bool):
        return False
    return int(answer) == len(in_b) and float(answer) == int(answer)


EXERCISES = {
    "03.1": Exercise(
        _draw_after_assignment,
        "assign_group 调用 random.seed(user_id) 之后自己用掉了第一次 random.random()；"
        "程序接下来得到的是同一序列的第二个数。用 random.seed('user42') 自己算一遍。",
        "assign_group calls random.seed(user_id) and uses the first random.random() itself; "
        "the rest of the program gets the second number of that sequence. Reproduce it with "
        "random.seed('user42').",
    ),
    "03.2": Exercise(
        _sample_size,
        "每组用户数：ab.sample_size(ab.proportion_effect_size(0.82, 0.80))，双侧 alpha = 0.05，"
        "功效 0.8，向上取整；不是两组的总数。",
        "Users per variant: ab.sample_size(ab.proportion_effect_size(0.82, 0.80)), two-sided "
        "alpha = 0.05, power 0.8, rounded up; not the total of both variants.",
    ),
    "03.3": Exercise(
        _fixed_vs_sequential,
        "两个检验各自在自己的设计下有效：固定样本量检验要求事先定好样本量且只看一次；"
        "mSPRT 允许每天查看，代价是同样数据下功效更低。不能事后挑 p 值更小的那个。",
        "Each test is valid under its own design: the fixed-horizon test needs the horizon "
        "fixed in advance and a single look; the mSPRT allows daily looks and pays with less "
        "power on the same data. Picking the smaller p-value afterwards is not allowed.",
    ),
    "03.4": Exercise(
        _same_b_users,
        "本章的 assign_group 没有实验名这个参数：同一用户在每个实验里的组都一样。"
        "数一数 user0 … user999 中分到 B 的人数。",
        "The chapter's assign_group takes no experiment name: a user gets the same group in "
        "every experiment. Count the users among user0 ... user999 it puts in B.",
    ),
}
