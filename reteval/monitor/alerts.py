"""Deciding when an evaluation should raise an alert.

Two rules, both optional:

* **threshold** -- a measure's aggregate value is *strictly below* a minimum
  the user sets (the chapter's "Recall@5 < 0.7"): ``--threshold R@5=0.7``;
* **regression** -- against a baseline entry of the history, a measure dropped
  *significantly*: a paired test over the per-query scores of the queries both
  evaluations share gives a p-value below ``alpha`` (after a correction for
  testing several measures at once) and the mean difference is negative. A
  lower mean alone is not a regression: with 50 queries a drop of 0.01 in MRR
  is well within the noise of which queries happened to be easy.

The tests are those of :mod:`reteval.stats` and are two-sided, so a drop is
flagged at level ``alpha`` of the two-sided test (``alpha / 2`` of the
one-sided one): the rule errs towards fewer false alarms. ``min_drop`` adds a
practical-significance floor: with thousands of queries a drop of 0.001 can be
significant without mattering.

Whether the baseline is comparable at all (same dataset, same relevance
level) is decided by the caller (:func:`reteval.monitor.monitor_once`), which
skips the regression rule and says so when it is not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from reteval._util.validation import check_number, check_probability, check_rng
from reteval.errors import InputError
from reteval.measures import Measure, parse_measure

__all__ = [
    "ALERT_KINDS",
    "Alert",
    "MeasureComparison",
    "RegressionReport",
    "Threshold",
    "check_regression",
    "check_thresholds",
    "parse_threshold",
]

#: The kinds of alert: a threshold crossed, a significant regression, and a
#: baseline on another dataset (only with ``on_dataset_change="alert"``).
ALERT_KINDS = ("threshold", "regression", "dataset")


@dataclass(frozen=True)
class Alert:
    """One reason to alert.

    Attributes
    ----------
    kind : {"threshold", "regression", "dataset"}
    message : str
        One line a person can act on.
    measure : str or None
        The measure concerned (canonical name), if any.
    value : float or None
        The measure's value in this evaluation.
    reference : float or None
        The threshold, or the baseline's mean over the common queries.
    pvalue : float or None
        For a regression: the p-value after the multiple-comparison correction.
    baseline_id : int or None
        For a regression or a dataset change: the baseline entry.
    """

    kind: str
    message: str
    measure: str | None = None
    value: float | None = None
    reference: float | None = None
    pvalue: float | None = None
    baseline_id: int | None = None

    def __post_init__(self):
        if self.kind not in ALERT_KINDS:
            raise InputError(f"alert kind must be one of {ALERT_KINDS}; got {self.kind!r}")

    def to_dict(self) -> dict:
        """The alert as a JSON-ready dict (the fields, ``None`` included)."""
        return asdict(self)


# --------------------------------------------------------------------------- thresholds


@dataclass(frozen=True)
class Threshold:
    """Alert when ``measure``'s aggregate value is strictly below ``minimum``.

    ``spec`` is the :class:`~reteval.measures.Measure` that ``measure`` names, when the
    rule was parsed (:func:`parse_threshold`); it is not part of the rule's value.
    """

    measure: str
    minimum: float
    spec: Measure | None = field(default=None, compare=False, repr=False)


_THRESHOLD = re.compile(r"^\s*([^=<>\s]+)\s*(?:=|<)\s*(\S+)\s*$")


def parse_threshold(text: str | Threshold) -> Threshold:
    """Parse ``"MEASURE=VALUE"`` (alert when below VALUE).

    ``"MEASURE<VALUE"`` is accepted as the same rule. The measure name is put
    into its canonical spelling.

    Examples
    --------
    >>> parse_threshold("R@5=0.7")
    Threshold(measure='R@5', minimum=0.7)
    >>> parse_threshold("mrr<0.5")
    Threshold(measure='RR', minimum=0.5)
    >>> parse_threshold("R@5")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: threshold must look like 'MEASURE=VALUE' (alert when \
the measure is below VALUE), e.g. 'R@5=0.7'; got 'R@5'
    """
    if isinstance(text, Threshold):
        return text
    match = _THRESHOLD.match(str(text))
    if not match:
        raise InputError(
            "threshold must look like 'MEASURE=VALUE' (alert when the measure is below VALUE), "
            f"e.g. 'R@5=0.7'; got {text!r}"
        )
    name, value = match.groups()
    try:
        minimum = float(value)
    except ValueError:
        minimum = math.nan
    if not math.isfinite(minimum):
        raise InputError(f"threshold {text!r}: the value must be a finite number; got {value!r}")
    measure = parse_measure(name)
    return Threshold(str(measure), minimum, measure)


def check_thresholds(values: Mapping[str, float], thresholds: Iterable) -> list[Alert]:
    """Alerts for every threshold whose measure is below its minimum.

    Parameters
    ----------
    values : mapping of str to float
        Aggregate value per measure (canonical names).
    thresholds : iterable of Threshold or str
        Rules, as :class:`Threshold` or ``"MEASURE=VALUE"``.

    Returns
    -------
    list of Alert
        In the order of ``thresholds``; empty when every measure is at or
        above its minimum.

    Raises
    ------
    InputError
        A threshold on a measure that ``values`` does not hold.

    Examples
    --------
    >>> [a.message for a in check_thresholds({"R@5": 0.65}, ["R@5=0.7"])]
    ['R@5 = 0.6500 is below the threshold 0.7']
    >>> check_thresholds({"R@5": 0.7}, ["R@5=0.7"])      # equal is not below
    []
    """
    alerts = []
    for rule in map(parse_threshold, thresholds):
        if rule.measure not in values:
            raise InputError(
                f"threshold on {rule.measure!r}, but that measure was not evaluated; "
                f"evaluated: {sorted(values)}"
            )
        value = float(values[rule.measure])
        if value < rule.minimum:
            alerts.append(
                Alert(
                    "threshold",
                    f"{rule.measure} = {value:.4f} is below the threshold {rule.minimum:g}",
                    measure=rule.measure,
                    value=value,
                    reference=rule.minimum,
                )
            )
    return alerts


# --------------------------------------------------------------------------- regression


@dataclass(frozen=True)
class MeasureComparison:
    """One measure of the current evaluation against the baseline.

    Attributes
    ----------
    measure : str
    n : int
        Queries compared (those both evaluations scored).
    baseline_mean, current_mean : float
        Means over those queries.
    mean_difference : float
        ``current_mean - baseline_mean``; negative is a drop.
    pvalue : float
        Two-sided p-value of the paired test (``nan`` when every difference is 0).
    pvalue_adjusted : float
        After the multiple-comparison correction over the measures compared.
    regression : bool
        Whether this comparison raised an alert.
    """

    measure: str
    n: int
    baseline_mean: float
    current_mean: float
    mean_difference: float
    pvalue: float
    pvalue_adjusted: float
    regression: bool


@dataclass(frozen=True)
class RegressionReport:
    """Outcome of :func:`check_regression`.

    Attributes
    ----------
    comparisons : tuple of MeasureComparison
    alerts : tuple of Alert
        One per measure that regressed.
    notes : tuple of str
        What was not compared and why (measures missing in the baseline,
        queries present in only one evaluation).
    test, correction : str
        The paired test and the correction used.
    alpha : float
    """

    comparisons: tuple[MeasureComparison, ...]
    alerts: tuple[Alert, ...]
    notes: tuple[str, ...]
    test: str
    correction: str
    alpha: float


def check_regression(
    current: pd.DataFrame,
    baseline: pd.DataFrame,
    *,
    measures: Sequence[str] | None = None,
    alpha: float = 0.05,
    test: str = "t",
    correction: str = "holm",
    min_drop: float = 0.0,
    baseline_id: int | None = None,
    n_resamples: int = 10_000,
    rng=0,
) -> RegressionReport:
    """Flag measures that dropped significantly from a baseline.

    For each measure present in both tables, the per-query values of the
    queries both scored are paired and tested with
    :func:`reteval.stats.paired_test` (current against baseline); the p-values
    of all measures compared are adjusted with
    :func:`reteval.stats.adjust_pvalues`. A measure regressed when its
    adjusted p-value is below ``alpha``, its mean difference is negative, and
    the drop is at least ``min_drop``.

    Parameters
    ----------
    current, baseline : pandas.DataFrame
        Per-query values (index ``query_id``, one column per measure), as
        :func:`reteval.evaluate` returns and the history stores.
    measures : sequence of str, or mapping, optional
        Measures to compare; default: every column of ``current``. A mapping
        ``{label: Measure}`` gives the measures of the labels, parsed already (a column
        label is otherwise parsed to know how its values aggregate).
    alpha : float, default 0.05
        Significance level.
    test : str, default "t"
        A test name of :data:`reteval.stats.TESTS` ("t", "wilcoxon",
        "randomization", "bootstrap").
    correction : str, default "holm"
        A name of :data:`reteval.stats.CORRECTIONS`; "none" tests each measure
        at ``alpha``.
    min_drop : float, default 0.0
        Smallest drop of the mean that counts as a regression.
    baseline_id : int, optional
        The baseline's entry id, quoted in the alerts.
    n_resamples : int, default 10000
        Rounds of the randomization and bootstrap tests.
    rng : numpy.random.Generator, int or None, default 0
        Randomness of the randomization and bootstrap tests; the default seed
        makes an alert reproducible.

    Returns
    -------
    RegressionReport

    Raises
    ------
    InputError
        Bad options, or a measure in ``measures`` that ``current`` lacks.

    Examples
    --------
    >>> import pandas as pd
    >>> ids = pd.Index([f"q{i}" for i in range(8)], name="query_id")
    >>> base = pd.DataFrame({"RR": [1.0, 1.0, 0.5, 1.0, 1.0, 0.5, 1.0, 1.0]}, index=ids)
    >>> worse = pd.DataFrame({"RR": [0.5, 0.33, 0.5, 0.25, 0.5, 0.5, 0.2, 0.5]}, index=ids)
    >>> report = check_regression(worse, base, baseline_id=1)
    >>> [a.message for a in report.alerts]   # scipy.stats.ttest_rel(worse, base): p=0.0038
    ['RR dropped from 0.8750 to 0.4100 (-0.4650) on 8 queries since entry 1: t test p = 0.0038
      (holm-adjusted) < alpha 0.05']
    >>> check_regression(base, base).alerts      # no difference, no alert
    ()
    """
    from reteval.comparison.core import aggregation_of, compared_values
    from reteval.evaluation.engine import summarize
    from reteval.stats import adjust_pvalues, canonical_correction, canonical_test, paired_test

    alpha = check_probability(alpha, "alpha")
    min_drop = check_number(min_drop, "min_drop", minimum=0.0,
                            requirement="a finite number >= 0")
    test_name, correction_name = canonical_test(test), canonical_correction(correction)
    names = list(current.columns) if measures is None else [str(m) for m in measures]
    parsed = measures if isinstance(measures, Mapping) else {}
    unknown = [m for m in names if m not in current.columns]
    if unknown:
        raise InputError(
            f"cannot compare {unknown}: not among the evaluated measures {list(current.columns)}"
        )

    notes = []
    missing = [m for m in names if m not in baseline.columns]
    if missing:
        notes.append(
            f"not compared with the baseline (it did not evaluate them): {', '.join(missing)}"
        )
    names = [m for m in names if m in baseline.columns]
    common = current.index.intersection(baseline.index).sort_values()
    only_current = len(current.index.difference(baseline.index))
    only_baseline = len(baseline.index.difference(current.index))
    if only_current or only_baseline:
        notes.append(
            f"compared on the {len(common)} queries both evaluations scored "
            f"({only_current} only in this one, {only_baseline} only in the baseline)"
        )
    if len(common) < 2:
        notes.append(
            f"regression check skipped: a paired test needs at least 2 common queries; "
            f"got {len(common)}"
        )
        names = []

    rng = check_rng(rng)
    raw = []
    for name in names:
        x = current.loc[common, name].to_numpy(dtype=np.float64)
        y = baseline.loc[common, name].to_numpy(dtype=np.float64)
        # a geometric mean (GMAP) is tested on the logarithms it averages, as compare does
        how = aggregation_of(parsed.get(name, name))
        result = paired_test(compared_values(x, how), compared_values(y, how), test=test_name,
                             n_resamples=n_resamples, rng=rng)
        raw.append((name, x, y, result))

    pvalues = np.array([r[3].pvalue for r in raw], dtype=np.float64)
    finite = np.isfinite(pvalues)
    adjusted = np.full_like(pvalues, np.nan)
    if finite.any():
        adjusted[finite] = adjust_pvalues(pvalues[finite], method=correction_name)

    comparisons, alerts = [], []
    label = "unadjusted" if correction_name == "none" else f"{correction_name}-adjusted"
    since = "" if baseline_id is None else f" since entry {baseline_id}"
    for (name, x, y, result), p, p_adj in zip(raw, pvalues, adjusted, strict=True):
        base_mean, cur_mean = (
            (float(y.mean()), float(x.mean())) if aggregation_of(parsed.get(name, name)) == "mean"
            else (summarize({name: y}, measures=parsed)[name],
                  summarize({name: x}, measures=parsed)[name]))  # GMAP, counts
        diff = cur_mean - base_mean
        regressed = bool(np.isfinite(p_adj) and p_adj < alpha and diff < 0 and -diff >= min_drop)
        comparisons.append(
            MeasureComparison(name, len(common), base_mean, cur_mean, diff, float(p),
                              float(p_adj), regressed)
        )
        if regressed:
            alerts.append(
                Alert(
                    "regression",
                    f"{name} dropped from {base_mean:.4f} to {cur_mean:.4f} ({diff:+.4f}) on "
                    f"{len(common)} queries{since}: {result.test} test p = {p_adj:.2g} "
                    f"({label}) < alpha {alpha:g}",
                    measure=name,
                    value=cur_mean,
                    reference=base_mean,
                    pvalue=float(p_adj),
                    baseline_id=baseline_id,
                )
            )
    return RegressionReport(tuple(comparisons), tuple(alerts), tuple(notes), test_name,
                            correction_name, alpha)
