"""Measure names: parsing ``"nDCG@10"`` or ``"P(rel=2)@10"`` into a frozen, hashable spec.

Names follow ir_measures: a family, optional parameters in parentheses and
optionally ``@`` and a rank cutoff: ``P@10``, ``P(rel=2)@10``, ``RBP(p=0.9)``,
``nDCG(dcg=exp-log2)@10``, ``IPrec@0.5``.

============  ==================================  ====================  ============
family        what it is                          trec_eval name        cutoff
============  ==================================  ====================  ============
``P``         precision at k                      ``P_k``               required
``R``         recall at k                         ``recall_k``          required
``RR``        reciprocal rank of the first        ``recip_rank``        optional
              relevant document (alias ``MRR``)
``AP``        average precision (alias ``MAP``)   ``map``,              optional
                                                  ``map_cut_k``
``nDCG``      normalised DCG, linear gain         ``ndcg``,             optional
                                                  ``ndcg_cut_k``
``nDCG_exp``  nDCG with the chapter's gain        (none; ir_measures    optional
              ``2**rel - 1``                      ``nDCG(dcg=exp-log2)``)
``DCG``       unnormalised DCG, linear gain       (none)                optional
``Rprec``     precision at R = number relevant    ``Rprec``             none
``Bpref``     binary preference                   ``bpref``             none
``infAP``     inferred AP (Yilmaz & Aslam 2006)   ``infAP``             none
``IPrec``     interpolated precision at recall r  ``iprec_at_recall_r`` required,
                                                                        r in [0, 1]
``SetP``      relevant retrieved / retrieved      ``set_P``             none
``SetR``      relevant retrieved / relevant       ``set_recall``        none
``SetF``      F of SetP and SetR (``beta``)       ``set_F``             none
``ERR``       expected reciprocal rank (gdeval,   (none; ir_measures    optional
              grades 0-4)                         ``ERR@k``)
``RBP``       rank-biased precision (``p``,       (none; ir_measures    optional
              default 0.8)                        ``RBP(p=...)``)
``Success``   1 if a relevant document is in      ``success_k``         required
              the top k
``Judged``    share of the top k that is judged   (none)                required
``NumQ``      1 per evaluated query (summed)      ``num_q``             none
``NumRet``    documents retrieved                 ``num_ret``           none
``NumRel``    relevant documents judged           ``num_rel``           none
``NumRelRet`` relevant documents retrieved        ``num_rel_ret``       none
============  ==================================  ====================  ============

Parameters, ir_measures style:

* ``rel=n``: the minimum grade that counts as relevant, for this measure only
  (it overrides the ``relevance_level`` option); every family with a notion of
  relevant documents takes it (not the graded ``nDCG``, ``DCG``, ``ERR``, nor
  ``Judged``, ``NumRet``, ``NumQ``).
* ``dcg=log2`` (trec_eval's linear gain) or ``dcg=exp-log2`` (gain
  ``2**rel - 1``) for ``nDCG``: ``nDCG(dcg=exp-log2)@10`` is ``nDCG_exp@10``.
* ``p`` (0 < p < 1) for ``RBP``; ``beta`` (> 0, default 1) for ``SetF``, used as
  trec_eval's ``set_F`` uses it: ``(beta + 1) P R / (beta P + R)``.

trec_eval's own spellings (``ndcg_cut.10``, ``ndcg_cut_10``, ``P_5``, ``map``,
``recip_rank``...) are accepted too and mean the same measure, and so are its
lists and defaults, which :func:`parse_measures` and :func:`measure_columns`
expand into several measures: ``P_5,10`` and ``P.5,10,20`` (a list of
cutoffs), a family without a cutoff (``P``, ``recall``, ``ndcg_cut``,
``map_cut``, ``success``, ``iprec_at_recall``, ``IPrec``: trec_eval's default
cutoffs) and ``official`` (the measures ``trec_eval`` prints without ``-m``,
except ``runid`` and ``gm_map``, which are not per-query measures). Family names
are matched without regard to case; measure objects of ir_measures are accepted
through their string form.
"""

from __future__ import annotations

import difflib
import math
import re

from reteval.errors import UnknownMeasureError

__all__ = [
    "DEFAULT_MEASURES",
    "MEASURE_FAMILIES",
    "Measure",
    "measure_columns",
    "parse_measure",
    "parse_measures",
    "trec_name",
]

