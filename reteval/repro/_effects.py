"""Reproduction measures on per-topic scores: RMSE, effect ratio, delta RI, t-test p-values.

Every function takes the per-topic scores of one measure (AP, nDCG@10, ...),
as a pandas Series or a mapping topic -> score (aligned by topic), or as plain
sequences (aligned by position). The definitions are those of Breuer et al.
(SIGIR 2020) as the ``repro_eval`` package computes them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from reteval.errors import InputError

__all__ = ["delta_ri", "effect_ratio", "rmse", "ttest_pvalue"]


def _scores(values, name: str) -> tuple[list | None, np.ndarray]:
    """``(topics or None, scores)`` of one argument; topics None for a plain sequence."""
    import pandas as pd

    if isinstance(values, pd.Series):
        topics, raw = [str(t) for t in values.index], values.to_numpy()
    elif isinstance(values, Mapping):
        topics, raw = [str(t) for t in values], list(values.values())
    elif isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise InputError(f"{name} must be per-topic scores (a Series or a mapping topic -> "
                         f"score, or a sequence of numbers); got {type(values).__name__}")
    else:
        topics, raw = None, values
    try:
        scores = np.asarray(raw, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name}: scores must be numbers: {exc}") from None
    if len(scores) == 0:
        raise InputError(f"{name} holds no topic")
    if topics is not None and len(set(topics)) < len(topics):
        twice = next(t for t in topics if topics.count(t) > 1)
        raise InputError(f"{name}: topic {twice!r} is listed twice")
    bad = ~np.isfinite(scores)
    if bad.any():
        where = f"topic {topics[int(np.argmax(bad))]!r}" if topics else \
            f"position {int(np.argmax(bad))}"
        raise InputError(f"{name}: the score of {where} is {scores[bad][0]} (not a number)")
    return topics, scores


def _paired(first, second, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Two arguments' scores aligned topic by topic (or position by position)."""
    topics_a, a = _scores(first, names[0])
    topics_b, b = _scores(second, names[1])
    if (topics_a is None) != (topics_b is None):
        raise InputError(f"give {names[0]} and {names[1]} both as per-topic scores (Series or "
                         "mappings, aligned by topic) or both as sequences (aligned by position)")
    if topics_a is None:
        if len(a) != len(b):
            raise InputError(f"{names[0]} has {len(a)} scores and {names[1]} {len(b)}: "
                             "the same topics are needed, in the same order")
        return a, b
    only_a = [t for t in topics_a if t not in set(topics_b)]
    only_b = [t for t in topics_b if t not in set(topics_a)]
    if only_a or only_b:
        topic, holder = (only_a[0], names[0]) if only_a else (only_b[0], names[1])
        raise InputError(f"{names[0]} and {names[1]} must score the same topics; topic "
                         f"{topic!r} is only in {holder} ({len(only_a) + len(only_b)} topic(s) "
                         "in one only)")
    position = {t: i for i, t in enumerate(topics_b)}
    return a, b[[position[t] for t in topics_a]]


def rmse(original, reproduced) -> float:
    """Root mean square error between the original and reproduced per-topic scores.

    ``sqrt(mean((original - reproduced)^2))`` over the topics: 0 when every
    topic scores as it did; how far, topic by topic, the reproduction is
    from the original (Breuer et al. 2020, "effectiveness" level).

    Parameters
    ----------
    original, reproduced : Series, mapping or sequence of float
        Per-topic scores of one measure, on the same topics.

    Returns
    -------
    float

    Raises
    ------
    InputError
        Different topics (a topic in one only is named), different lengths,
        no topic, or a score that is not a number.

    Examples
    --------
    >>> rmse({"q1": 0.5, "q2": 0.25}, {"q1": 0.25, "q2": 0.25})
    0.1767766952966369
    """
    a, b = _paired(original, reproduced, ("original", "reproduced"))
    return float(math.sqrt(np.mean((a - b) ** 2)))


def _improvement(baseline, advanced, names: tuple[str, str]) -> np.ndarray:
    base, adv = _paired(baseline, advanced, names)
    return adv - base


