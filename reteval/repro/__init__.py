"""Reproducibility and replicability of an experiment: did the reproduction get the same results?

A reproduction re-runs an original experiment (a baseline and an advanced
system) and asks at which level it agrees with it. Breuer et al. (SIGIR 2020)
measure each level:

=================  =====================================  ================================
level              question                               measures
=================  =====================================  ================================
document order     the same documents in the same order?  :func:`ktu`, :func:`rbo`
effectiveness      the same score on every topic?         :func:`rmse`
overall effect     the same improvement over the          :func:`effect_ratio`,
                   baseline?                              :func:`delta_ri`
significance       do the scores differ?                  :func:`ttest_pvalue`
=================  =====================================  ================================

*Reproducibility* runs the reproduction on the original's topics and qrels:
every level applies, the t test is paired. *Replicability* runs it on other
topics or another collection: only the overall effect and an unpaired t test
apply. :func:`report` computes them all from qrels and runs and prints the
paper's table (``reteval repro`` on the command line). The values follow the
definitions of the ``repro_eval`` package.

Examples
--------
>>> from reteval.repro import effect_ratio, rmse
>>> rmse({"q1": 0.5, "q2": 0.25}, {"q1": 0.25, "q2": 0.25})
0.1767766952966369
>>> effect_ratio([0.25, 0.5], [0.75, 1.0], [0.25, 0.5], [0.5, 0.75])
0.5
"""

from reteval._util.lazy import lazy_names

# Loaded on first use (PEP 562): ``reteval repro --help`` reads only ``commands``.
_HOME = {
    "delta_ri": "_effects", "effect_ratio": "_effects", "rmse": "_effects",
    "ttest_pvalue": "_effects", "ktu": "_order", "rbo": "_order",
    "DEFAULT_MEASURES": "_report", "ReproReport": "_report", "report": "_report",
}

__all__ = ["DEFAULT_MEASURES", "ReproReport", "delta_ri", "effect_ratio", "ktu", "rbo", "report",
           "rmse", "ttest_pvalue"]

__getattr__, __dir__ = lazy_names(__name__, {k: f"reteval.repro.{v}" for k, v in _HOME.items()},
                                  __all__)