# family -> (cutoff rule, one-line description)
MEASURE_FAMILIES: dict[str, tuple[str, str]] = {
    "P": ("required", "precision at k"),
    "R": ("required", "recall at k"),
    "RR": ("optional", "reciprocal rank of the first relevant document"),
    "AP": ("optional", "average precision over all judged relevant documents"),
    "nDCG": ("optional", "normalised discounted cumulative gain, linear gain (trec_eval)"),
    "nDCG_exp": ("optional", "nDCG with exponential gain 2**rel - 1 (the chapter's variant)"),
    "DCG": ("optional", "discounted cumulative gain, linear gain, not normalised"),
    "Rprec": ("none", "precision at rank R, R = number of relevant documents"),
    "Bpref": ("none", "binary preference (Buckley & Voorhees 2004)"),
    "infAP": ("none", "inferred average precision (Yilmaz & Aslam 2006), as trec_eval"),
    "IPrec": ("recall", "interpolated precision at a recall level r in [0, 1]"),
    "SetP": ("none", "relevant retrieved / retrieved (the whole ranking as a set)"),
    "SetR": ("none", "relevant retrieved / relevant (the whole ranking as a set)"),
    "SetF": ("none", "F measure of SetP and SetR, weight beta (default 1)"),
    "ERR": ("optional", "expected reciprocal rank, gains (2**g - 1) / 16, grades 0-4 (gdeval)"),
    "RBP": ("optional", "rank-biased precision with persistence p (default 0.8)"),
    "Success": ("required", "1 if a relevant document is in the top k, else 0"),
    "Judged": ("required", "share of the top k retrieved documents that are judged"),
    "NumQ": ("none", "1 for every evaluated query (summed over queries)"),
    "NumRet": ("none", "number of documents retrieved"),
    "NumRel": ("none", "number of relevant documents judged"),
    "NumRelRet": ("none", "number of relevant documents retrieved"),
}

# families whose notion of "relevant" a ``rel=`` parameter may set
_TAKES_REL = {"P", "R", "RR", "AP", "Rprec", "Bpref", "infAP", "IPrec", "SetP", "SetR", "SetF",
              "RBP", "Success", "NumRel", "NumRelRet"}
_PARAMS = {"rel": _TAKES_REL, "p": {"RBP"}, "beta": {"SetF"}, "dcg": {"nDCG", "nDCG_exp"}}
_DEFAULT_PARAMS = {"RBP": {"p": 0.8}}

_ALIASES = {"MRR": "RR", "MAP": "AP", "NDCG": "nDCG"}
# words people write for a family: used only to suggest the right name
_LONG_NAMES = {"precision": "P", "prec": "P", "reciprocal_rank": "RR", "average_precision": "AP",
               "hits": "Success", "hit_rate": "Success", "hitrate": "Success",
               "dcg_cut": "DCG", "err": "ERR", "rbp": "RBP", "infap": "infAP"}

# trec_eval spellings: name -> (family, takes a cutoff)
_TREC_NAMES = {
    "map": ("AP", False),
    "map_cut": ("AP", True),
    "recip_rank": ("RR", False),
    "ndcg": ("nDCG", False),
    "ndcg_cut": ("nDCG", True),
    "recall": ("R", True),
    "success": ("Success", True),
    "iprec_at_recall": ("IPrec", True),
    "num_q": ("NumQ", False),
    "num_ret": ("NumRet", False),
    "num_rel": ("NumRel", False),
    "num_rel_ret": ("NumRelRet", False),
    "set_P": ("SetP", False),
    "set_recall": ("SetR", False),
    "set_F": ("SetF", False),
    "infAP": ("infAP", False),
    "Rprec": ("Rprec", False),
    "bpref": ("Bpref", False),
}

# trec_eval's default cutoffs of a family asked for without one (trec_eval 10 sources)
_LONG_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_DEFAULT_CUTOFFS = {"P": _LONG_CUTOFFS, "R": _LONG_CUTOFFS, "nDCG": _LONG_CUTOFFS,
                    "AP": _LONG_CUTOFFS, "Success": (1, 5, 10), "IPrec": _RECALL_LEVELS}
# trec_eval names that expand (the others name one measure without a cutoff)
_TREC_EXPANDING = {"P": "P", "recall": "R", "ndcg_cut": "nDCG", "map_cut": "AP",
                   "success": "Success", "iprec_at_recall": "IPrec"}

# ``official``: trec_eval's measures without -m, minus runid and gm_map
_OFFICIAL = ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref",
             "recip_rank", "iprec_at_recall", "P")

