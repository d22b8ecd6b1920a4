"""Reduce an interaction log to the sufficient statistics of the A/B analysis.

The user, not the query, is the unit of randomisation: a user's queries are
correlated, so the analysis first adds up each user's interactions and then
treats users as the independent observations. Every metric the analysis
reports (rates, ratios, per-user means) and its variance is a function of a
few sums over users, per variant:

* ``users``: the number of users;
* one column per user quantity ``q`` (see :data:`USER_QUANTITIES`): the sum of
  ``q`` over users;
* one column ``"q*r"`` per pair of quantities, ``q`` before ``r`` in
  :data:`USER_QUANTITIES` order, including ``"q*q"``: the sum over users of
  the product (the sums of squares and cross-products the delta method needs).

A pre-period covariate for CUPED (:mod:`reteval.ab.cuped`) is a log column
named ``pre_<name>`` holding one value per user (the same on each of the
user's rows; missing where the user has none, which counts as 0, as
GrowthBook does). It adds three kinds of columns: ``"pre_<name>"`` (its sum
over users), ``"pre_<name>*pre_<name>"`` and ``"q*pre_<name>"`` for every
quantity ``q``. These sums are of floats; all others are of integers.

This "reduced table" is all :func:`reteval.ab.analysis.analyze` reads. It is
made of group-by sums only, so a log too big for memory can be reduced in
chunks or on a cluster (sum the per-user rows, then sum the products per
variant) and handed to the same analysis.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = [
    "USER_QUANTITIES",
    "covariate_columns",
    "cumulative_statistics",
    "per_user",
    "reduce_log",
    "sufficient_statistics",
]

#: Per-user quantities, each a sum over the user's queries except ``any_click``:
#: ``queries`` (queries issued), ``feedback`` (queries with explicit feedback),
#: ``satisfied`` (queries whose feedback is positive, the chapter's 1),
#: ``clicks`` (clicked documents), ``clicked_queries`` (queries with at least one
#: click), ``retrieved`` (documents shown) and ``any_click`` (1 if the user
#: clicked at least once, else 0).
USER_QUANTITIES = ("queries", "feedback", "satisfied", "clicks", "clicked_queries",
                   "retrieved", "any_click")

_PAIRS = tuple(combinations_with_replacement(USER_QUANTITIES, 2))


def _counts(log: pd.DataFrame, name: str, list_col: str) -> pd.Series:
    if name in log.columns:
        return log[name]
    if list_col in log.columns:
        return log[list_col].map(len)
    raise InputError(f"log needs a column {name!r} or {list_col!r}; got columns "
                     f"{list(log.columns)!r}")


def covariate_columns(columns) -> list[str]:
    """The pre-period covariates among ``columns``: the names starting with ``pre_``.

    Examples
    --------
    >>> covariate_columns(["variant", "pre_satisfaction", "feedback"])
    ['pre_satisfaction']
    """
    return [str(c) for c in columns if str(c).startswith("pre_")]


def _user_covariates(log: pd.DataFrame, keys: list, names: list[str]) -> pd.DataFrame:
    """One value per user of each ``pre_`` column (NaN where none); a user's values agree."""
    values = pd.DataFrame({k: log[k].astype(str).to_numpy() for k in keys})
    for c in names:
        try:
            values[c] = pd.to_numeric(log[c], errors="raise").astype("float64").to_numpy()
        except (TypeError, ValueError):
            raise InputError(f"log column {c!r} must hold numbers (a pre-period value per "
                             "user)") from None
    grouped = values.groupby(keys, sort=True)
    for c in names:
        spread = grouped[c].nunique()
        if (spread > 1).any():
            user = spread.index[spread > 1][0]
            raise InputError(f"log column {c!r} must hold one pre-period value per user; user "
                             f"{user[-1]!r} has {spread.max()} different values")
    return grouped[names].first()


def per_user(log: pd.DataFrame, *, fill_pre: float | None = 0.0) -> pd.DataFrame:
    """Add up each user's interactions.

    Parameters
    ----------
    log : pandas.DataFrame
        One row per interaction with columns ``variant``, ``user_id``,
        ``feedback`` (missing = none) and ``n_clicks`` / ``n_retrieved`` (or
        the lists ``clicks`` / ``retrieved``), as
        :meth:`reteval.ab.log.InteractionLog.to_pandas` returns; optionally
        pre-period covariates ``pre_<name>`` (see the module docstring).
    fill_pre : float or None, default 0.0
        The covariate of a user without a pre-period value (None: NaN).

    Returns
    -------
    pandas.DataFrame
        Indexed by (``variant``, ``user_id``), sorted, one int64 column per
        quantity of :data:`USER_QUANTITIES`, then one float column per
        covariate.

    Raises
    ------
    InputError
        A column is missing, or a user appears in more than one variant (the
        assignment is broken and no per-user analysis is valid).

    Examples
    --------
    >>> log = pd.DataFrame({"variant": ["A", "A", "B"], "user_id": ["u1", "u1", "u2"],
    ...                     "feedback": [1, None, 0], "n_clicks": [2, 0, 1],
    ...                     "n_retrieved": [10, 10, 5]})
    >>> per_user(log)[["queries", "feedback", "satisfied", "clicks", "clicked_queries"]]
                     queries  feedback  satisfied  clicks  clicked_queries
    variant user_id
    A       u1             2         1          1       2                1
    B       u2             1         1          0       1                1
    >>> log["pre_clicks"] = [3.0, 3.0, None]
    >>> per_user(log)["pre_clicks"].tolist()
    [3.0, 0.0]
    """
    missing = [c for c in ("variant", "user_id", "feedback") if c not in log.columns]
    if missing:
        raise InputError(f"log is missing column(s) {missing!r}; got {list(log.columns)!r}")
    feedback = pd.to_numeric(log["feedback"], errors="coerce")
    clicks = _counts(log, "n_clicks", "clicks").astype("int64")
    rows = pd.DataFrame({
        "variant": log["variant"].astype(str).to_numpy(),
        "user_id": log["user_id"].astype(str).to_numpy(),
        "queries": np.ones(len(log), dtype="int64"),
        "feedback": feedback.notna().to_numpy(dtype="int64"),
        "satisfied": (feedback > 0).fillna(False).to_numpy(dtype="int64"),
        "clicks": clicks.to_numpy(),
        "clicked_queries": (clicks > 0).to_numpy(dtype="int64"),
        "retrieved": _counts(log, "n_retrieved", "retrieved").astype("int64").to_numpy(),
    })
    users = rows.groupby(["variant", "user_id"], sort=True).sum()
    users["any_click"] = (users["clicks"] > 0).astype("int64")
    dup = users.index.get_level_values("user_id").duplicated(keep=False)
    if dup.any():
        bad = users.index[dup]
        first = bad.get_level_values("user_id")[0]
        where = sorted(bad[bad.get_level_values("user_id") == first].get_level_values("variant"))
        raise InputError(f"{len(set(bad.get_level_values('user_id')))} user(s) appear in more "
                         f"than one variant, e.g. user_id {first!r} in {where!r}; a user must "
                         "stay in one variant")
    out = users[list(USER_QUANTITIES)].astype("int64")
    names = covariate_columns(log.columns)
    if names:
        pre = _user_covariates(log, ["variant", "user_id"], names)
        out = out.join(pre if fill_pre is None else pre.fillna(float(fill_pre)))
    return out


