"""Analysis of an A/B experiment: per-variant summary, tests, CIs, SRM, verdict.

:func:`analyze` reads only a reduced table of sufficient statistics (see
:mod:`reteval.ab.sufficient`), one row per variant, so the same call serves a
log held in pandas (``analyze(reduce_log(log))``) and a log reduced elsewhere.

For each treatment against the control and each metric it reports both
values, the absolute difference with a confidence interval, the relative
lift with a delta-method interval, a test, and the minimum detectable effect
at the experiment's size. The test depends on the metric's kind:

* ratio metrics per query (satisfaction, click-through, clicks per query):
  a z-test with the delta-method variance of each variant's ratio, because
  the user, not the query, is the randomised unit;
* per-user means: Welch's t-test;
* per-user 0/1 proportions: the two-proportion z-test with pooled variance
  (interval: the unpooled normal interval).

Both intervals of a comparison, the absolute difference's and the relative
lift's, follow one convention (that of :mod:`reteval.ab.stats`): estimate
plus or minus a quantile times a standard error, the quantile taken from the
test's own reference distribution. For per-user means that is Student's t
with the Welch-Satterthwaite degrees of freedom for both intervals; for the
z-tested metrics, the standard normal for both. The lift's standard error is
the delta method's.

Primary metrics are corrected for multiplicity with Holm's method over all
(treatment, primary metric) pairs. Guardrail metrics are not corrected (an
uncorrected test blocks more easily, which is the safe side): a guardrail
whose change is significant at ``alpha`` in its bad direction blocks a
"ship" decision. A sample ratio mismatch (p below ``srm_threshold``) makes
the whole experiment "invalid".

A metric with a pre-period covariate (``covariates={"satisfaction":
"pre_satisfaction"}``, a ``pre_`` column of the reduced table) is CUPED-adjusted
(:mod:`reteval.ab.cuped`): its difference, interval, test and detectable
change are those of the adjusted means (Welch's t for per-user metrics, as
GrowthBook computes them; the delta-method z for ratios), while
``control_value`` and ``treatment_value`` stay the observed values;
``theta`` and ``variance_reduction`` say how much the covariate helped.

``engine="bayesian"`` adds GrowthBook's Bayesian readout of the relative
lift (:mod:`reteval.ab.bayesian`, flat prior): the posterior's chance that
the treatment is better, the expected loss (risk) of choosing either arm, and
a credible interval. A metric then counts as better (worse) when its chance
to win is at least ``1 - alpha`` (at most ``alpha``), without a correction
for multiplicity; the frequentist numbers stay in the table beside it.

Decision rule, per treatment: *ship* when at least one primary metric
improved significantly, none got significantly worse and no guardrail
degraded; *do not ship* when a primary metric got worse or a guardrail
degraded; otherwise *inconclusive*. With several treatments the shippable one
with the largest relative lift on the first primary metric is recommended.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from reteval._util.catalogue import TEXTS, check_lang, join_names, phrase
from reteval._util.languages import language
from reteval._util.validation import check_probability
from reteval.ab.assignment import Experiment
from reteval.ab.bayesian import posterior
from reteval.ab.cuped import estimate_adjustment, table_adjustment, test_adjustment
from reteval.ab.metrics import Metric, estimate, get_metric
from reteval.ab.stats import (
    SRMResult,
    relative_lift,
    srm_test,
    two_proportion_ztest,
    welch_test,
    z_test,
)
from reteval.ab.sufficient import USER_QUANTITIES
from reteval.errors import InputError
from reteval.stats import adjust_pvalues, format_pvalue

__all__ = ["ABResult", "MetricResult", "analyze", "metric_label", "summarize_variants"]


@dataclass(frozen=True)
class MetricResult:
    """One metric, one treatment against the control.

    Attributes
    ----------
    metric, role : str
        Metric name; ``"primary"`` or ``"guardrail"``.
    control, treatment : str
    control_value, treatment_value : float
    difference, ci_low, ci_high : float
        Treatment minus control and its confidence interval (unadjusted).
    relative_lift, lift_ci_low, lift_ci_high : float
        ``treatment / control - 1`` with a delta-method interval (same
        quantile as the difference's interval).
    test : str
        ``"delta-method z"``, ``"Welch t"`` or ``"two-proportion z"``.
    statistic, df, pvalue : float
        ``df`` is ``inf`` for z-tests.
    pvalue_adjusted : float
        Holm-adjusted for primary metrics; equal to ``pvalue`` for guardrails.
    mde : float
        Absolute difference this experiment detects with the analysis'
        power (normal approximation ``(z_{1-alpha/2} + z_power) * se``).
    significant : bool
        ``pvalue_adjusted < alpha``.
    outcome : str
        ``"better"``, ``"worse"`` (significant, in the metric's good or bad
        direction) or ``"no detectable change"``.
    covariate : str or None
        The pre-period covariate of a CUPED-adjusted comparison.
    theta, variance_reduction : float
        CUPED's coefficient and the share of the difference's variance it
        removed (0 without a covariate).
    engine : str
        ``"frequentist"`` or ``"bayesian"``.
    chance_to_win, risk_control, risk_treatment : float
        The Bayesian readout of the relative lift (NaN with the frequentist
        engine): the probability that the treatment is better and the
        expected relative loss of choosing the control, the treatment.
    credible_low, credible_high : float
        The ``1 - alpha`` credible interval of the relative lift.
    """

    metric: str
    role: str
    control: str
    treatment: str
    control_value: float
    treatment_value: float
    difference: float
    ci_low: float
    ci_high: float
    relative_lift: float
    lift_ci_low: float
    lift_ci_high: float
    test: str
    statistic: float
    df: float
    pvalue: float
    pvalue_adjusted: float
    mde: float
    significant: bool
    outcome: str
    covariate: str | None = None
    theta: float = 0.0
    variance_reduction: float = 0.0
    engine: str = "frequentist"
    chance_to_win: float = math.nan
    risk_control: float = math.nan
    risk_treatment: float = math.nan
    credible_low: float = math.nan
    credible_high: float = math.nan


@dataclass(frozen=True, eq=False)
class ABResult:
    """The analysis of an experiment.

    Attributes
    ----------
    control : str
    alpha : float
    variants : pandas.DataFrame
        Per-variant summary (:func:`summarize_variants`).
    srm : SRMResult
    comparisons : tuple of MetricResult
    decision : str
        ``"ship"``, ``"do not ship"``, ``"inconclusive"`` or ``"invalid"``.
    recommended : str or None
        The variant to ship, when the decision is "ship".
    verdict : str
        One paragraph in plain language.
    experiment : str or None
    """

    control: str
    alpha: float
    variants: pd.DataFrame
    srm: SRMResult
    comparisons: tuple[MetricResult, ...]
    decision: str
    recommended: str | None
    verdict: str
    experiment: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """The comparisons as a DataFrame, one row per (treatment, metric)."""
        rows = [asdict(c) for c in self.comparisons]
        return pd.DataFrame(rows).set_index(["treatment", "metric"])

    def comparison(self, metric: str, treatment: str | None = None) -> MetricResult:
        """The comparison of one metric (for the only treatment unless named)."""
        found = [c for c in self.comparisons if c.metric == metric
                 and (treatment is None or c.treatment == treatment)]
        if len(found) != 1:
            raise InputError(f"no single comparison for metric {metric!r} and treatment "
                             f"{treatment!r}; there are {len(found)}")
        return found[0]

    def to_dict(self) -> dict:
        """A JSON-ready dict (NaN and infinities become None)."""
        def clean(x):
            if isinstance(x, float) and not math.isfinite(x):
                return None
            if isinstance(x, (np.floating, np.integer)):
                return clean(x.item())
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, (list, tuple)):
                return [clean(v) for v in x]
            return x
        srm = asdict(self.srm) | {"flagged": self.srm.flagged}
        variants = {v: row for v, row in self.variants.to_dict(orient="index").items()}
        return clean({"experiment": self.experiment, "control": self.control,
                      "alpha": self.alpha, "decision": self.decision,
                      "recommended": self.recommended, "verdict": self.verdict, "srm": srm,
                      "variants": variants,
                      "comparisons": [asdict(c) for c in self.comparisons]})


def summarize_variants(stats: pd.DataFrame, *, shares=None) -> pd.DataFrame:
    """The chapter's per-variant table, from a reduced table.

    Columns: ``users``, ``queries``, ``satisfaction_rate`` (satisfied among
    queries with feedback), ``ctr`` (queries with a click), ``clicks_per_query``,
    ``avg_retrieved``, and ``share`` (observed share of users) plus
    ``expected_share`` when ``shares`` is given.

    Examples
    --------
    >>> from reteval.ab.sufficient import reduce_log
    >>> log = pd.DataFrame({"variant": ["A", "A", "B"], "user_id": ["u1", "u2", "u3"],
    ...                     "feedback": [1, 0, 1], "n_clicks": [1, 0, 2],
    ...                     "n_retrieved": [10, 10, 8]})
    >>> summarize_variants(reduce_log(log))[["users", "satisfaction_rate", "ctr", "avg_retrieved"]]
             users  satisfaction_rate  ctr  avg_retrieved
    variant
    A            2                0.5  0.5           10.0
    B            1                1.0  1.0            8.0
    """
    out = pd.DataFrame({"users": stats["users"].astype("int64"),
                        "queries": stats["queries"].astype("int64")}, index=stats.index)
    for col, metric in (("satisfaction_rate", "satisfaction"), ("ctr", "ctr"),
                        ("clicks_per_query", "clicks_per_query"),
                        ("avg_retrieved", "avg_retrieved")):
        out[col] = estimate(stats, metric)["value"]
    out["share"] = out["users"] / out["users"].sum()
    if shares is not None:
        out["expected_share"] = list(shares)
    return out


def _number(m: Metric, x: float) -> str:
    """A difference without its unit: ``+1.25`` (points) or ``+0.031``."""
    return f"{100 * x:+.2f}" if m.percent else f"{x:+.4g}"


def _fmt_diff(m: Metric, x: float, lang: str = "en") -> str:
    if not math.isfinite(x):
        return phrase("ab.na", lang)
    return phrase("ab.points", lang, x=100 * x) if m.percent else f"{x:+.4g}"


def metric_label(m: Metric, lang: str = "en") -> str:
    """The metric's plain-language name in ``lang`` (a metric of one's own keeps its label).

    Examples
    --------
    >>> from reteval.ab.metrics import get_metric
    >>> metric_label(get_metric("ctr"), "zh"), metric_label(get_metric("ctr"))
    ('点击率', 'click-through rate')
    """
    if lang == "en" or f"ab.metric.{m.name}" not in TEXTS:
        return m.label
    return phrase(f"ab.metric.{m.name}", lang)


def _fmt_p(p: float) -> str:
    """'= 0.0310', '< 0.0001' or '= n/a', to follow a 'p'."""
    text = format_pvalue(p, missing="n/a")
    return text if text.startswith("<") else f"= {text}"


def _compare(m: Metric, role: str, est: pd.DataFrame, stats: pd.DataFrame, control: str,
             treatment: str, alpha: float, power: float, covariate: str | None = None,
             engine: str = "frequentist") -> dict:
    c, t = est.loc[control], est.loc[treatment]
    vc, vt = float(c["value"]), float(t["value"])
    varc, vart = float(c["variance"]), float(t["variance"])
    nc, nt = int(c["users"]), int(t["users"])
    diff = vt - vc
    se = math.sqrt(vart + varc) if math.isfinite(vart + varc) else math.nan
    zcrit = norm.ppf(1 - alpha / 2)
    extra = {"engine": engine}
    if covariate is not None:
        adj = table_adjustment(stats, m, control, treatment, covariate,
                               quantities=USER_QUANTITIES)
        df = math.inf if m.kind == "ratio" else None
        res = test_adjustment(adj, relative=False, alpha=alpha, df=df)
        df, diff, se = res.df, res.estimate, res.standard_error
        ci, test = res.ci, "CUPED " + ("delta-method z" if m.kind == "ratio" else "Welch t")
        stat_p = (res.statistic, res.pvalue)
        lift, llo, lhi = math.nan, math.nan, math.nan
        if vc != 0 and math.isfinite(vc):
            rel = test_adjustment(adj, relative=True, alpha=alpha, df=res.df)
            lift, (llo, lhi) = rel.estimate, rel.ci
        extra |= {"covariate": covariate, "theta": adj.theta,
                  "variance_reduction": res.variance_reduction}
    else:
        if m.kind == "mean" and nc >= 2 and nt >= 2:
            res = welch_test(vt, vart * nt, nt, vc, varc * nc, nc)
            test = "Welch t"
        elif m.kind == "proportion" and nc > 0 and nt > 0:
            res = two_proportion_ztest(int(stats.loc[treatment, m.numerator]), nt,
                                       int(stats.loc[control, m.numerator]), nc)
            test = "two-proportion z"
        else:
            res = z_test(diff, se) if math.isfinite(se) else None
            test = "delta-method z" if m.kind == "ratio" else "z"
        df = math.inf if res is None else res.df
        ci = (math.nan, math.nan) if res is None else res.confidence_interval(1 - alpha)
        stat_p = (math.nan, math.nan) if res is None else (res.statistic, res.pvalue)
        lift_result = relative_lift(vt, vart, vc, varc, df=df if math.isfinite(df) else math.inf)
        llo, lhi = lift_result.confidence_interval(1 - alpha)
        lift = lift_result.lift
        adj = None
        if min(varc, vart) > 0 and vc != 0:
            adj = estimate_adjustment(nc, vc, varc, nt, vt, vart)
    if engine == "bayesian" and adj is not None and vc != 0 and math.isfinite(vc):
        post = posterior(adj, relative=True, alpha=alpha, higher_is_better=m.higher_is_better)
        extra |= {"chance_to_win": post.chance_to_win, "risk_control": post.risk[0],
                  "risk_treatment": post.risk[1], "credible_low": post.ci.low,
                  "credible_high": post.ci.high}
    return {"metric": m.name, "role": role, "control": control, "treatment": treatment,
            "control_value": vc, "treatment_value": vt, "difference": diff,
            "ci_low": ci[0], "ci_high": ci[1], "relative_lift": lift,
            "lift_ci_low": llo, "lift_ci_high": lhi, "test": test,
            "statistic": stat_p[0], "df": df, "pvalue": stat_p[1],
            "mde": (zcrit + norm.ppf(power)) * se, **extra}


def analyze(stats: pd.DataFrame, *, experiment: Experiment | None = None,
            metrics=("satisfaction", "ctr"), guardrails=(), alpha: float = 0.05,
            srm_threshold: float = 0.001, power: float = 0.8, lang: str = "en",
            covariates=None, engine: str = "frequentist") -> ABResult:
    """Analyse an experiment from its reduced table.

    Parameters
    ----------
    stats : pandas.DataFrame
        Sufficient statistics, one row per variant
        (:func:`reteval.ab.sufficient.reduce_log`).
    experiment : Experiment, optional
        The design: control (first variant) and traffic shares for the SRM
        check. Without it the first variant of ``stats`` is the control and
        the shares are equal.
    metrics : sequence of str or Metric, default ("satisfaction", "ctr")
        Primary metrics (see :data:`reteval.ab.metrics.METRICS`).
    guardrails : sequence of str or Metric, default ()
        Metrics that must not degrade.
    alpha : float, default 0.05
        Family-wise level for the primary metrics; level of each guardrail
        test; intervals have confidence ``1 - alpha``.
    srm_threshold : float, default 0.001
    power : float, default 0.8
        For the minimum detectable effects.
    lang : {"en", "zh"}, default "en"
        Language of the verdict; both carry the same numbers (differences,
        intervals, relative lifts, p-values, the detectable change of every
        metric without one).
    covariates : mapping of str to str, optional
        A pre-period covariate per metric, e.g. ``{"satisfaction":
        "pre_satisfaction"}``: a ``pre_`` column of ``stats`` (reduce a log
        that has one); the metric is CUPED-adjusted (see the module docstring).
    engine : {"frequentist", "bayesian"}, default "frequentist"
        Which readout decides: the tests (Holm-corrected) or the Bayesian
        chance to win (see the module docstring).

    Returns
    -------
    ABResult

    Examples
    --------
    >>> from reteval.ab.sufficient import reduce_log
    >>> rng = np.random.default_rng(0)
    >>> n = 4000
    >>> variant = np.where(np.arange(n) % 2 == 0, "A", "B")
    >>> log = pd.DataFrame({"variant": variant, "user_id": [f"u{i}" for i in range(n)],
    ...                     "feedback": rng.binomial(1, np.where(variant == "A", 0.60, 0.66)),
    ...                     "n_clicks": rng.poisson(1.0, n), "n_retrieved": 10})
    >>> result = analyze(reduce_log(log), metrics=["satisfaction"])
    >>> result.decision, result.recommended
    ('ship', 'B')
    >>> c = result.comparison("satisfaction")
    >>> round(c.difference, 4), c.test, c.pvalue < 0.01
    (0.0485, 'delta-method z', True)

    The same experiment read the Bayesian way:

    >>> b = analyze(reduce_log(log), metrics=["satisfaction"], engine="bayesian")
    >>> c = b.comparison("satisfaction")
    >>> b.decision, round(c.chance_to_win, 4), c.risk_treatment < 0.001
    ('ship', 0.9989, True)
    """
    alpha = check_probability(alpha, "alpha")
    check_lang(lang)
    srm_threshold = check_probability(srm_threshold, "srm_threshold")
    if not isinstance(stats, pd.DataFrame) or "users" not in stats.columns:
        raise InputError("stats must be a reduced table (a DataFrame with a 'users' column, "
                         "one row per variant); build it with reteval.ab.sufficient.reduce_log")
    if isinstance(metrics, (str, Metric)) or isinstance(guardrails, (str, Metric)):
        raise InputError("metrics and guardrails must be sequences of metric names")
    primary = [get_metric(m) for m in metrics]
    guards = [get_metric(m) for m in guardrails]
    if not primary:
        raise InputError("metrics must name at least one primary metric")
    names = [m.name for m in primary + guards]
    if len(set(names)) != len(names):
        raise InputError(f"a metric is listed twice among metrics and guardrails: {names!r}")
    if engine not in ("frequentist", "bayesian"):
        raise InputError(f"engine must be 'frequentist' or 'bayesian'; got {engine!r}")
    covariates = _check_covariates(covariates, names, stats)

    present = [str(v) for v in stats.index]
    if experiment is not None:
        unknown = sorted(set(present) - set(experiment.variants))
        if unknown:
            raise InputError(f"stats hold variant(s) {unknown!r} that experiment "
                             f"{experiment.name!r} does not define ({experiment.variants!r})")
        variants, shares = list(experiment.variants), list(experiment.shares)
        stats = stats.reindex(variants, fill_value=0)
    else:
        variants, shares = present, [1 / len(present)] * len(present)
    if len(variants) < 2:
        raise InputError(f"an A/B analysis needs at least 2 variants; got {variants!r}")
    stats = stats.rename_axis("variant")  # a new frame: the caller's table is left alone
    control, treatments = variants[0], variants[1:]
    srm = srm_test(stats["users"].to_numpy(), shares, variants=variants,
                   threshold=srm_threshold)

    rows = []
    for m in primary + guards:
        est = estimate(stats, m)
        role = "primary" if m in primary else "guardrail"
        for t in treatments:
            rows.append((m, _compare(m, role, est, stats, control, t, alpha, power,
                                     covariates.get(m.name), engine)))
    prim_idx = [i for i, (m, r) in enumerate(rows) if r["role"] == "primary"]
    adjusted = adjust_pvalues([rows[i][1]["pvalue"] for i in prim_idx], method="holm")
    for i, p in zip(prim_idx, adjusted, strict=True):
        rows[i][1]["pvalue_adjusted"] = float(p)
    comparisons = []
    for m, r in rows:
        r.setdefault("pvalue_adjusted", r["pvalue"])
        sig = bool(r["pvalue_adjusted"] < alpha)
        good = (r["difference"] > 0) == m.higher_is_better
        if engine == "bayesian":
            win = r.get("chance_to_win", math.nan)
            sig = bool(win >= 1 - alpha or win <= alpha)
            good = bool(win >= 1 - alpha)
        r["significant"] = sig
        r["outcome"] = ("better" if good else "worse") if sig else "no detectable change"
        comparisons.append(MetricResult(**r))

    decision, recommended, per_t = _decide(comparisons, treatments, primary, srm)
    table = summarize_variants(stats, shares=shares)
    verdict = _verdict(table, comparisons, primary + guards, control, treatments, srm,
                       decision, recommended, per_t, alpha, experiment, lang)
    return ABResult(control, float(alpha), table, srm, tuple(comparisons), decision,
                    recommended, verdict, None if experiment is None else experiment.name)


def _check_covariates(covariates, names, stats) -> dict:
    if covariates is None:
        return {}
    if not isinstance(covariates, dict):
        raise InputError(f"covariates must map metric names to pre-period columns, e.g. "
                         f"{{'satisfaction': 'pre_satisfaction'}}; got {covariates!r}")
    available = [c for c in stats.columns if str(c).startswith("pre_") and "*" not in str(c)]
    for metric, column in covariates.items():
        if metric not in names:
            raise InputError(f"covariates name metric {metric!r}, which is not analysed "
                             f"(metrics and guardrails: {names!r})")
        if column not in available:
            raise InputError(f"covariate {column!r} of metric {metric!r} is not in the reduced "
                             f"table; its pre-period columns: {available!r} (a log column "
                             "pre_<name>, one value per user, adds one)")
    return dict(covariates)


def _bayes_sentence(c: MetricResult, head: str, level: str, say) -> str:
    if not math.isfinite(c.chance_to_win):
        return say("bayes_na", head=head)
    blocks = say("blocks") if c.role == "guardrail" and c.outcome == "worse" else ""
    so = (say("bayes_open") if c.outcome == "no detectable change" else
          say("bayes_decided", treatment=c.treatment, outcome=say(c.outcome), blocks=blocks))
    return say("bayes", head=head, lift=c.relative_lift, level=level, low=c.credible_low,
               high=c.credible_high, treatment=c.treatment, ctw=c.chance_to_win,
               risk_t=c.risk_treatment, risk_c=c.risk_control, so=so)


def _decide(comparisons, treatments, primary, srm):
    per_t = {}
    for t in treatments:
        mine = [c for c in comparisons if c.treatment == t]
        better = any(c.role == "primary" and c.outcome == "better" for c in mine)
        harm = [c for c in mine if c.outcome == "worse"]
        per_t[t] = "ship" if better and not harm else "do not ship" if harm else "inconclusive"
    if srm.flagged:
        return "invalid", None, per_t
    ship = [t for t in treatments if per_t[t] == "ship"]
    if ship:
        first = primary[0].name
        lifts = {t: next(c.relative_lift for c in comparisons
                         if c.treatment == t and c.metric == first) for t in ship}
        best = max(ship, key=lambda t: (np.nan_to_num(lifts[t], nan=-np.inf), -ship.index(t)))
        return "ship", best, per_t
    if all(per_t[t] == "do not ship" for t in treatments):
        return "do not ship", None, per_t
    return "inconclusive", None, per_t


def _verdict(table, comparisons, metrics, control, treatments, srm, decision, recommended,
             per_t, alpha, experiment, lang="en") -> str:
    def say(key, **fields):
        return phrase(f"ab.{key}", lang, **fields)

    level = f"{1 - alpha:.0%}"
    users = join_names([say("users_in_first" if i == 0 else "users_in",
                            n=table.loc[v, "users"], variant=v)
                        for i, v in enumerate(table.index)], lang)
    design = "/".join(f"{s:.0%}" for s in table["expected_share"])
    name = say("named", name=experiment.name) if experiment is not None else say("unnamed")
    parts = [say("compared", name=name, treatments=join_names(treatments, lang),
                 control=control, users=users, design=design)]
    if srm.flagged:
        parts.append(say("srm_bad", p=_fmt_p(srm.pvalue), threshold=srm.threshold))
    else:
        parts.append(say("srm_ok", p=_fmt_p(srm.pvalue)))
    by_metric = {m.name: m for m in metrics}
    for c in comparisons:
        m = by_metric[c.metric]
        label = metric_label(m, lang)
        label = say("guardrail", label=label) if c.role == "guardrail" else label
        head = say("head", label=label[0].upper() + label[1:], control=c.control,
                   cv=m.format(c.control_value), treatment=c.treatment,
                   tv=m.format(c.treatment_value))
        cuped = [say("cuped", covariate=c.covariate, label=metric_label(m, lang),
                     reduction=c.variance_reduction)] if c.covariate is not None else []
        if c.engine == "bayesian":
            parts.append(_bayes_sentence(c, head, level, say))
            parts.extend(cuped)
            continue
        p_text = say("p_holm" if c.role == "primary" else "p_plain",
                     p=_fmt_p(c.pvalue_adjusted))
        if c.outcome == "no detectable change":
            parts.append(say("no_change", head=head, p=p_text,
                             mde=_fmt_diff(m, c.mde, lang).lstrip("+")))
            parts.extend(cuped)
            continue
        lift = say("relative", lift=c.relative_lift) if math.isfinite(c.relative_lift) else ""
        low = _number(m, c.ci_low) if math.isfinite(c.ci_low) else say("na")
        parts.append(say("changed", head=head, diff=_fmt_diff(m, c.difference, lang),
                         level=level, low=low, high=_fmt_diff(m, c.ci_high, lang), lift=lift,
                         p=p_text, treatment=c.treatment, outcome=say(c.outcome),
                         blocks=say("blocks") if c.role == "guardrail" and c.outcome == "worse"
                         else ""))
        parts.extend(cuped)
    parts.append(say(decision.replace(" ", "_"), recommended=recommended))
    if len(treatments) > 1 and decision != "invalid":
        items = say("sep").join(say("item", name=t, value=say("decision_" + d.replace(" ", "_")))
                                for t, d in per_t.items())
        parts.append(say("per_treatment", items=items))
    return language(lang).sentence_separator.join(parts)