DEFAULT_MEASURES = ("P@5", "P@10", "R@10", "R@100", "RR", "AP", "nDCG@10")

_FAMILY_BY_LOWER = {name.lower(): name for name in MEASURE_FAMILIES}
_FAMILY_BY_LOWER.update({alias.lower(): family for alias, family in _ALIASES.items()})
_NAME_RE = re.compile(
    r"^(?P<family>[A-Za-z_]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[^@]*))?$"
)
_TREC_RE = re.compile(r"^(?P<family>[A-Za-z_]+?)(?:[._](?P<cutoff>[0-9.,]+))?$")
_INT_RE = re.compile(r"\+?[0-9]+")  # ASCII digits only, as trec_eval reads them
_LEVEL_RE = re.compile(r"\+?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


class Measure:
    """One evaluation measure: a family, an optional rank cutoff and parameters.

    Build it with :func:`parse_measure`; ``str()`` gives the canonical name.

    Parameters
    ----------
    family : str
        A key of :data:`MEASURE_FAMILIES`.
    cutoff : int or float, optional
        The rank cutoff ``k``; for ``IPrec``, the recall level in [0, 1].
    rel : int, optional
        Minimum grade that counts as relevant, for this measure only.
    p : float, optional
        Persistence of ``RBP`` (default 0.8).
    beta : float, optional
        Weight of ``SetF`` (default 1).

    Examples
    --------
    >>> m = parse_measure("nDCG@10")
    >>> m
    Measure(family='nDCG', cutoff=10)
    >>> str(m)
    'nDCG@10'
    >>> parse_measure("MAP") == parse_measure("AP") == parse_measure("map")
    True
    >>> str(parse_measure("P(rel=2)@10")), str(parse_measure("RBP"))
    ('P(rel=2)@10', 'RBP(p=0.8)')
    >>> eval(repr(m)) == m
    True
    """

    # A plain class, not a dataclass: ``dataclasses`` loads ``inspect``, a fifth of what
    # ``reteval --help`` imports.
    _FIELDS = ("family", "cutoff", "rel", "p", "beta")
    __slots__ = _FIELDS

    def __init__(self, family: str, cutoff: float | None = None, rel: int | None = None,
                 p: float | None = None, beta: float | None = None):
        for key, value in zip(self._FIELDS, (family, cutoff, rel, p, beta), strict=True):
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

    def _check(self):
        if self.family not in MEASURE_FAMILIES:
            raise _unknown(self.family)
        for key, value in _DEFAULT_PARAMS.get(self.family, {}).items():
            if getattr(self, key) is None:
                object.__setattr__(self, key, value)
        rule = MEASURE_FAMILIES[self.family][0]
        name = f"{self.family}@{self.cutoff}"
        if self.cutoff is None and rule in ("required", "recall"):
            example = "IPrec@0.5" if rule == "recall" else f"{self.family}@10"
            raise UnknownMeasureError(
                f"measure {self.family!r} needs a cutoff, e.g. {example!r}"
            )
        if self.cutoff is not None:
            if rule == "none":
                raise UnknownMeasureError(
                    f"measure {self.family!r} takes no cutoff; got {name!r}"
                )
            if rule == "recall":
                if (isinstance(self.cutoff, bool) or not isinstance(self.cutoff, (int, float))
                        or not 0 <= self.cutoff <= 1):
                    raise UnknownMeasureError(
                        f"the recall level of 'IPrec' must be a number in [0, 1]; "
                        f"got {self.cutoff!r}"
                    )
                object.__setattr__(self, "cutoff", float(self.cutoff))
            elif (isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int)
                  or self.cutoff < 1):
                raise UnknownMeasureError(
                    f"the cutoff of {self.family!r} must be a positive integer; got {self.cutoff!r}"
                )
        for key, families in _PARAMS.items():
            value = getattr(self, key, None)
            if key == "dcg" or value is None:
                continue
            if self.family not in families:
                raise UnknownMeasureError(
                    f"measure {self.family!r} takes no parameter {key!r}"
                    + (" (its gains are the grades)" if key == "rel" else "")
                )
        if self.rel is not None and (isinstance(self.rel, bool) or not isinstance(self.rel, int)
                                     or self.rel < 0):
            raise UnknownMeasureError(
                f"rel of {self.family!r} must be a non-negative integer; got {self.rel!r}"
            )
        if self.p is not None and (isinstance(self.p, bool) or not isinstance(self.p, (int, float))
                                   or not 0 < self.p < 1):
            raise UnknownMeasureError(f"p of 'RBP' must be a number in (0, 1); got {self.p!r}")
        if self.beta is not None and (isinstance(self.beta, bool)
                                      or not isinstance(self.beta, (int, float))
                                      or not 0 < self.beta < math.inf):
            raise UnknownMeasureError(
                f"beta of 'SetF' must be a positive number; got {self.beta!r}"
            )

    def __repr__(self) -> str:
        fields = [f"family={self.family!r}"]
        fields += [f"{key}={getattr(self, key)!r}" for key in ("cutoff", "rel", "p", "beta")
                   if getattr(self, key) is not None]
        return f"Measure({', '.join(fields)})"

    def __str__(self) -> str:
        params = [f"{key}={getattr(self, key):g}" if key != "rel" else f"rel={self.rel}"
                  for key in ("rel", "p", "beta") if getattr(self, key) is not None]
        text = self.family + (f"({','.join(params)})" if params else "")
        if self.cutoff is None:
            return text
        if self.family == "IPrec":
            return f"{text}@{self.cutoff!r}"
        return f"{text}@{self.cutoff}"


