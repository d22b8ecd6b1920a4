"""The A/B log reduction on Dask, for logs larger than one machine.

Each partition of the log is added up per user (:func:`reteval.ab.sufficient.per_user`),
the partial per-user rows are shuffled on ``user_id`` and summed, and each partition's users
are turned into per-variant sums (:func:`reteval.ab.sufficient.sufficient_statistics`) which
are summed on the client. All sums are of integers, hence exact:
:func:`reteval.ab.analysis.analyze` on the result equals the in-memory analysis. A pre-period
covariate (a ``pre_<name>`` column, one value per user) travels with the user's partial rows and
adds its float sums, equal to the in-memory ones up to the order of the additions (1e-12
relative).
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pandas as pd

from reteval._util.dask import compute, import_dask, is_dask_collection
from reteval.ab.sufficient import covariate_columns
from reteval.errors import InputError

__all__ = ["reduce_log_dask"]



def _partial_users(part: pd.DataFrame) -> pd.DataFrame:
    from reteval.ab.sufficient import per_user

    return per_user(part, fill_pre=None).drop(columns="any_click").reset_index()


def _partition_statistics(part: pd.DataFrame) -> pd.DataFrame | None:
    from reteval.ab.sufficient import USER_QUANTITIES, sufficient_statistics

    if part.empty:
        return None
    pre = covariate_columns(part.columns)
    counts = [c for c in part.columns if c not in ("variant", "user_id", *pre)]
    grouped = part.groupby(["variant", "user_id"], sort=True)
    users = grouped[counts].sum()
    for c in pre:
        spread = grouped[c].nunique()
        if (spread > 1).any():
            user = spread.index[spread > 1][0]
            raise InputError(f"log column {c!r} must hold one pre-period value per user; user "
                             f"{user[-1]!r} has {spread.max()} different values")
        users[c] = grouped[c].first().fillna(0.0)
    users["any_click"] = (users["clicks"] > 0).astype("int64")
    ids = users.index.get_level_values("user_id")
    dup = ids.duplicated(keep=False)
    if dup.any():
        first = ids[dup][0]
        where = sorted(users.index[ids == first].get_level_values("variant"))
        raise InputError(f"{len(set(ids[dup]))} user(s) appear in more than one variant, e.g. "
                         f"user_id {first!r} in {where!r}; a user must stay in one variant")
    return sufficient_statistics(users[list(USER_QUANTITIES) + pre])


def reduce_log_dask(log) -> pd.DataFrame:
    """The reduced table of an interaction log held in parquet or in a Dask DataFrame.

    Equal to :func:`reteval.ab.sufficient.reduce_log` of the same log in
    memory, so ``analyze(reduce_log_dask(log))`` is the in-memory analysis.

    Parameters
    ----------
    log : str, path-like or dask.dataframe.DataFrame
        A parquet dataset (folder, file or glob), or a Dask DataFrame, with
        the columns :func:`reteval.ab.sufficient.per_user` reads: ``variant``,
        ``user_id``, ``feedback``, and ``n_clicks`` / ``n_retrieved`` (or the
        lists ``clicks`` / ``retrieved``). Only these columns are read.
        Partitions may cut through users.

    Returns
    -------
    pandas.DataFrame
        One row per variant: see :mod:`reteval.ab.sufficient`.

    Raises
    ------
    InputError
        A column is missing, or a user appears in more than one variant.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from reteval.ab.sufficient import reduce_log
    >>> log = pd.DataFrame({"variant": ["A", "B", "A", "B"], "user_id": ["u1", "u2", "u1", "u3"],
    ...                     "feedback": [1, 0, None, 1], "n_clicks": [2, 0, 1, 3],
    ...                     "n_retrieved": [10, 10, 10, 8]})
    >>> reduced = reduce_log_dask(dd.from_pandas(log, npartitions=2))
    >>> reduced[["users", "queries", "satisfied", "clicks", "clicks*clicks"]]
             users  queries  satisfied  clicks  clicks*clicks
    variant
    A            1        2          1       3              9
    B            2        2          1       3              9
    >>> reduced.equals(reduce_log(log))
    True
    """
    dask, dd = import_dask()
    if isinstance(log, (str, os.PathLike)):
        text = os.fspath(log)
        if glob.has_magic(text):
            matched = sorted(glob.glob(text))
            if not matched:
                raise InputError("no file matches this pattern", path=text)
            text = matched
        elif not Path(text).exists():
            raise InputError("no such file or folder", path=text)
        log = dd.read_parquet(text)
    elif not is_dask_collection(log):
        raise InputError(f"log must be a parquet path or a Dask DataFrame; got "
                         f"{type(log).__name__} (for a pandas log use "
                         "reteval.ab.sufficient.reduce_log)")
    columns = list(log.columns)
    needed = ["variant", "user_id", "feedback"]
    for count, listed in (("n_clicks", "clicks"), ("n_retrieved", "retrieved")):
        needed.append(count if count in columns else listed)
    needed += covariate_columns(columns)
    missing = [c for c in needed if c not in columns]
    if missing:
        raise InputError(f"log is missing column(s) {missing!r}; got {columns!r}")
    partial = log[needed].map_partitions(_partial_users)
    task = dask.delayed(_partition_statistics, pure=True)
    parts = [task(p) for p in partial.shuffle(on="user_id").to_delayed()]
    stats = [s for s in compute(dask, parts, "reducing the log") if s is not None]
    if not stats:
        raise InputError("the log holds no interactions")
    table = pd.concat(stats).reset_index()
    table["variant"] = table["variant"].astype(str).to_numpy()
    table = table.groupby("variant", sort=True).sum()
    pre = covariate_columns(needed)
    exact = [c for c in table.columns if not any(c == p or c.endswith("*" + p) for p in pre)]
    return table.astype(dict.fromkeys(exact, "int64"))
