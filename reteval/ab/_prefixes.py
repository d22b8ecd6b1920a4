"""The tests of every prefix of a simulated stream of impressions, from running totals.

:func:`reteval.ab.compare_methods` simulates one stream of impressions per experiment and
tests its first ``n`` impressions for each size ``n``. A user's impressions are consecutive
(``users`` is non-decreasing), so a prefix holds every impression of the users before its
last one, and some of that last user's: the sums per user of any prefix come from the sums
of the whole stream and the last user's part, with no pass over the prefix.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ratio_z_by_size", "votes_by_size"]


def _last_users(users, sizes):
    """For the first ``n`` impressions, each ``n`` of ``sizes``: the user of the last one, and
    how many impressions come before that user's first (``users`` non-decreasing)."""
    last = users[sizes - 1]
    counts = np.bincount(users)
    return last, (np.cumsum(counts) - counts)[last]


def _running(values):
    """Sums of ``values`` before each index, one more than ``values``: ``[0, v0, v0 + v1, ...]``."""
    return np.concatenate(([0], np.cumsum(values)))


def ratio_z_by_size(clicks, users, in_b, sizes):
    """z of the arms' difference in click-through over the first ``n`` impressions, each ``n``
    of ``sizes``, with the user as unit (delta method); NaN where an arm has fewer than 2 users.

    ``users`` (non-decreasing: a user's impressions are consecutive) index ``in_b``. The sums
    per arm for every prefix come from running totals over the users, the last user of a
    prefix counted with the impressions it holds.
    """
    x = np.bincount(users, weights=clicks)
    y = np.bincount(users).astype(float)
    last, first = _last_users(users, sizes)
    so_far = _running(clicks)
    x_last = so_far[sizes] - so_far[first]
    y_last = (sizes - first).astype(float)
    rates, variances = [], []
    for arm in (~in_b[:len(y)], in_b[:len(y)]):
        def before(values, arm=arm):  # sum over the arm's users before each prefix's last user
            return _running(np.where(arm, values, 0.0))[last]
        own = arm[last]
        n = before(np.ones_like(x)) + own
        sx, sy = before(x) + own * x_last, before(y) + own * y_last
        sxx = before(x * x) + own * x_last ** 2
        syy = before(y * y) + own * y_last ** 2
        sxy = before(x * y) + own * x_last * y_last
        with np.errstate(divide="ignore", invalid="ignore"):
            r = sx / sy
            cov_xx = (sxx - sx * sx / n) / (n - 1)
            cov_xy = (sxy - sx * sy / n) / (n - 1)
            cov_yy = (syy - sy * sy / n) / (n - 1)
            var = (cov_xx - 2 * r * cov_xy + r ** 2 * cov_yy) / (n * (sy / n) ** 2)
        rates.append(np.where(n >= 2, r, np.nan))
        variances.append(var)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (rates[1] - rates[0]) / np.sqrt(variances[0] + variances[1])


def votes_by_size(outcome, users, sizes):
    """Users whose impressions A won more often than it lost, and those B did, over the first
    ``n`` impressions, each ``n`` of ``sizes`` (``outcome`` -1, 0 or 1 per impression)."""
    net = np.bincount(users, weights=outcome)
    last, first = _last_users(users, sizes)
    so_far = _running(outcome)
    own = so_far[sizes] - so_far[first]  # the last user's, so far
    wins = _running(net > 0)[last] + (own > 0)
    losses = _running(net < 0)[last] + (own < 0)
    return wins, losses