def _unknown(name: str) -> UnknownMeasureError:
    valid = sorted(MEASURE_FAMILIES) + sorted(_ALIASES)
    family = re.split(r"[@(._]", name, maxsplit=1)[0] if name else name
    candidates = valid + sorted(_TREC_NAMES) + ["official"]
    words = difflib.get_close_matches(family.lower(), list(_LONG_NAMES), n=1, cutoff=0.8)
    near = [_LONG_NAMES[words[0]]] if words else []
    near = near or difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    near = near or difflib.get_close_matches(family, valid, n=1, cutoff=0.5)
    if not near:
        lowered = {v.lower(): v for v in valid}
        near = [lowered[m] for m in difflib.get_close_matches(family.lower(), lowered, n=1)]
    hint = f" Did you mean {near[0]!r}?" if near else ""
    return UnknownMeasureError(
        f"unknown measure {name!r}.{hint} Valid measures: {', '.join(valid)} "
        "(with '@k' for a cutoff, e.g. 'nDCG@10', and parameters such as 'P(rel=2)@10')"
    )


def _as_text(name) -> str:
    if isinstance(name, str):
        return name.strip()
    if type(name).__module__.partition(".")[0] == "ir_measures":
        return str(name).strip()  # an ir_measures measure object: its name is its string form
    raise UnknownMeasureError(f"a measure name must be a string; got {name!r}")


def _parse_params(text: str, name: str, family: str) -> dict:
    params = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = (piece.strip() for piece in item.partition("="))
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]  # ir_measures quotes string values: dcg='exp-log2'
        if not sep or not value:
            raise UnknownMeasureError(f"parameters in {name!r} are written key=value; got {item!r}")
        if key not in _PARAMS:
            raise UnknownMeasureError(
                f"unknown parameter {key!r} in {name!r}; parameters are "
                f"{', '.join(sorted(_PARAMS))}"
            )
        if key in params:
            raise UnknownMeasureError(f"parameter {key!r} given twice in {name!r}")
        if key == "dcg":
            if value not in ("log2", "exp-log2"):
                raise UnknownMeasureError(
                    f"dcg in {name!r} must be 'log2' (linear gain) or 'exp-log2'; got {value!r}"
                )
            params[key] = value
        elif key == "rel":
            if not re.fullmatch(r"\+?[0-9]+", value):
                raise UnknownMeasureError(
                    f"rel in {name!r} must be a non-negative integer; got {value!r}"
                )
            params[key] = int(value)
        else:
            try:
                number = float(value) if _LEVEL_RE.fullmatch(value) else math.nan
            except OverflowError:  # pragma: no cover - float() saturates to inf instead
                number = math.nan
            if not math.isfinite(number):
                raise UnknownMeasureError(f"{key} in {name!r} must be a number; got {value!r}")
            params[key] = number
    if "dcg" in params:
        if family not in ("nDCG", "nDCG_exp"):
            raise UnknownMeasureError(f"measure {family!r} takes no parameter 'dcg'")
        dcg = params.pop("dcg")
        if family == "nDCG_exp" and dcg == "log2":
            raise UnknownMeasureError(f"{name!r}: nDCG_exp has exponential gain (dcg=exp-log2)")
        family = "nDCG_exp" if dcg == "exp-log2" else family
    return family, params


