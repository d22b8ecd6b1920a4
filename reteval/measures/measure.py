"""One measure: :class:`Measure`, a family with an optional cutoff and parameters."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from reteval.errors import UnknownMeasureError
from reteval.measures.registry import BY_NAME, Family, not_a_number, unknown_measure

__all__ = ["Measure"]


class Measure:
    """One evaluation measure: a family, an optional rank cutoff and parameters.

    Build it with :func:`parse_measure`; ``str()`` gives the canonical name.

    Parameters
    ----------
    family : str
        The name of a :class:`Family` of :data:`REGISTRY`.
    cutoff : int or float, optional
        The rank cutoff ``k``; for ``IPrec``, the recall level in [0, 1]; for
        ``RprecMult``, the multiple of R.
    rel : int or float, optional
        Minimum grade that counts as relevant, for this measure only (``0.5`` for
        fractional grades).
    p : float, optional
        Persistence of ``RBP`` (default 0.8), ``TrecRBP`` and ``RBPResid`` (default 0.9).
    beta : float, optional
        Weight of ``SetF`` (default 1).
    gains : tuple of (int, float) pairs, optional
        Gain of some grades (the others gain their grade), sorted by grade.
    weights : tuple of 4 floats, optional
        ``Utility``'s a, b, c, d (default 1, -1, 0, 0).
    levels : tuple of float, optional
        ``IPrecAvg``'s recall levels (default 0, 0.1, ..., 1).
    judged_only : bool, optional
        Remove unjudged documents from the ranking first (trec_eval ``-J``).

    Examples
    --------
    >>> from reteval.measures import parse_measure
    >>> m = parse_measure("nDCG@10")
    >>> m
    Measure(family='nDCG', cutoff=10)
    >>> str(m)
    'nDCG@10'
    >>> parse_measure("MAP") == parse_measure("AP") == parse_measure("map")
    True
    >>> str(parse_measure("P(rel=2)@10")), str(parse_measure("RBP"))
    ('P(rel=2)@10', 'RBP(p=0.8)')
    >>> str(parse_measure("ndcg.1=3,2=9")), str(parse_measure("AP(judged_only=True)"))
    ('nDCG(1=3,2=9)', 'AP(judged_only=True)')
    >>> eval(repr(m)) == m
    True
    """

    # A plain class, not a dataclass: ``dataclasses`` loads ``inspect``, a fifth of what
    # ``reteval --help`` imports.
    _FIELDS = ("family", "cutoff", "rel", "p", "beta", "gains", "weights", "levels",
               "judged_only")
    __slots__ = _FIELDS
    # The slots' types once ``_check`` has normalised them (declarations only, no values).
    family: str
    cutoff: float | None
    rel: float | None
    p: float | None
    beta: float | None
    gains: tuple[tuple[int, float], ...] | None
    weights: tuple[float, ...] | None
    levels: tuple[float, ...] | None
    judged_only: bool | None

    def __init__(self, family: str, cutoff: float | None = None, rel: float | None = None,
                 p: float | None = None, beta: float | None = None,
                 gains: Mapping[int, float] | Iterable[tuple[int, float]] | None = None,
                 weights: Iterable[float] | None = None, levels: Iterable[float] | None = None,
                 judged_only: bool | None = None):
        values = (family, cutoff, rel, p, beta, gains, weights, levels, judged_only)
        for key, value in zip(self._FIELDS, values, strict=True):
            object.__setattr__(self, key, value)
        self._check()

    def __setattr__(self, key, value):
        raise AttributeError(f"a Measure cannot be changed; cannot assign to {key!r}")

    def __delattr__(self, key):
        raise AttributeError(f"a Measure cannot be changed; cannot delete {key!r}")

    def _fields(self) -> tuple:
        return tuple(getattr(self, key) for key in self._FIELDS)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())

    def __reduce__(self):
        return Measure, self._fields()

    @property
    def spec(self) -> Family:
        """The :class:`Family` record of this measure."""
        return BY_NAME[self.family]

    def _check(self):
        if self.family not in BY_NAME:
            raise unknown_measure(str(self.family))
        family = BY_NAME[self.family]
        for key, value in family.defaults.items():
            if getattr(self, key) is None:
                object.__setattr__(self, key, value)
        rule = family.cutoff
        name = f"{self.family}@{self.cutoff}"
        if self.cutoff is None and rule in ("required", "recall", "multiple"):
            example = {"recall": "IPrec@0.5", "multiple": "RprecMult@0.5"}.get(
                rule, f"{self.family}@10")
            raise UnknownMeasureError(
                f"measure {self.family!r} needs a cutoff, e.g. {example!r}"
            )
        if self.cutoff is not None:
            if rule == "none":
                raise UnknownMeasureError(
                    f"measure {self.family!r} takes no cutoff; got {name!r}"
                )
            if rule == "recall":
                if not_a_number(self.cutoff) or not 0 <= self.cutoff <= 1:
                    raise UnknownMeasureError(
                        f"the recall level of 'IPrec' must be a number in [0, 1]; "
                        f"got {self.cutoff!r}"
                    )
                object.__setattr__(self, "cutoff", float(self.cutoff))
            elif rule == "multiple":
                if not_a_number(self.cutoff) or not 0 < self.cutoff < math.inf:
                    raise UnknownMeasureError(
                        f"the multiple of R of 'RprecMult' must be a positive number; "
                        f"got {self.cutoff!r}"
                    )
                object.__setattr__(self, "cutoff", float(self.cutoff))
            elif (isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int)
                  or self.cutoff < 1):
                raise UnknownMeasureError(
                    f"the cutoff of {self.family!r} must be a positive integer; got {self.cutoff!r}"
                )
        for key in ("rel", "p", "beta", "gains", "weights", "levels", "judged_only"):
            if getattr(self, key) is not None and key not in family.params:
                raise UnknownMeasureError(
                    f"measure {self.family!r} takes no parameter {key!r}"
                    + (" (its gains are the grades)" if key == "rel" else "")
                )
        if self.rel is not None and (isinstance(self.rel, bool)
                                     or not isinstance(self.rel, (int, float))
                                     or not math.isfinite(self.rel) or self.rel < 0):
            raise UnknownMeasureError(
                f"rel of {self.family!r} must be a non-negative number; got {self.rel!r}"
            )
        if isinstance(self.rel, float) and self.rel.is_integer():
            object.__setattr__(self, "rel", int(self.rel))
        if self.p is not None and (not_a_number(self.p) or not 0 < self.p < 1):
            raise UnknownMeasureError(
                f"p of {self.family!r} must be a number in (0, 1); got {self.p!r}")
        if self.beta is not None and (not_a_number(self.beta) or not 0 < self.beta < math.inf):
            raise UnknownMeasureError(
                f"beta of 'SetF' must be a positive number; got {self.beta!r}"
            )
        if self.judged_only is not None and not isinstance(self.judged_only, bool):
            raise UnknownMeasureError(
                f"judged_only of {self.family!r} must be True or False; got {self.judged_only!r}")
        if self.judged_only is False:
            object.__setattr__(self, "judged_only", None)
        if self.gains is not None:
            try:
                gains = tuple(sorted((int(level), float(gain)) for level, gain in
                                     (self.gains.items() if isinstance(self.gains, dict)
                                      else self.gains)))
            except (TypeError, ValueError):
                raise UnknownMeasureError(
                    f"gains of {self.family!r} are (grade, gain) pairs; got {self.gains!r}"
                ) from None
            if not all(math.isfinite(g) for _, g in gains) or not gains:
                raise UnknownMeasureError(f"gains of {self.family!r} must be finite numbers")
            object.__setattr__(self, "gains", gains)
        if self.weights is not None:
            weights = tuple(self.weights)
            if len(weights) != 4 or any(not_a_number(w) or not math.isfinite(w) for w in weights):
                raise UnknownMeasureError(
                    f"the weights of 'Utility' are 4 numbers (a, b, c, d); got {self.weights!r}")
            object.__setattr__(self, "weights", tuple(float(w) for w in weights))
        if self.levels is not None:
            levels = tuple(self.levels)
            if not levels or any(not_a_number(v) or not math.isfinite(v) for v in levels):
                raise UnknownMeasureError(
                    f"the levels of 'IPrecAvg' are numbers; got {self.levels!r}")
            object.__setattr__(self, "levels", tuple(float(v) for v in levels))

    def __repr__(self) -> str:
        fields = [f"family={self.family!r}"]
        fields += [f"{key}={getattr(self, key)!r}" for key in self._FIELDS[1:]
                   if getattr(self, key) is not None]
        return f"Measure({', '.join(fields)})"

    def __str__(self) -> str:
        params = []
        if self.rel is not None:
            params.append(f"rel={self.rel}")
        params += [f"{key}={getattr(self, key):g}" for key in ("p", "beta")
                   if getattr(self, key) is not None]
        if self.gains is not None:
            params += [f"{level}={gain:g}" for level, gain in self.gains]
        if self.weights is not None:
            params += [f"{key}={w:g}" for key, w in zip("abcd", self.weights, strict=True)]
        if self.levels is not None:
            params.append("levels=" + ";".join(f"{v:g}" for v in self.levels))
        if self.judged_only:
            params.append("judged_only=True")
        text = self.family + (f"({','.join(params)})" if params else "")
        if self.cutoff is None:
            return text
        if self.spec.cutoff in ("recall", "multiple"):
            return f"{text}@{self.cutoff!r}"
        return f"{text}@{self.cutoff}"


