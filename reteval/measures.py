"""Measure names: parsing ``"nDCG@10"`` into a frozen, hashable spec.

Names follow ir_measures: a family, optionally ``@`` and a rank cutoff.

============  ==================================  ==================  ============
family        what it is                          trec_eval name      cutoff
============  ==================================  ==================  ============
``P``         precision at k                      ``P.k``             required
``R``         recall at k                         ``recall.k``        required
``RR``        reciprocal rank of the first        ``recip_rank``      optional
              relevant document (alias ``MRR``)
``AP``        average precision (alias ``MAP``)   ``map``,            optional
                                                  ``map_cut.k``
``nDCG``      normalised DCG, linear gain         ``ndcg``,           optional
                                                  ``ndcg_cut.k``
``nDCG_exp``  nDCG with the chapter's gain        (none)              optional
              ``2**rel - 1``
``Rprec``     precision at R = number relevant    ``Rprec``           none
``Bpref``     binary preference                   ``bpref``           none
``Success``   1 if a relevant document is in      ``success.k``       required
              the top k
``Judged``    share of the top k that is judged   (none)              required
``NumRet``    documents retrieved                 ``num_ret``         none
``NumRel``    relevant documents judged           ``num_rel``         none
``NumRelRet`` relevant documents retrieved        ``num_rel_ret``     none
============  ==================================  ==================  ============

trec_eval's own spellings (``ndcg_cut.10``, ``ndcg_cut_10``, ``P_5``, ``map``,
``recip_rank``...) are accepted too and mean the same measure. Family names are
matched without regard to case.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from reteval.errors import UnknownMeasureError

__all__ = ["DEFAULT_MEASURES", "MEASURE_FAMILIES", "Measure", "parse_measure", "parse_measures"]

# family -> (cutoff rule, one-line description)
MEASURE_FAMILIES: dict[str, tuple[str, str]] = {
    "P": ("required", "precision at k"),
    "R": ("required", "recall at k"),
    "RR": ("optional", "reciprocal rank of the first relevant document"),
    "AP": ("optional", "average precision over all judged relevant documents"),
    "nDCG": ("optional", "normalised discounted cumulative gain, linear gain (trec_eval)"),
    "nDCG_exp": ("optional", "nDCG with exponential gain 2**rel - 1 (the chapter's variant)"),
    "Rprec": ("none", "precision at rank R, R = number of relevant documents"),
    "Bpref": ("none", "binary preference (Buckley & Voorhees 2004)"),
    "Success": ("required", "1 if a relevant document is in the top k, else 0"),
    "Judged": ("required", "share of the top k retrieved documents that are judged"),
    "NumRet": ("none", "number of documents retrieved"),
    "NumRel": ("none", "number of relevant documents judged"),
    "NumRelRet": ("none", "number of relevant documents retrieved"),
}

_ALIASES = {"MRR": "RR", "MAP": "AP", "NDCG": "nDCG"}

# trec_eval spellings: name -> (family, takes a cutoff)
_TREC_NAMES = {
    "map": ("AP", False),
    "map_cut": ("AP", True),
    "recip_rank": ("RR", False),
    "ndcg": ("nDCG", False),
    "ndcg_cut": ("nDCG", True),
    "recall": ("R", True),
    "success": ("Success", True),
    "num_ret": ("NumRet", False),
    "num_rel": ("NumRel", False),
    "num_rel_ret": ("NumRelRet", False),
}

DEFAULT_MEASURES = ("P@5", "P@10", "R@10", "R@100", "RR", "AP", "nDCG@10")

_FAMILY_BY_LOWER = {name.lower(): name for name in MEASURE_FAMILIES}
_FAMILY_BY_LOWER.update({alias.lower(): family for alias, family in _ALIASES.items()})
_NAME_RE = re.compile(r"^(?P<family>[A-Za-z_]+?)(?:@(?P<cutoff>[^@]*))?$")
_TREC_RE = re.compile(r"^(?P<family>[A-Za-z_]+?)(?:[._](?P<cutoff>\d+))?$")


@dataclass(frozen=True, order=True)
class Measure:
    """One evaluation measure: a family and an optional rank cutoff.

    Build it with :func:`parse_measure`; ``str()`` gives the canonical name.

    Examples
    --------
    >>> m = parse_measure("nDCG@10")
    >>> m
    Measure(family='nDCG', cutoff=10)
    >>> str(m)
    'nDCG@10'
    >>> parse_measure("MAP") == parse_measure("AP") == parse_measure("map")
    True
    >>> eval(repr(m)) == m
    True
    """

    family: str
    cutoff: int | None = None

    def __post_init__(self):
        if self.family not in MEASURE_FAMILIES:
            raise _unknown(self.family)
        rule = MEASURE_FAMILIES[self.family][0]
        if self.cutoff is None and rule == "required":
            raise UnknownMeasureError(
                f"measure {self.family!r} needs a rank cutoff, e.g. '{self.family}@10'"
            )
        if self.cutoff is not None:
            if rule == "none":
                raise UnknownMeasureError(
                    f"measure {self.family!r} takes no cutoff; got '{self.family}@{self.cutoff}'"
                )
            if isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int) or self.cutoff < 1:
                raise UnknownMeasureError(
                    f"the cutoff of {self.family!r} must be a positive integer; got {self.cutoff!r}"
                )

    def __str__(self) -> str:
        return self.family if self.cutoff is None else f"{self.family}@{self.cutoff}"


def _unknown(name: str) -> UnknownMeasureError:
    valid = sorted(MEASURE_FAMILIES) + sorted(_ALIASES)
    family = name.split("@")[0]
    near = difflib.get_close_matches(family, valid, n=1, cutoff=0.5)
    if not near:
        lowered = {v.lower(): v for v in valid}
        near = [lowered[m] for m in difflib.get_close_matches(family.lower(), lowered, n=1)]
    hint = f" Did you mean {near[0]!r}?" if near else ""
    return UnknownMeasureError(
        f"unknown measure {name!r}.{hint} Valid measures: {', '.join(valid)} "
        "(with '@k' for a cutoff, e.g. 'nDCG@10')"
    )


def parse_measure(name: str | Measure) -> Measure:
    """Parse a measure name such as ``"P@10"``, ``"MRR"`` or ``"ndcg_cut.10"``.

    Parameters
    ----------
    name : str or Measure
        An ir_measures-style name (``family`` or ``family@k``) or a trec_eval
        name. A :class:`Measure` is returned unchanged.

    Returns
    -------
    Measure

    Raises
    ------
    UnknownMeasureError
        For an unknown family (the message lists the valid names and suggests
        the nearest), a missing or forbidden cutoff, or a cutoff that is not a
        positive integer.

    Examples
    --------
    >>> parse_measure("MRR@10")
    Measure(family='RR', cutoff=10)
    >>> parse_measure("P_5")
    Measure(family='P', cutoff=5)
    >>> parse_measure("nDGC@10")
    Traceback (most recent call last):
    ...
    reteval.errors.UnknownMeasureError: unknown measure 'nDGC@10'. Did you mean 'nDCG'? ...
    """
    if isinstance(name, Measure):
        return name
    if not isinstance(name, str):
        raise UnknownMeasureError(f"a measure name must be a string; got {name!r}")
    text = name.strip()
    match = _NAME_RE.match(text)
    if match and "@" in text:
        family = _FAMILY_BY_LOWER.get(match["family"].lower())
        if family is None:
            raise _unknown(text)
        raw = match["cutoff"]
        if not re.fullmatch(r"\+?\d+", raw or ""):
            raise UnknownMeasureError(
                f"the cutoff in {text!r} must be a positive integer; got {raw!r}"
            )
        return Measure(family, int(raw))
    if text.lower() in _FAMILY_BY_LOWER:
        return Measure(_FAMILY_BY_LOWER[text.lower()])
    match = _TREC_RE.match(text)
    if match:
        trec = match["family"]
        cutoff = match["cutoff"]
        if trec in _TREC_NAMES:
            family, takes_cutoff = _TREC_NAMES[trec]
            if cutoff is None and trec == "recall":
                raise UnknownMeasureError(f"measure {text!r} needs a cutoff, e.g. 'recall.10'")
            if takes_cutoff and cutoff is not None:
                return Measure(family, int(cutoff))
            if not takes_cutoff and cutoff is None:
                return Measure(family)
        elif trec == "P" and cutoff is not None:
            return Measure("P", int(cutoff))
        elif trec.lower() in ("rprec", "bpref") and cutoff is None:
            return Measure(_FAMILY_BY_LOWER[trec.lower()])
    raise _unknown(text)


def parse_measures(names) -> list[Measure]:
    """Parse a measure name or a sequence of names, keeping their order.

    Examples
    --------
    >>> [str(m) for m in parse_measures(["P@5", "map", "ndcg_cut.10"])]
    ['P@5', 'AP', 'nDCG@10']
    """
    if isinstance(names, (str, Measure)):
        names = [names]
    measures = [parse_measure(n) for n in names]
    if not measures:
        raise UnknownMeasureError("no measures given")
    return measures
