"""Which engine evaluates a run: in memory, or partition by partition on Dask.

``reteval.evaluate`` is :func:`evaluate` here. It sits above both engines, so
that neither knows the other: :func:`reteval.evaluate.evaluate` works on data in
memory, :func:`reteval.distributed.evaluate_dask` on Dask collections with the
same kernels and the same result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reteval.evaluate import evaluate as evaluate_in_memory

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["evaluate"]


def _is_dask(obj) -> bool:
    return type(obj).__module__.partition(".")[0] == "dask"


def evaluate(qrels, run, measures, *, relevance_level: int = 1, missing: str = "zero",
             **options) -> pd.DataFrame:
    if _is_dask(run) or _is_dask(qrels):
        from reteval.distributed import evaluate_dask

        if any(options.values()):
            from reteval.errors import InputError

            raise InputError(f"{', '.join(k for k, v in options.items() if v)}: not available "
                             "for a Dask collection; evaluate it in memory")
        return evaluate_dask(qrels, run, measures, relevance_level=relevance_level,
                             missing=missing)
    return evaluate_in_memory(qrels, run, measures, relevance_level=relevance_level,
                              missing=missing, **options)


evaluate.__doc__ = evaluate_in_memory.__doc__.replace(
    "This\n        function works in memory; ``reteval.evaluate`` (the package-level\n"
    "        name, :func:`reteval.engines.evaluate`) also takes a Dask DataFrame.",
    "A Dask\n        DataFrame too large for memory is evaluated partition by partition\n"
    "        with the same kernels and the same result\n"
    "        (:func:`reteval.distributed.evaluate_dask`).",
)