def sufficient_statistics(users: pd.DataFrame) -> pd.DataFrame:
    """Sum per-user quantities, their squares and cross-products, per variant.

    Parameters
    ----------
    users : pandas.DataFrame
        The output of :func:`per_user` (a ``variant`` index level or column,
        one column per quantity of :data:`USER_QUANTITIES`).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``variant`` (sorted); columns ``users``, the quantities, and
        ``"q*r"`` for every pair, and the sums of each covariate (see the
        module docstring).

    Examples
    --------
    >>> users = pd.DataFrame({"variant": ["A", "A", "B"], "queries": [2, 4, 1],
    ...                       "feedback": 0, "satisfied": 0, "clicks": [1, 0, 1],
    ...                       "clicked_queries": [1, 0, 1], "retrieved": 0, "any_click": [1, 0, 1]})
    >>> sufficient_statistics(users)[["users", "queries", "queries*queries", "queries*clicks"]]
             users  queries  queries*queries  queries*clicks
    variant
    A            2        6               20               2
    B            1        1                1               1
    """
    frame = users.reset_index() if "variant" not in users.columns else users
    missing = [c for c in ("variant", *USER_QUANTITIES) if c not in frame.columns]
    if missing:
        raise InputError(f"per-user table is missing column(s) {missing!r}")
    cols = {"variant": frame["variant"].astype(str).to_numpy(),
            "users": np.ones(len(frame), dtype="int64")}
    for q in USER_QUANTITIES:
        cols[q] = frame[q].to_numpy(dtype="int64")
    for q, r in _PAIRS:
        cols[f"{q}*{r}"] = cols[q] * cols[r]
    for c in covariate_columns(frame.columns):
        z = frame[c].to_numpy(dtype="float64")
        if not np.isfinite(z).all():
            raise InputError(f"per-user table column {c!r} holds a missing or infinite value")
        cols[c] = z
        cols[f"{c}*{c}"] = z * z
        for q in USER_QUANTITIES:
            cols[f"{q}*{c}"] = cols[q] * z
    return pd.DataFrame(cols).groupby("variant", sort=True).sum()


def reduce_log(log: pd.DataFrame) -> pd.DataFrame:
    """``sufficient_statistics(per_user(log))``: the reduced table of a pandas log."""
    return sufficient_statistics(per_user(log))


def cumulative_statistics(log: pd.DataFrame, looks) -> pd.DataFrame:
    """Reduced tables of the log as it stood at each look (interim analysis).

    Parameters
    ----------
    log : pandas.DataFrame
        As for :func:`per_user`, plus a ``timestamp`` column.
    looks : sequence of timestamps
        The moments of the interim analyses; each includes the interactions
        with ``timestamp <= look``.

    Returns
    -------
    pandas.DataFrame
        Indexed by (``look``, ``variant``); the columns of
        :func:`sufficient_statistics`. Looks with no data are left out.

    Examples
    --------
    >>> log = pd.DataFrame({"variant": ["A", "B", "A"], "user_id": ["u1", "u2", "u3"],
    ...                     "feedback": [1, 0, 1], "n_clicks": [1, 0, 2], "n_retrieved": 10,
    ...                     "timestamp": pd.to_datetime(["2024-05-01", "2024-05-02",
    ...                                                  "2024-05-03"], utc=True)})
    >>> looks = pd.to_datetime(["2024-05-01 12:00", "2024-05-03 12:00"], utc=True)
    >>> cumulative_statistics(log, looks)["users"].tolist()
    [1, 2, 1]
    """
    if "timestamp" not in log.columns:
        raise InputError("log needs a 'timestamp' column for cumulative statistics")
    stamps = pd.to_datetime(log["timestamp"], utc=True)
    parts = {}
    for look in pd.to_datetime(pd.Index(list(looks)), utc=True).sort_values():
        upto = log[(stamps <= look).to_numpy()]
        if len(upto):
            parts[look] = reduce_log(upto)
    if not parts:
        raise InputError("no interaction falls before any look")
    return pd.concat(parts, names=["look", "variant"])