def _cutoff(raw: str, family: str, name: str):
    if MEASURE_FAMILIES[family][0] == "recall":
        if not _LEVEL_RE.fullmatch(raw):
            raise UnknownMeasureError(
                f"the recall level in {name!r} must be a number in [0, 1]; got {raw!r}"
            )
        return float(raw)
    if not _INT_RE.fullmatch(raw):
        raise UnknownMeasureError(f"the cutoff in {name!r} must be a positive integer; got {raw!r}")
    if len(raw.lstrip("+")) > 18:
        raise UnknownMeasureError(f"the cutoff in {name!r} is too large; got {raw!r}")
    return int(raw)


def _expand(name) -> list[tuple[str, Measure]]:
    """Parse one name into ``(column label, measure)`` pairs (several for lists and defaults)."""
    if isinstance(name, Measure):
        return [(str(name), name)]
    text = _as_text(name)
    if text.lower() == "official":
        return [(trec_name(m) or label, m) for part in _OFFICIAL for label, m in _expand(part)]
    match = _NAME_RE.match(text)
    if match and ("@" in text or "(" in text):
        family = _FAMILY_BY_LOWER.get(match["family"].lower())
        if family is None:
            raise _unknown(text)
        family, params = _parse_params(match["params"] or "", text, family)
        raw = match["cutoff"]
        if raw is None:
            if MEASURE_FAMILIES[family][0] in ("required", "recall") and family in _DEFAULT_CUTOFFS:
                return [(str(m), m) for m in (Measure(family, k, **params)
                                              for k in _DEFAULT_CUTOFFS[family])]
            return [(text, Measure(family, **params))]
        return [(text, Measure(family, _cutoff(raw, family, text), **params))]
    if text.lower() in _FAMILY_BY_LOWER and text not in _TREC_EXPANDING.keys() - {"P"}:
        family = _FAMILY_BY_LOWER[text.lower()]
        if MEASURE_FAMILIES[family][0] in ("required", "recall") and family in _DEFAULT_CUTOFFS:
            return [(str(m), m) for m in (Measure(family, k) for k in _DEFAULT_CUTOFFS[family])]
        return [(text, Measure(family))]
    match = _TREC_RE.match(text)
    trec = match["family"] if match else None
    if trec == "iprec_at_recall" or (trec is None and text.startswith("iprec_at_recall")):
        trec, cutoffs = "iprec_at_recall", text[len("iprec_at_recall") + 1:]
    elif match:
        cutoffs = match["cutoff"]
    if trec in _TREC_NAMES:
        family, takes_cutoff = _TREC_NAMES[trec]
        if not takes_cutoff:
            if cutoffs is None:
                return [(text, Measure(family))]
            raise UnknownMeasureError(f"measure {trec!r} takes no cutoff; got {text!r}")
        if not cutoffs:
            levels = _DEFAULT_CUTOFFS[family]
        else:
            levels = [_cutoff(raw, family, text) for raw in cutoffs.split(",")]
        if family == "IPrec":
            labels = [f"iprec_at_recall_{level:.2f}" for level in levels]
        else:
            labels = [f"{trec}_{level}" for level in levels]
        if cutoffs and "," not in cutoffs:
            labels = [text]
        return [(label, Measure(family, level))
                for label, level in zip(labels, levels, strict=True)]
    if trec == "P" and cutoffs:
        levels = [_cutoff(raw, "P", text) for raw in cutoffs.split(",")]
        labels = [text] if "," not in cutoffs else [f"P_{k}" for k in levels]
        return [(label, Measure("P", k)) for label, k in zip(labels, levels, strict=True)]
    raise _unknown(text)


