"""CUPED: variance reduction with a pre-experiment covariate (Deng et al. 2013).

A user's metric before the experiment predicts the same metric during it.
Subtracting ``theta`` times the pre-period value removes that predictable part
from each arm's mean without moving the difference between the arms (the arms
are randomised, so their pre-period means differ only by chance), and the
variance of the estimate shrinks by the share of variance the covariate
explains, ``rho^2`` for a correlation ``rho``. The same precision then needs
``1 - rho^2`` as many users (:func:`reteval.stats.planning.two_sample_size`
takes this share as ``variance_reduction``).

Everything is computed from sufficient statistics, per arm: ``n``, ``sum``
and ``sum_squares`` of the post-period metric, ``pre_sum`` and
``pre_sum_squares`` of the pre-period covariate, and ``sum_products`` (the
sum over users of metric times covariate). The formulas are those of
GrowthBook's engine (gbstats 0.8: ``RegressionAdjustedStatistic`` in a
``TwoSidedTTest``), and the results equal it to 1e-9:

* ``theta = cov(y, x) / var(x)`` on both arms pooled as one sample (the
  sample (co)variances, ``ddof=1``; a 0/1 metric has variance ``p (1 - p)``);
  ``theta = 0`` (no adjustment) when the pooled covariate or metric does not
  vary;
* per arm, adjusted mean ``ybar - theta xbar`` and per-user variance
  ``var(y) + theta^2 var(x) - 2 theta cov(y, x)``;
* absolute difference ``m_t - m_c`` with variance ``v_t / n_t + v_c / n_c``;
  relative lift ``(m_t - m_c) / ybar_c`` with the delta-method variance
  ``v_t / (ybar_c^2 n_t) + v_c ybar_t^2 / (ybar_c^4 n_c)`` (``ybar`` the
  unadjusted means);
* Welch-Satterthwaite degrees of freedom of the adjusted variances, a
  Student t p-value and interval.

A ratio metric (``sum(x) / sum(y)`` over users, such as satisfaction per
query with feedback) is adjusted through its linearisation
``(x_i - R y_i) / ybar`` (Deng, Knoblich & Lu 2018), whose mean is 0 and whose
variance is the delta method's: :func:`ratio_adjustment`.

References
----------
Deng, Xu, Kohavi & Walker (2013), "Improving the Sensitivity of Online
Controlled Experiments by Utilizing Pre-Experiment Data", WSDM.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from scipy import stats as _st

from reteval._util.validation import check_probability
from reteval.errors import InputError
from reteval.stats import ConfidenceInterval

__all__ = [
    "Adjustment",
    "Arm",
    "CupedResult",
    "adjust",
    "cuped_test",
    "effect",
    "estimate_adjustment",
    "ratio_adjustment",
    "table_adjustment",
    "test_adjustment",
    "welch_df",
]

PRE_KEYS = ("pre_sum", "pre_sum_squares", "sum_products")


@dataclass(frozen=True)
class Arm:
    """One arm's summary after the adjustment (``theta = 0``: none).

    Attributes
    ----------
    n : int
    mean, variance : float
        Adjusted mean and per-user variance.
    unadjusted_mean, unadjusted_variance : float
    """

    n: int
    mean: float
    variance: float
    unadjusted_mean: float
    unadjusted_variance: float


@dataclass(frozen=True)
class Adjustment:
    """Both arms, adjusted with one ``theta``."""

    control: Arm
    treatment: Arm
    theta: float


@dataclass(frozen=True)
class CupedResult:
    """A CUPED-adjusted comparison of treatment against control.

    Attributes
    ----------
    estimate : float
        Relative lift ``(m_t - m_c) / ybar_c`` or absolute difference.
    ci : ConfidenceInterval
        Two-sided ``1 - alpha`` interval (Student t, Welch's ``df``).
    pvalue, statistic, df, standard_error : float
    theta : float
        The pooled regression coefficient (0: no adjustment was possible).
    variance_reduction : float
        ``1 - adjusted variance / unadjusted variance`` of the estimate.
    relative : bool
    control_mean, treatment_mean : float
        The adjusted means.
    """

    estimate: float
    ci: ConfidenceInterval
    pvalue: float
    statistic: float
    df: float
    standard_error: float
    theta: float
    variance_reduction: float
    relative: bool
    control_mean: float
    treatment_mean: float


def _number(stats: Mapping, key: str, arm: str) -> float:
    value = stats[key]
    if isinstance(value, bool):
        raise InputError(f"{arm} {key} must be a number; got {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{arm} {key} must be a number; got {value!r}") from None
    if not math.isfinite(x):
        raise InputError(f"{arm} {key} must be finite; got {value!r}")
    return x


def _sums(stats, arm: str, *, proportion: bool, pre: bool, pre_binary: bool) -> dict:
    """Read and check one arm's sufficient statistics."""
    if not isinstance(stats, Mapping):
        raise InputError(f"{arm} must be a mapping of sufficient statistics (n, sum, "
                         f"sum_squares, ...); got {type(stats).__name__}")
    needed = ["n", "sum"] + ([] if proportion else ["sum_squares"])
    if pre:
        needed += ["pre_sum", "sum_products"] + ([] if pre_binary else ["pre_sum_squares"])
    missing = [k for k in needed if k not in stats]
    if missing:
        if pre and "pre_sum" in stats:
            raise InputError(f"{arm} has a pre-period sum but not {missing!r}: CUPED needs "
                             "the sum, the sum of squares of the covariate and the sum of its "
                             "products with the metric")
        raise InputError(f"{arm} is missing {missing!r}; got keys {sorted(stats)!r}")
    n = _number(stats, "n", arm)
    if n != int(n) or n < 2:
        raise InputError(f"{arm} needs n >= 2 users (an integer); got n = {stats['n']!r}")
    out = {k: _number(stats, k, arm) for k in needed}
    out["n"] = int(n)
    if proportion:
        for key in ("sum", "pre_sum") if pre_binary else ("sum",):
            if not 0 <= out[key] <= n:
                raise InputError(f"{arm} {key} must lie in [0, n] = [0, {int(n)}] for a 0/1 "
                                 f"metric (proportion=True); got {stats[key]!r}")
        out["sum_squares"] = out["sum"]
    if pre_binary:
        out["pre_sum_squares"] = out["pre_sum"]
    out["pre_binary"] = pre_binary
    return out


def _variance(n: float, total: float, squares: float, proportion: bool) -> float:
    if proportion:
        p = total / n
        return p * (1 - p)
    return (squares - total * total / n) / (n - 1)


def _arm(s: dict, theta: float, proportion: bool, pre: bool) -> Arm:
    n = s["n"]
    mean = s["sum"] / n
    var = _variance(n, s["sum"], s["sum_squares"], proportion)
    if not pre or theta == 0:
        return Arm(n, mean, var, mean, var)
    pre_var = _variance(n, s["pre_sum"], s["pre_sum_squares"], s["pre_binary"])
    cov = (s["sum_products"] - s["sum"] * s["pre_sum"] / n) / (n - 1)
    adjusted = var + theta**2 * pre_var - 2 * theta * cov
    return Arm(n, mean - theta * s["pre_sum"] / n, adjusted, mean, var)


def _check_arms(arms: dict[str, Arm], relative: bool, what: str) -> None:
    for name, a in arms.items():
        if not a.unadjusted_variance > 0:
            raise InputError(f"the {name}'s {what} has zero variance (n = {a.n}): no test is "
                             "possible on a constant metric; check the sums")
        if not a.variance > 0:
            raise InputError(f"the {name}'s adjusted variance is {a.variance!r} (not positive): "
                             "the covariate cannot predict the metric exactly; check the sums "
                             "of products")
    if relative and (arms["control"].unadjusted_mean == 0 or arms["control"].mean == 0):
        raise InputError("the control's mean is 0: a relative lift is undefined; use "
                         "relative=False for the absolute difference")


def adjust(control, treatment, *, proportion: bool = False, relative: bool = True,
           covariate: bool | None = None) -> Adjustment:
    """Check both arms' sums and adjust their means with the pooled ``theta``.

    Parameters
    ----------
    control, treatment : mapping
        Sufficient statistics (see the module docstring).
    proportion : bool, default False
        A 0/1 metric: variance ``p (1 - p)``; so is the covariate's unless
        both arms give ``pre_sum_squares`` (then its sample variance).
    relative : bool, default True
        Check that the control mean is not 0.
    covariate : bool, optional
        Whether to adjust; by default when the control holds ``pre_sum``.

    Examples
    --------
    >>> a = adjust({"n": 3, "sum": 6, "sum_squares": 14, "pre_sum": 3, "pre_sum_squares": 5,
    ...             "sum_products": 8},
    ...            {"n": 3, "sum": 9, "sum_squares": 29, "pre_sum": 4, "pre_sum_squares": 6,
    ...             "sum_products": 13})
    >>> round(a.theta, 6), round(a.control.mean, 6)
    (1.235294, 0.764706)
    """
    pre = ("pre_sum" in control or "pre_sum" in treatment) if covariate is None else covariate
    pre_binary = bool(proportion) and pre and not all(
        isinstance(a, Mapping) and "pre_sum_squares" in a for a in (control, treatment))
    sums = {name: _sums(arm, name, proportion=proportion, pre=pre, pre_binary=pre_binary)
            for name, arm in (("control", control), ("treatment", treatment))}
    theta = 0.0
    if pre:
        c, t = sums["control"], sums["treatment"]
        n = c["n"] + t["n"]
        joint = {k: c[k] + t[k] for k in ("sum", "sum_squares", "pre_sum", "pre_sum_squares",
                                          "sum_products")}
        post_var = _variance(n, joint["sum"], joint["sum_squares"], proportion)
        pre_var = _variance(n, joint["pre_sum"], joint["pre_sum_squares"], pre_binary)
        if pre_var != 0 and post_var != 0:
            cov = (joint["sum_products"] - joint["sum"] * joint["pre_sum"] / n) / (n - 1)
            theta = cov / pre_var
    arms = {name: _arm(s, theta, proportion, pre) for name, s in sums.items()}
    _check_arms(arms, relative, "metric")
    return Adjustment(arms["control"], arms["treatment"], float(theta))


def ratio_adjustment(control, treatment, *, relative: bool = True) -> Adjustment:
    """CUPED for a ratio metric ``sum(x) / sum(y)`` through its linearisation.

    Each arm holds ``n``, ``x``, ``y``, ``z`` (the covariate's sum) and the
    sums of products ``xx``, ``yy``, ``zz``, ``xy``, ``xz``, ``yz``. The
    per-user linearisation ``l = (x - R y) / ybar`` of ``R = sum(x) / sum(y)``
    has the delta-method variance; ``theta = cov(l, z) / var(z)`` on both arms
    pooled, and each arm's ratio becomes ``R - theta zbar`` with per-user
    variance ``var(l) + theta^2 var(z) - 2 theta cov(l, z)``. With ``z``
    constant this is the unadjusted delta method.

    Examples
    --------
    Four users per arm, (x, y, z) = (1, 2, 1), (0, 1, 0), (2, 3, 1), (1, 3, 2) in the
    control and (2, 2, 1), (1, 2, 1), (3, 4, 2), (0, 1, 0) in the treatment:

    >>> control = {"n": 4, "x": 4, "y": 9, "z": 4, "xx": 6, "yy": 23, "zz": 6, "xy": 11,
    ...            "xz": 5, "yz": 11}
    >>> treatment = {"n": 4, "x": 6, "y": 9, "z": 4, "xx": 14, "yy": 25, "zz": 6, "xy": 18,
    ...              "xz": 9, "yz": 12}
    >>> a = ratio_adjustment(control, treatment)
    >>> round(a.control.unadjusted_mean, 4), round(a.theta, 4), round(a.control.mean, 4)
    (0.4444, 0.1358, 0.3086)
    """
    keys = ("n", "x", "y", "z", "xx", "yy", "zz", "xy", "xz", "yz")
    sums = {}
    for name, arm in (("control", control), ("treatment", treatment)):
        missing = [k for k in keys if k not in arm]
        if missing:
            raise InputError(f"{name} is missing {missing!r} for a ratio adjustment")
        s = {k: _number(arm, k, name) for k in keys}
        if s["n"] < 2:
            raise InputError(f"{name} needs n >= 2 users; got n = {arm['n']!r}")
        if s["y"] == 0:
            raise InputError(f"the {name}'s denominator sums to 0: the ratio is undefined")
        sums[name] = s

    def moments(s):
        n = s["n"]
        r, ybar = s["x"] / s["y"], s["y"] / n

        def cov(a, b):
            return (s[a + b] - s[a] * s[b] / n) / (n - 1)
        var_l = (cov("x", "x") - 2 * r * cov("x", "y") + r * r * cov("y", "y")) / ybar**2
        cov_lz = (cov("x", "z") - r * cov("y", "z")) / ybar
        return r, var_l, cov_lz, cov("z", "z")

    joint = {k: sums["control"][k] + sums["treatment"][k] for k in keys}
    _, joint_var_l, joint_cov, joint_var_z = moments(joint)
    theta = joint_cov / joint_var_z if joint_var_z != 0 and joint_var_l != 0 else 0.0
    arms = {}
    for name, s in sums.items():
        r, var_l, cov_lz, var_z = moments(s)
        arms[name] = Arm(int(s["n"]), r - theta * s["z"] / s["n"],
                         var_l + theta**2 * var_z - 2 * theta * cov_lz, r, var_l)
    _check_arms(arms, relative, "ratio")
    return Adjustment(arms["control"], arms["treatment"], float(theta))


def effect(adjustment: Adjustment, *, relative: bool = True,
           adjusted: bool = True) -> tuple[float, float]:
    """The estimate and its variance: GrowthBook's ``frequentist_diff`` and ``_variance``.

    ``adjusted=False`` gives the unadjusted estimate and variance of the same arms.

    Examples
    --------
    >>> a = Adjustment(Arm(10, 2.0, 1.0, 2.0, 1.0), Arm(10, 3.0, 1.0, 3.0, 1.0), 0.0)
    >>> effect(a, relative=False)
    (1.0, 0.2)
    """
    c, t = adjustment.control, adjustment.treatment
    mc, mt = (c.mean, t.mean) if adjusted else (c.unadjusted_mean, t.unadjusted_mean)
    vc, vt = (c.variance, t.variance) if adjusted else (c.unadjusted_variance,
                                                       t.unadjusted_variance)
    if relative:
        uc, ut = c.unadjusted_mean, t.unadjusted_mean
        return (mt - mc) / uc, vt / (uc**2 * t.n) + vc * ut**2 / (uc**4 * c.n)
    return mt - mc, vt / t.n + vc / c.n


def welch_df(adjustment: Adjustment) -> float:
    """Welch-Satterthwaite degrees of freedom of the adjusted per-user variances."""
    c, t = adjustment.control, adjustment.treatment
    a, b = c.variance / c.n, t.variance / t.n
    return (a + b) ** 2 / (a**2 / (c.n - 1) + b**2 / (t.n - 1))


def cuped_test(control, treatment, *, relative: bool = True, alpha: float = 0.05,
               proportion: bool = False) -> CupedResult:
    """Welch's t-test of CUPED-adjusted means, from sufficient statistics.

    Parameters
    ----------
    control, treatment : mapping
        ``n``, ``sum``, ``sum_squares`` of the metric, ``pre_sum``,
        ``pre_sum_squares`` of the pre-period covariate and ``sum_products``
        (see the module docstring). Without the pre-period keys the test is
        the plain Welch test (``theta = 0``).
    relative : bool, default True
        Relative lift over the control (delta method) or absolute difference.
    alpha : float, default 0.05
        The interval has confidence ``1 - alpha``.
    proportion : bool, default False
        A 0/1 metric: variance ``p (1 - p)``; ``sum_squares`` is then not
        needed, and without ``pre_sum_squares`` the covariate is 0/1 too
        (GrowthBook's binomial covariate), with it a number per user.

    Returns
    -------
    CupedResult

    Raises
    ------
    InputError
        ``n < 2`` in an arm; a metric with zero variance; a pre-period sum
        without its squares or products; with ``proportion=True`` a sum
        outside ``[0, n]``; a control mean of 0 for a relative lift.

    Examples
    --------
    >>> control = {"n": 1000, "sum": 5000.0, "sum_squares": 35000.0, "pre_sum": 4900.0,
    ...            "pre_sum_squares": 33000.0, "sum_products": 31000.0}
    >>> treatment = {"n": 1000, "sum": 5200.0, "sum_squares": 37000.0, "pre_sum": 4950.0,
    ...              "pre_sum_squares": 33500.0, "sum_products": 32000.0}
    >>> r = cuped_test(control, treatment)
    >>> round(r.estimate, 4), round(r.theta, 3), round(r.variance_reduction, 3)
    (0.0329, 0.71, 0.454)
    >>> round(r.pvalue, 3)
    0.123
    """
    alpha = check_probability(alpha, "alpha")
    adj = adjust(control, treatment, proportion=bool(proportion), relative=bool(relative))
    return test_adjustment(adj, relative=bool(relative), alpha=alpha)


def test_adjustment(adj: Adjustment, *, relative: bool, alpha: float,
                    df: float | None = None) -> CupedResult:
    """The test of an :class:`Adjustment` (``df=inf``: a normal test)."""
    estimate, variance = effect(adj, relative=relative)
    _, raw = effect(adj, relative=relative, adjusted=False)
    se = math.sqrt(variance)
    df = welch_df(adj) if df is None else float(df)
    dist = _st.norm if math.isinf(df) else _st.t(df)
    stat = estimate / se
    half = float(dist.ppf(1 - alpha / 2)) * se
    return CupedResult(float(estimate), ConfidenceInterval(estimate - half, estimate + half),
                       float(2 * dist.sf(abs(stat))), float(stat), float(df), se,
                       adj.theta, float(1 - variance / raw), relative,
                       adj.control.mean, adj.treatment.mean)


test_adjustment.__test__ = False  # not a pytest test


def _cell(stats, variant: str, column: str) -> float:
    if column not in stats.columns:
        raise InputError(f"reduced table is missing column {column!r}; reduce a log with a "
                         f"pre-period column (see reteval.ab.sufficient)")
    return float(stats.loc[variant, column])


def table_adjustment(stats, metric, control: str, treatment: str, covariate: str, *,
                     quantities: tuple[str, ...]) -> Adjustment:
    """The CUPED :class:`Adjustment` of one metric of a reduced table.

    ``metric`` is a :class:`reteval.ab.metrics.Metric`; ``covariate`` a
    ``pre_<name>`` column of ``stats``; ``quantities`` the order of the
    per-user quantities in the product columns' names. A ratio metric goes
    through :func:`ratio_adjustment`, a per-user mean or proportion through
    :func:`adjust`. The relative lift's check (a control of 0) is left to the
    caller.
    """
    def product(q, r):
        if r == covariate:
            return f"{q}*{r}" if q != covariate else f"{r}*{r}"
        a, b = sorted((q, r), key=quantities.index)
        return f"{a}*{b}"

    arms = []
    for v in (control, treatment):
        def cell(column, v=v):
            return _cell(stats, v, column)
        if metric.kind == "ratio":
            x, y, z = metric.numerator, metric.denominator, covariate
            arms.append({"n": cell("users"), "x": cell(x), "y": cell(y), "z": cell(z),
                         **{a + b: cell(product(p, q)) for a, p in (("x", x), ("y", y))
                            for b, q in (("x", x), ("y", y), ("z", z)) if a <= b},
                         "zz": cell(product(z, z))})
        else:
            x = metric.numerator
            arms.append({"n": cell("users"), "sum": cell(x), "sum_squares": cell(product(x, x)),
                         "pre_sum": cell(covariate),
                         "pre_sum_squares": cell(product(covariate, covariate)),
                         "sum_products": cell(product(x, covariate))})
    if metric.kind == "ratio":
        return ratio_adjustment(*arms, relative=False)
    return adjust(*arms, proportion=metric.kind == "proportion", relative=False, covariate=True)


def estimate_adjustment(n_control: int, value_control: float, var_control: float,
                        n_treatment: int, value_treatment: float,
                        var_treatment: float) -> Adjustment:
    """Arms without a covariate, from estimates and the variances of the estimates.

    Examples
    --------
    >>> a = estimate_adjustment(100, 0.5, 0.0025, 100, 0.6, 0.0024)
    >>> a.theta, a.control.variance
    (0.0, 0.25)
    """
    return Adjustment(Arm(int(n_control), value_control, var_control * n_control,
                          value_control, var_control * n_control),
                      Arm(int(n_treatment), value_treatment, var_treatment * n_treatment,
                          value_treatment, var_treatment * n_treatment), 0.0)
