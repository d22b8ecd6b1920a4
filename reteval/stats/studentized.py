"""The studentized range distribution's upper tail, for many values at once.

Tukey's HSD (:func:`reteval.stats.tukey_hsd`, ``method="studentized"``) needs
``P(Q > q)`` for every pair of ``m`` systems: ``m (m - 1) / 2`` values of one
distribution with ``k = m`` means and ``df`` degrees of freedom. Calling
``scipy.stats.studentized_range.sf`` once per value runs an adaptive double
integral each time (seconds for 150 systems, with warnings); here one fixed
quadrature serves them all.

With ``R(w) = P(range of k standard normals > w)`` and ``s`` distributed as
``sqrt(chi2(df) / df)``,

    P(Q > q) = integral over s of f(s) R(q s) ds,
    R(w) = k * integral over z of phi(z) Phi(z)**(k-1) (1 - (1 - Phi(z - w) / Phi(z))**(k-1)) dz,

the second written so that a small tail is not ``1`` minus a number close to
``1`` (``-expm1((k - 1) log1p(-b / a))``). ``R`` is computed once on a grid of
``w`` by composite Gauss-Legendre quadrature in ``z`` and interpolated (a cubic
spline of ``log R``); the outer integral is a composite Gauss-Legendre rule in
``log s`` over the range where the density of ``log s`` is within ``e**-50`` of
its peak. The values equal ``scipy.stats.studentized_range.sf`` to 1e-8
(absolute) on the tests' grid (k from 2 to 300, df from 1 to 99,999 and inf);
``df = inf`` gives ``R(q)`` itself. (From df = 100,000 on scipy uses the
infinite-df distribution; this module keeps integrating.)

Examples
--------
>>> studentized_range_sf([3.5, 5.0], 3, 10).round(6).tolist()   # scipy: the same
[0.077103, 0.013616]
"""

from __future__ import annotations

import math

import numpy as np

from reteval._util.lazy import LazyModule

_special = LazyModule("scipy.special")
_interpolate = LazyModule("scipy.interpolate")

__all__ = ["studentized_range_sf"]

_GL_X, _GL_W = np.polynomial.legendre.leggauss(10)
_W_STEP = 0.025  # the grid of w on which R is computed
_W_BLOCK = 128  # values of w computed together
_Z_PANEL = 1.0  # the width of a panel in z, the scale of the normal density
_LOG_FLOOR = -700.0  # R below exp(-700) counts as 0
_U_PANEL = 0.1  # the widest panel in log s: R(q s) falls from 1 to 0 over a few of them


def _panels(low: float, high: float, n_panels: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of composite 10-point Gauss-Legendre on ``[low, high]``."""
    edges = np.linspace(low, high, n_panels + 1)
    half = np.diff(edges)[:, None] / 2
    nodes = (edges[:-1, None] + half) + half * _GL_X[None, :]
    return nodes.ravel(), (half * _GL_W[None, :]).ravel()


def _log_range_tail(w: np.ndarray, k: int) -> np.ndarray:
    """``log R(w)`` for an ascending array of ``w >= 0``, a block of ``w`` at a time (the
    integrand lives on ``z`` from -12 to ``w / 2 + 12``: at large ``w`` around ``w / 2``)."""
    out = np.empty(w.shape)
    for start in range(0, w.size, _W_BLOCK):
        part = w[start:start + _W_BLOCK, None]
        top_z = float(part[-1, 0]) / 2 + 12.0
        z, weight = _panels(-12.0, top_z, math.ceil((top_z + 12.0) / _Z_PANEL))
        log_a = _special.log_ndtr(z)
        base = (np.log(weight) - 0.5 * z * z - 0.5 * math.log(2 * math.pi)
                + (k - 1) * log_a)
        ratio = np.exp(_special.log_ndtr(z[None, :] - part) - log_a[None, :])
        with np.errstate(divide="ignore"):
            gap = np.log(-np.expm1((k - 1) * np.log1p(-np.minimum(ratio, 1.0))))
        terms = base[None, :] + gap
        peak = terms.max(axis=1, keepdims=True)
        out[start:start + _W_BLOCK] = (math.log(k) + peak[:, 0]
                                       + np.log(np.exp(terms - peak).sum(axis=1)))
    return np.minimum(out, 0.0)


def _log_s_rule(df: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes ``u = log s`` and weights (the density of ``u`` folded in) for ``df`` finite."""
    def drop(u: float) -> float:  # log density of u relative to its peak at u = 0
        return df * (u - math.expm1(2 * u) / 2)

    def edge(direction: float) -> float:
        near, far = 0.0, direction
        while drop(far) > -50.0:
            far *= 2
        for _ in range(80):
            mid = (near + far) / 2
            near, far = (mid, far) if drop(mid) > -50.0 else (near, mid)
        return far

    low, high = edge(-1.0), edge(1.0)
    u, weight = _panels(low, high, max(4, math.ceil((high - low) / _U_PANEL)))
    log_c = 0.5 * df * math.log(df) - math.lgamma(df / 2) - (df / 2 - 1) * math.log(2)
    log_density = log_c + df * u - df * np.exp(2 * u) / 2  # of u = log s: f(e^u) e^u
    return u, weight * np.exp(log_density)


def studentized_range_sf(q, k: int, df: float) -> np.ndarray:
    """``P(Q > q)`` of the studentized range with ``k`` means and ``df`` degrees of freedom.

    Parameters
    ----------
    q : array_like
        Values of the statistic; NaN gives NaN, ``q <= 0`` gives 1, ``inf`` gives 0.
    k : int
        Number of means, at least 2.
    df : float
        Degrees of freedom of the variance estimate, ``> 0`` (``inf``: known variance).

    Returns
    -------
    numpy.ndarray
        One tail probability per value of ``q``, in its shape.
    """
    q = np.asarray(q, dtype=np.float64)
    out = np.where(np.isnan(q), np.nan, np.where(q <= 0, 1.0, 0.0))
    inside = np.isfinite(q) & (q > 0)
    if not inside.any():
        return out
    values, where = np.unique(q[inside], return_inverse=True)
    if math.isinf(df):
        u, weight = np.zeros(1), np.ones(1)
    else:
        u, weight = _log_s_rule(float(df))
    # R(w) <= k (k - 1) P(Z > w / sqrt(2)) < exp(-700) beyond this w
    w_needed = min(values.max() * math.exp(u.max()), math.sqrt(2800 + 8 * math.log(k)))
    grid = np.arange(0.0, w_needed + 4 * _W_STEP, _W_STEP)
    log_tail = _log_range_tail(grid, k)
    keep = log_tail > _LOG_FLOOR
    spline = _interpolate.CubicSpline(grid[keep], log_tail[keep])
    last = grid[keep][-1]
    tails = np.zeros(values.size)
    chunk = max(1, (1 << 21) // u.size)
    for start in range(0, values.size, chunk):
        w = values[start:start + chunk, None] * np.exp(u)[None, :]
        log_r = np.where(w <= last, spline(np.minimum(w, last)), -np.inf)
        tails[start:start + chunk] = np.exp(log_r) @ weight
    out[inside] = np.minimum(tails, 1.0)[where]
    return out