def effect_ratio(original_baseline, original_advanced, reproduced_baseline,
                 reproduced_advanced) -> float:
    """Effect ratio: the reproduction's mean per-topic improvement over the original's.

    ``ER = mean(reproduced_advanced - reproduced_baseline) /
    mean(original_advanced - original_baseline)``, each difference taken topic
    by topic within its experiment. 1: the improvement is reproduced in full;
    between 0 and 1: smaller; above 1: larger; 0 or below: lost or reversed.
    The reproduction may run on other topics than the original (replicability):
    only the baseline and advanced run of one experiment are paired.

    Parameters
    ----------
    original_baseline, original_advanced : Series, mapping or sequence of float
        Per-topic scores of one measure in the original experiment.
    reproduced_baseline, reproduced_advanced : Series, mapping or sequence of float
        The same in the reproduction.

    Returns
    -------
    float

    Raises
    ------
    InputError
        A baseline and an advanced run of one experiment on different topics,
        no topic, or an original without improvement (mean 0: the ratio is undefined).

    Examples
    --------
    >>> effect_ratio([0.25, 0.5], [0.75, 1.0], [0.25, 0.5], [0.5, 0.75])
    0.5
    """
    original = _improvement(original_baseline, original_advanced,
                            ("original_baseline", "original_advanced")).mean()
    reproduced = _improvement(reproduced_baseline, reproduced_advanced,
                              ("reproduced_baseline", "reproduced_advanced")).mean()
    if original == 0:
        raise InputError("the effect ratio is undefined: the original advanced run improves "
                         "on its baseline by 0 on average")
    return float(reproduced / original)


def _relative_improvement(baseline, advanced, names: tuple[str, str]) -> float:
    base, adv = _paired(baseline, advanced, names)
    if base.mean() == 0:
        raise InputError(f"delta RI is undefined: {names[0]} scores 0 on average")
    return float((adv.mean() - base.mean()) / base.mean())


def delta_ri(original_baseline, original_advanced, reproduced_baseline,
             reproduced_advanced) -> float:
    """Delta relative improvement: the original's relative improvement minus the reproduction's.

    ``RI = (mean(advanced) - mean(baseline)) / mean(baseline)`` in each
    experiment; ``delta RI = RI_original - RI_reproduced``. 0: the same relative
    improvement; above 0: the reproduction improves less; below 0: more. It
    complements the effect ratio: ER compares absolute improvements topic by
    topic, delta RI relative improvements of the means.

    Parameters
    ----------
    original_baseline, original_advanced : Series, mapping or sequence of float
        Per-topic scores of one measure in the original experiment.
    reproduced_baseline, reproduced_advanced : Series, mapping or sequence of float
        The same in the reproduction (other topics allowed).

    Returns
    -------
    float

    Raises
    ------
    InputError
        A baseline and an advanced run of one experiment on different topics,
        no topic, or a baseline whose mean is 0 (its relative improvement is undefined).

    Examples
    --------
    >>> round(delta_ri([0.25, 0.5], [0.75, 1.0], [0.25, 0.5], [0.5, 0.75]), 4)
    0.6667
    """
    original = _relative_improvement(original_baseline, original_advanced,
                                     ("original_baseline", "original_advanced"))
    reproduced = _relative_improvement(reproduced_baseline, reproduced_advanced,
                                       ("reproduced_baseline", "reproduced_advanced"))
    return original - reproduced


def ttest_pvalue(original, reproduced, *, paired: bool = True) -> float:
    """Two-sided t-test p-value between the original and reproduced per-topic scores.

    ``paired=True`` (reproducibility: the same topics) is Student's paired t
    test (:func:`reteval.stats.paired_t_test`, as ``scipy.stats.ttest_rel``);
    ``paired=False`` (replicability: other topics, another collection) is
    Student's unpaired t test with pooled variance (``scipy.stats.ttest_ind``).
    A small p-value says the reproduced scores differ from the original ones:
    the reproduction failed at this level. Scores identical to the original
    (every paired difference 0, or two constant equal samples) give 1, where
    the t statistic is undefined, as ``repro_eval`` reports it.

    Parameters
    ----------
    original, reproduced : Series, mapping or sequence of float
        Per-topic scores of one measure; with ``paired=True`` on the same topics.
    paired : bool, default True
        Paired (same topics) or unpaired (any topics).

    Returns
    -------
    float

    Raises
    ------
    InputError
        Paired scores on different topics or of different lengths, fewer than
        two topics, or a score that is not a number.

    Examples
    --------
    >>> round(ttest_pvalue([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4]), 4)
    0.1027
    >>> round(ttest_pvalue([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6], paired=False), 4)
    0.4077
    """
    if not isinstance(paired, bool):
        raise InputError(f"paired must be True or False; got {paired!r}")
    if paired:
        from reteval.stats import paired_t_test

        a, b = _paired(original, reproduced, ("original", "reproduced"))
        if len(a) < 2:
            raise InputError(f"a paired t test needs at least two topics; got {len(a)}")
        if np.array_equal(a, b):
            return 1.0
        return float(paired_t_test(a, b).pvalue)
    from scipy.stats import ttest_ind

    _, a = _scores(original, "original")
    _, b = _scores(reproduced, "reproduced")
    for name, x in (("original", a), ("reproduced", b)):
        if len(x) < 2:
            raise InputError(f"an unpaired t test needs at least two topics on each side; "
                             f"{name} has {len(x)}")
    if np.ptp(a) == 0 and np.ptp(b) == 0 and a[0] == b[0]:
        return 1.0
    return float(ttest_ind(a, b).pvalue)
