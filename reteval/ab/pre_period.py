"""Simulated experiments with a pre-period, for CUPED (:mod:`reteval.ab.cuped`).

Users keep their habits: one who clicks much before an experiment clicks
much during it. :func:`simulate_with_pre_period` simulates the same users
twice with the same habit factors (:func:`reteval.ab.simulation.simulate_log`
with ``user_factors``): first for ``pre_days`` with everyone on the control
ranker, then during the experiment. Each user's pre-period totals become
``pre_`` columns of the experiment's log, the covariates that
:func:`reteval.ab.analysis.analyze` takes as ``covariates=``. The pre-period
is drawn before the experiment and whatever the variant, so adjusting for it
cannot bias the comparison; it only explains part of the users' variance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reteval._util.validation import check_rng
from reteval.ab.assignment import Experiment
from reteval.ab.simulation import simulate_log
from reteval.ab.sufficient import per_user
from reteval.errors import InputError

__all__ = ["PRE_PERIOD_QUANTITIES", "simulate_with_pre_period"]

#: The user quantities copied from the pre-period, each as the column ``pre_<quantity>``.
PRE_PERIOD_QUANTITIES = ("queries", "feedback", "satisfied", "clicks", "clicked_queries")


def simulate_with_pre_period(experiment: Experiment, qrels, run_a, run_b, *,
                             n_users: int = 2000, queries_per_user: float = 3.0,
                             user_sd: float = 1.0, pre_days: float = 14.0,
                             days: float = 14.0, feedback_rate: float = 0.5,
                             click_model="cascade", depth: int = 10,
                             start="2024-05-01T00:00:00Z",
                             rng=None) -> pd.DataFrame:
    """The log of an experiment whose users were also seen before it.

    Parameters
    ----------
    experiment, qrels, run_a, run_b
        As for :func:`reteval.ab.simulation.simulate_log`.
    n_users, queries_per_user, feedback_rate, click_model, depth, days
        As for :func:`~reteval.ab.simulation.simulate_log`, for both periods.
    user_sd : float, default 1.0
        How much users differ (0: all alike, and the pre-period predicts
        nothing).
    pre_days : float, default 14.0
        Length of the pre-period, which ends at ``start``.
    start : str
        When the experiment starts (with a UTC offset).
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    pandas.DataFrame
        The experiment's log with, per row, the user's pre-period totals
        ``pre_queries``, ``pre_feedback``, ``pre_satisfied``, ``pre_clicks``,
        ``pre_clicked_queries`` (:data:`PRE_PERIOD_QUANTITIES`).

    Examples
    --------
    >>> from reteval.ab.simulation import synthetic_collection
    >>> qrels, run_a, run_b = synthetic_collection(n_queries=5, rng=0)
    >>> log = simulate_with_pre_period(Experiment("demo"), qrels, run_a, run_b, n_users=20,
    ...                                rng=1)
    >>> [c for c in log.columns if c.startswith("pre_")]
    ['pre_queries', 'pre_feedback', 'pre_satisfied', 'pre_clicks', 'pre_clicked_queries']
    >>> bool((log.groupby("user_id")["pre_clicks"].nunique() == 1).all())
    True
    """
    if isinstance(n_users, bool) or not isinstance(n_users, int) or n_users < 1:
        raise InputError(f"n_users must be a positive integer; got {n_users!r}")
    if isinstance(user_sd, bool) or not isinstance(user_sd, (int, float)) \
            or not 0 <= user_sd <= 3:
        raise InputError(f"user_sd must be a number from 0 to 3; got {user_sd!r}")
    if not pre_days > 0:
        raise InputError(f"pre_days must be positive; got {pre_days!r}")
    gen = check_rng(rng)
    factors = np.exp(user_sd * gen.standard_normal(n_users) - user_sd**2 / 2)
    t0 = pd.Timestamp(start)
    if t0.tzinfo is None:
        raise InputError(f"start must carry a UTC offset; got {start!r}")
    common = {"n_users": n_users, "queries_per_user": queries_per_user,
              "click_model": click_model, "depth": depth, "feedback_rate": feedback_rate,
              "user_factors": factors, "rng": gen}
    before = simulate_log(experiment, qrels, run_a, run_a, days=pre_days,
                          start=(t0 - pd.Timedelta(days=pre_days)).isoformat(), **common)
    during = simulate_log(experiment, qrels, run_a, run_b, days=days, start=start, **common)
    totals = per_user(before).reset_index(level="variant", drop=True)
    totals = totals[list(PRE_PERIOD_QUANTITIES)].astype("float64")
    totals.columns = [f"pre_{c}" for c in totals.columns]
    return during.join(totals, on="user_id")