def parse_measure(name) -> Measure:
    """Parse a measure name such as ``"P@10"``, ``"MRR"``, ``"P(rel=2)@10"`` or ``"ndcg_cut.10"``.

    Parameters
    ----------
    name : str, Measure or ir_measures measure
        An ir_measures-style name (``family``, ``family(params)``,
        ``family@k``) or a trec_eval name. A :class:`Measure` is returned
        unchanged; an ir_measures object is read through its string form.

    Returns
    -------
    Measure

    Raises
    ------
    UnknownMeasureError
        For an unknown family (the message lists the valid names and suggests
        the nearest), a missing or forbidden cutoff or parameter, a bad value,
        or a name that stands for several measures (``P``, ``P_5,10``,
        ``official``: use :func:`parse_measures`).

    Examples
    --------
    >>> parse_measure("MRR@10")
    Measure(family='RR', cutoff=10)
    >>> parse_measure("P_5")
    Measure(family='P', cutoff=5)
    >>> parse_measure("nDCG(dcg=exp-log2)@10")
    Measure(family='nDCG_exp', cutoff=10)
    >>> parse_measure("nDGC@10")
    Traceback (most recent call last):
    ...
    reteval.errors.UnknownMeasureError: unknown measure 'nDGC@10'. Did you mean 'nDCG'? ...
    """
    expanded = _expand(name)
    if len(expanded) != 1:
        raise UnknownMeasureError(
            f"{name!s} stands for {len(expanded)} measures "
            f"({', '.join(label for label, _ in expanded[:4])}...); use parse_measures"
        )
    return expanded[0][1]


def measure_columns(names) -> list[tuple[str, Measure]]:
    """Parse names into ``(column label, measure)`` pairs, expanding lists and defaults.

    A name that stands for one measure keeps its spelling as the label (``MRR``
    stays ``MRR``). Lists and families without a cutoff are labelled as
    trec_eval prints them for trec_eval spellings (``P_5,10`` gives ``P_5`` and
    ``P_10``) and with reteval's names otherwise (``P`` gives ``P@5`` ...
    ``P@1000``). Labels are distinct: a measure asked for twice is an error.

    Examples
    --------
    >>> [label for label, _ in measure_columns(["MRR", "P.5,10", "ndcg_cut_20"])]
    ['MRR', 'P_5', 'P_10', 'ndcg_cut_20']
    >>> [label for label, _ in measure_columns("success")]
    ['success_1', 'success_5', 'success_10']
    """
    if isinstance(names, (str, Measure)) or type(names).__module__.startswith("ir_measures"):
        names = [names]
    pairs = [pair for name in names for pair in _expand(name)]
    if not pairs:
        raise UnknownMeasureError("no measures given")
    seen = {}
    for label, measure in pairs:
        if label in seen:
            raise UnknownMeasureError(f"measure {label!r} is asked for twice")
        seen[label] = measure
    return pairs


def parse_measures(names) -> list[Measure]:
    """Parse a measure name or a sequence of names, keeping their order.

    Lists and defaults expand (see :func:`measure_columns`).

    Examples
    --------
    >>> [str(m) for m in parse_measures(["P@5", "map", "ndcg_cut.10"])]
    ['P@5', 'AP', 'nDCG@10']
    >>> [str(m) for m in parse_measures("P_5,10")]
    ['P@5', 'P@10']
    """
    if isinstance(names, (str, Measure)) or type(names).__module__.startswith("ir_measures"):
        names = [names]
    measures = [measure for name in names for _, measure in _expand(name)]
    if not measures:
        raise UnknownMeasureError("no measures given")
    return measures


_TREC_PRINTED = {"AP": "map", "RR": "recip_rank", "nDCG": "ndcg", "Rprec": "Rprec",
                 "Bpref": "bpref", "infAP": "infAP", "SetP": "set_P", "SetR": "set_recall",
                 "NumQ": "num_q", "NumRet": "num_ret", "NumRel": "num_rel",
                 "NumRelRet": "num_rel_ret"}
_TREC_PRINTED_CUT = {"P": "P", "R": "recall", "nDCG": "ndcg_cut", "AP": "map_cut",
                     "Success": "success"}


def trec_name(measure) -> str | None:
    """The name trec_eval prints for a measure, or None when trec_eval has no such measure.

    Measures with their own ``rel`` have no trec_eval name (trec_eval's ``-l``
    is global).

    Examples
    --------
    >>> trec_name("nDCG@10"), trec_name("AP"), trec_name("IPrec@0.1"), trec_name("Judged@10")
    ('ndcg_cut_10', 'map', 'iprec_at_recall_0.10', None)
    """
    m = parse_measure(measure)
    if m.rel is not None:
        return None
    if m.family == "IPrec":
        return f"iprec_at_recall_{m.cutoff:.2f}"
    if m.family == "SetF":
        return "set_F" if m.beta in (None, 1) else None
    if m.cutoff is None:
        return _TREC_PRINTED.get(m.family)
    prefix = _TREC_PRINTED_CUT.get(m.family)
    return None if prefix is None else f"{prefix}_{m.cutoff}"
