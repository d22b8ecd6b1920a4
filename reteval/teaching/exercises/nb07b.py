"""Exercises of notebook 07b (power and sequential testing): sizing, peeking, the mSPRT.

* ``07b.1`` (computed): users per variant to detect 0.80 -> 0.82: a whole number,
  by the arcsine effect size (Cohen's h) or by the pooled-variance formula for
  two proportions (both textbook answers are right).
* ``07b.2`` (choice): what to do with an early fixed-horizon p-value: a letter.
* ``07b.3`` (computed): the mSPRT's always-valid p-value at a first look with
  an estimated difference of 0.03, variance 0.0001 and ``mixing_sd`` 0.02: a
  number (4 decimals are enough).
"""

from __future__ import annotations

import math

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, letters, number

__all__ = ["EXERCISES"]


def _pooled_sample_size(p0: float, p1: float, *, alpha: float, power: float) -> float:
    """Users per variant by the textbook formula for two proportions (pooled variance under H0).

    ``(z_{1-alpha/2} sqrt(2 p q) + z_power sqrt(p0 q0 + p1 q1))^2 / (p1 - p0)^2``, with
    ``p`` the mean of ``p0`` and ``p1``: the normal approximation without continuity
    correction (Fleiss, Levin and Paik, *Statistical Methods for Rates and Proportions*).
    """
    from scipy.stats import norm

    pooled = (p0 + p1) / 2
    spread = (norm.ppf(1 - alpha / 2) * math.sqrt(2 * pooled * (1 - pooled))
              + norm.ppf(power) * math.sqrt(p0 * (1 - p0) + p1 * (1 - p1)))
    return spread**2 / (p1 - p0) ** 2


def _sample_size(answer) -> bool:
    # Two textbook answers, both right: the arcsine effect size of section 2 (Cohen's h, 6036)
    # and the usual formula for two proportions with the pooled variance under H0 (6039).
    from reteval.ab import proportion_effect_size, sample_size

    arcsine = sample_size(proportion_effect_size(0.82, 0.80), alpha=0.05, power=0.8)
    pooled = _pooled_sample_size(0.80, 0.82, alpha=0.05, power=0.8)
    value = number(answer)
    if value != int(value):
        return False
    if any(abs(value - 2 * math.ceil(n)) <= 2 for n in (arcsine, pooled)):
        raise WrongAnswer("both_variants")
    return any(abs(value - math.ceil(n)) <= 1 for n in (arcsine, pooled))


def _early_look(answer) -> bool:
    return letters(answer) == {"B"}


def _always_valid_first_look(answer) -> bool:
    # Lambda = sqrt(V / (V + tau^2)) exp(tau^2 Delta^2 / (2 V (V + tau^2))), the formula of
    # section 3; at a first look the always-valid p-value is min(1, 1 / Lambda).
    from scipy.stats import norm

    variance, tau2, difference = 0.0001, 0.02**2, 0.03
    mixture = math.sqrt(variance / (variance + tau2)) * math.exp(
        tau2 * difference**2 / (2 * variance * (variance + tau2)))
    if close_to(answer, min(1.0, 1 / mixture), decimals=4):
        return True
    if close_to(answer, 2 * norm.sf(difference / math.sqrt(variance)), decimals=4):
        raise WrongAnswer("naive")
    if close_to(answer, mixture, decimals=2):
        raise WrongAnswer("lambda")
    return False


EXERCISES = {
    "07b.1": Exercise(_sample_size),
    "07b.2": Exercise(_early_look),
    "07b.3": Exercise(_always_valid_first_look),
}
