"""The same measures computed by the ``ragas`` package (optional, needs an LLM)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from reteval.errors import RetevalError
from reteval.rag.inputs import METRICS, check_metrics, read_samples

__all__ = ["evaluate_with_ragas"]


def evaluate_with_ragas(
    data: object,
    *,
    metrics: Sequence[str] = METRICS,
    llm: object = None,
    embeddings: object = None,
    **options: object,
) -> pd.DataFrame:
    """Compute the measures with the ``ragas`` package (optional, needs an LLM).

    The samples are read and checked exactly as by :func:`evaluate_contexts`,
    then passed to ``ragas.evaluate`` as an ``EvaluationDataset`` with the
    columns ``user_input``, ``retrieved_contexts`` and ``reference``, scored
    by ``ragas.metrics.context_recall`` / ``context_precision``. ragas calls
    its language model (by default one it configures from environment
    variables, e.g. an API key); its own errors pass through unchanged.
    Install with ``pip install 'reteval[ragas]'`` (ragas 0.2 or newer).

    Parameters
    ----------
    data : mapping, Dataset-like or pandas.DataFrame
        As for :func:`evaluate_contexts`.
    metrics : sequence of str, default ("context_recall", "context_precision")
    llm, embeddings : optional
        Passed to ``ragas.evaluate`` when given (ragas's LLM and embeddings
        wrappers).
    **options
        Further keyword arguments for ``ragas.evaluate``.

    Returns
    -------
    pandas.DataFrame
        Same shape as :func:`evaluate_contexts`: index ``sample``, one float
        column per metric.

    Raises
    ------
    RetevalError
        If ragas is not installed, or its result lacks a requested metric.
    InputError
        On malformed data or unknown metrics.
    """
    names = check_metrics(metrics)
    samples = read_samples(data)
    try:
        import ragas
        import ragas.metrics as ragas_metrics
        from ragas.dataset_schema import EvaluationDataset
    except ImportError as exc:
        raise RetevalError(
            "evaluate_with_ragas needs the optional package 'ragas' (0.2 or newer), "
            "which is not installed; install it with pip install 'reteval[ragas]', "
            "or use evaluate_contexts, which works offline"
        ) from exc
    dataset = EvaluationDataset.from_list(
        [
            {"user_input": q, "retrieved_contexts": list(ctx), "reference": ref}
            for q, ctx, ref in samples
        ]
    )
    kwargs = dict(options)
    if llm is not None:
        kwargs["llm"] = llm
    if embeddings is not None:
        kwargs["embeddings"] = embeddings
    result = ragas.evaluate(dataset, metrics=[getattr(ragas_metrics, n) for n in names], **kwargs)
    table = result.to_pandas()
    missing = [n for n in names if n not in table.columns]
    if missing or len(table) != len(samples):
        raise RetevalError(
            f"ragas returned columns {list(table.columns)} for {len(table)} samples; "
            f"expected {list(names)} for {len(samples)} samples"
        )
    out = pd.DataFrame(
        {n: np.asarray(table[n], dtype=float) for n in names},
        index=pd.RangeIndex(len(samples), name="sample"),
    )
    return out
