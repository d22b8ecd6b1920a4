"""Dask plumbing that knows nothing of retrieval: detection, import, client, progress.

Dask is optional (``pip install "reteval[dask]"``): nothing here imports it at module level.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager

from reteval._util.extras import require
from reteval._util.progress import progress, progress_counter, progress_mode
from reteval.errors import InputError

__all__ = ["compute", "dask_client", "import_dask", "is_dask_collection", "share"]


def is_dask_collection(obj) -> bool:
    """Whether ``obj`` is a Dask collection (checked without importing Dask).

    Examples
    --------
    >>> import pandas as pd
    >>> is_dask_collection(pd.DataFrame())
    False
    """
    return type(obj).__module__.partition(".")[0] == "dask"


def import_dask():
    return require("dask", "dask", "Dask runs"), require("dask.dataframe", "dask", "Dask runs")


def _client(dask):
    """The distributed client that ``dask.compute`` would use, or None."""
    try:
        from distributed import default_client

        client = default_client()
    except (ImportError, ValueError):
        return None
    if dask.config.get("scheduler", None) not in (None, "dask.distributed", "distributed"):
        return None
    return client


def share(dask, obj):
    """Send ``obj`` once to every worker (scatter), or wrap it for any other scheduler."""
    client = _client(dask)
    if client is None:
        return dask.delayed(obj)
    return client.scatter(obj, broadcast=True, hash=False)


def compute(dask, parts: list, desc: str) -> list:
    """``dask.compute(*parts)`` with a progress bar over the partitions done."""
    if progress_mode() == "off" or not parts:
        return list(dask.compute(*parts))
    client = _client(dask)
    if client is not None:
        from distributed import as_completed

        futures = client.compute(parts)
        for _ in progress(as_completed(futures), total=len(futures), desc=desc, unit="part"):
            pass
        return client.gather(futures)
    from dask.callbacks import Callback

    with progress_counter(None, desc=desc, unit="task") as advance:

        class _Advance(Callback):
            def _posttask(self, key, result, dsk, state, worker_id):
                advance()

        with _Advance():
            return list(dask.compute(*parts))


@contextmanager
def dask_client(address: str | None = None, *, n_workers: int = 2):
    """A ``distributed.Client`` for the duration of a ``with`` block.

    Parameters
    ----------
    address : str, optional
        A running scheduler, e.g. ``"tcp://10.0.0.5:8786"``. Without it a
        ``LocalCluster`` is started (worker processes on 127.0.0.1, one
        thread each, no dashboard) and closed on exit.
    n_workers : int, default 2
        Workers of the local cluster.

    Yields
    ------
    distributed.Client
        The default client inside the block: Dask computations use it.

    Raises
    ------
    InputError
        The scheduler cannot be reached.
    """
    import_dask()
    from distributed import Client, LocalCluster

    if address:
        try:
            client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
        with client:
            yield client
        return
    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
        yield client
