"""Measure names: parsing ``"nDCG@10"`` or ``"P(rel=2)@10"`` into a frozen, hashable spec.

Every measure family is one :class:`Family` record of :data:`REGISTRY`: its names,
its cutoff rule, its parameters, its trec_eval names and how they expand, its kernel
(the function of :mod:`reteval.measures.kernels` that computes it), whether it is a count and
how its per-query values are aggregated. The parser, the kernels' dispatch, the names
trec_eval prints, the ``is this a count?`` question (:func:`is_count`) and the table of
``docs/measures.md`` (:func:`measures_table`) all read it; adding a measure is adding
one record.

Names follow ir_measures: a family, optional parameters in parentheses and optionally
``@`` and a rank cutoff: ``P@10``, ``P(rel=2)@10``, ``RBP(p=0.9)``,
``nDCG(dcg=exp-log2)@10``, ``IPrec@0.5``, ``AP(judged_only=True)``.

Parameters, ir_measures style:

* ``rel=n``: the minimum grade that counts as relevant, for this measure only
  (it overrides the ``relevance_level`` option); a whole number or a decimal
  (``P(rel=0.5)@5``, for fractional grades);
* ``judged_only=True``: unjudged documents are removed from the ranking before this
  measure is computed (trec_eval's ``-J`` for one measure);
* ``dcg=log2`` or ``dcg=exp-log2`` for ``nDCG``; grade gains ``nDCG(1=3,2=9)`` (the
  grade ``1`` gains 3, ``2`` gains 9, other grades their value: trec_eval's
  ``ndcg.1=3,2=9``) for ``nDCG``, ``nDCG_rel``, ``Rndcg``, ``G`` and ``TrecRBP``;
* ``p`` (0 < p < 1) for ``RBP``, ``TrecRBP`` and ``RBPResid``; ``beta`` (> 0) for ``SetF``;
* ``a``, ``b``, ``c``, ``d`` for ``Utility`` (the worth of a relevant retrieved, a
  non-relevant retrieved, a relevant missed and a non-relevant missed document);
* ``levels`` (recall levels separated by ``;``) for ``IPrecAvg``.

trec_eval's own spellings are accepted too and mean the same measures: its names with
parameters after a dot (``ndcg_cut.10``, ``P.5,10``, ``iprec_at_recall..10,.5``,
``utility.2,-1,0,0``, ``ndcg.1=3,2=9``), the names it prints (``P_5``, ``ndcg_cut_10``,
``iprec_at_recall_0.10``, ``utility_2,-1,0,0``), a family without parameters (its default
cutoffs) and its nicknames (``official``, ``all_trec``, ``set``). trec_eval's parsing
rules apply: integer cutoffs are read as C's ``atol`` reads them (``23.4`` is 23) and
sorted, recall levels are sorted and printed with 2 decimals. Family names are matched
without regard to case; measure objects of ir_measures are accepted through their string
form.
"""


from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import TypedDict

from reteval.errors import UnknownMeasureError
from reteval.measures.measure import Measure
from reteval.measures.registry import (
    ALL_PARAMS,
    ATOL_RE,
    BY_NAME,
    FAMILY_BY_LOWER,
    INT_RE,
    LEVEL_RE,
    NAME_RE,
    NICKNAMES,
    NOT_NUMBERS,
    SIGNED_RE,
    TREC_NAMES,
    Family,
    TrecName,
    unknown_measure,
)

__all__ = ["aggregation", "family_of", "is_count", "measure_columns", "parse_measure",
           "parse_measures", "trec_printed", "wants_relstring", "wants_runid", "without_text"]


def family_of(name) -> Family:
    """The :class:`Family` record of a measure (name or :class:`Measure`).

    Examples
    --------
    >>> family_of("num_ret").count, family_of("gm_map").aggregate, family_of("P@5").count
    (True, 'gmean', False)
    """
    return parse_measure(name).spec if not isinstance(name, Measure) else name.spec


def is_count(name) -> bool:
    """Whether a measure (name, column label or :class:`Measure`) is an integer count.

    Counts (``NumRet``, ``num_rel``...) are printed without decimals and summed over
    queries. A name that is not a measure is not a count.

    Examples
    --------
    >>> is_count("NumRet"), is_count("num_rel_ret"), is_count("AP"), is_count("query_id")
    (True, True, False, False)
    """
    try:
        return family_of(name).count
    except (UnknownMeasureError, TypeError):
        return False


def aggregation(name) -> str:
    """How the ``all`` value of a measure is made: ``mean``, ``sum``, ``gmean`` or ``queries``.

    Examples
    --------
    >>> aggregation("AP"), aggregation("NumRet"), aggregation("gm_map"), aggregation("num_q")
    ('mean', 'sum', 'gmean', 'queries')
    """
    return family_of(name).aggregate


def _as_text(name) -> str:
    if isinstance(name, str):
        return name.strip()
    if type(name).__module__.partition(".")[0] == "ir_measures":
        return str(name).strip()  # an ir_measures measure object: its name is its string form
    raise UnknownMeasureError(f"a measure name must be a string; got {name!r}")


def _number(value: str, key: str, name: str, signed: bool = False) -> float:
    pattern = SIGNED_RE if signed else LEVEL_RE
    try:
        number = float(value) if pattern.fullmatch(value) else math.nan
    except OverflowError:  # pragma: no cover - float() saturates to inf instead
        number = math.nan
    if not math.isfinite(number):
        if SIGNED_RE.fullmatch(value):
            raise UnknownMeasureError(f"{key} in {name!r} must be 0 or more; got {value!r}")
        raise UnknownMeasureError(f"{key} in {name!r} must be a number; got {value!r}")
    return number


class _Params(TypedDict, total=False):
    """The keyword parameters of :class:`Measure` that a name can give."""

    rel: float
    p: float
    beta: float
    gains: dict[int, float]
    weights: tuple[float, ...]
    levels: tuple[float, ...]
    judged_only: bool


def _parse_params(text: str, name: str, family: str) -> tuple[str, _Params]:
    params: _Params = {}
    weights: dict[str, float] = {}
    gains: dict[int, float] = {}
    dcg: str | None = None
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = (piece.strip() for piece in item.partition("="))
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]  # ir_measures quotes string values: dcg='exp-log2'
        if not sep or not value:
            raise UnknownMeasureError(f"parameters in {name!r} are written key=value; got {item!r}")
        if key not in ALL_PARAMS and not INT_RE.fullmatch(key):
            raise UnknownMeasureError(
                f"unknown parameter {key!r} in {name!r}; parameters are "
                f"{', '.join(sorted(ALL_PARAMS))} and grade=gain pairs such as 2=5"
            )
        if (key in params or key in weights or (key == "dcg" and dcg is not None)
                or (INT_RE.fullmatch(key) and int(key) in gains)):
            raise UnknownMeasureError(f"parameter {key!r} given twice in {name!r}")
        if key == "dcg":
            if value not in ("log2", "exp-log2"):
                raise UnknownMeasureError(
                    f"dcg in {name!r} must be 'log2' (linear gain) or 'exp-log2'; got {value!r}"
                )
            dcg = value
        elif key == "rel":
            if re.fullmatch(r"\+?[0-9]+", value):
                params["rel"] = int(value)
            elif re.fullmatch(r"\+?([0-9]+\.[0-9]*|\.[0-9]+)", value):
                rel = float(value)
                params["rel"] = int(rel) if rel.is_integer() else rel
            else:
                raise UnknownMeasureError(
                    f"rel in {name!r} must be a non-negative number; got {value!r}"
                )
        elif key == "judged_only":
            if value.lower() not in ("true", "false", "1", "0"):
                raise UnknownMeasureError(
                    f"judged_only in {name!r} must be True or False; got {value!r}")
            params["judged_only"] = value.lower() in ("true", "1")
        elif key == "levels":
            params["levels"] = tuple(_number(v.strip(), key, name) for v in value.split(";"))
        elif key in "abcd":
            weights[key] = _number(value, key, name, signed=True)
        elif INT_RE.fullmatch(key):
            gains[int(key)] = _number(value, key, name, signed=True)
        elif key == "p":  # p and beta: any number here, their range is checked by Measure
            params["p"] = _number(value, key, name, signed=True)
        else:
            params["beta"] = _number(value, key, name, signed=True)
    if gains:
        params["gains"] = gains
    if weights:
        defaults = dict(zip("abcd", (1.0, -1.0, 0.0, 0.0), strict=True))
        defaults.update(weights)
        params["weights"] = tuple(defaults[k] for k in "abcd")
    if dcg is not None:
        if family not in ("nDCG", "nDCG_exp"):
            raise UnknownMeasureError(f"measure {family!r} takes no parameter 'dcg'")
        if family == "nDCG_exp" and dcg == "log2":
            raise UnknownMeasureError(f"{name!r}: nDCG_exp has exponential gain (dcg=exp-log2)")
        family = "nDCG_exp" if dcg == "exp-log2" else family
    return family, params


def _cutoff(raw: str, family: str, name: str):
    rule = BY_NAME[family].cutoff
    if rule in ("recall", "multiple"):
        if not LEVEL_RE.fullmatch(raw):
            what = "recall level" if rule == "recall" else "multiple of R"
            bound = " in [0, 1]" if rule == "recall" else ""
            raise UnknownMeasureError(
                f"the {what} in {name!r} must be a number{bound}; got {raw!r}"
            )
        return float(raw)
    if not INT_RE.fullmatch(raw):
        raise UnknownMeasureError(f"the cutoff in {name!r} must be a positive integer; got {raw!r}")
    if len(raw.lstrip("+")) > 18:
        raise UnknownMeasureError(f"the cutoff in {name!r} is too large; got {raw!r}")
    return int(raw)


def _trec_cutoffs(text: str, trec: TrecName, family: str, name: str) -> list:
    """Cutoffs after ``name.``, read as trec_eval reads them (atol / atof), sorted.

    Returns ``(value, decimals given)`` pairs.
    """
    values = []
    for raw in text.split(","):
        raw = raw.strip()
        if trec.kind == "long":
            if not ATOL_RE.fullmatch(raw) or len(raw.lstrip("+").partition(".")[0]) > 18:
                raise UnknownMeasureError(
                    f"the cutoff in {name!r} must be a positive integer; got {raw!r}")
            values.append((int(raw.lstrip("+").partition(".")[0]), 0))
        else:
            values.append((_cutoff(raw, family, name), len(raw.partition(".")[2])))
    values.sort()
    if trec.kind == "long" and values[0][0] <= 0:
        raise UnknownMeasureError(f"the cutoffs in {name!r} must be positive; got {text!r}")
    if len({v for v, _ in values}) != len(values):
        raise UnknownMeasureError(f"duplicate cutoffs in {name!r}")
    return values


def trec_printed(trec: TrecName, value, decimals: int = 2) -> str:
    """The name trec_eval prints (``%3.2f`` for real cutoffs); a label keeps more decimals
    when more are given (``iprec_at_recall.0.125`` is labelled ``iprec_at_recall_0.125``,
    trec_eval prints ``iprec_at_recall_0.12``)."""
    if trec.kind == "double":
        return f"{trec.name}_{value:.{max(decimals, 2)}f}"
    return f"{trec.name}_{value}"


def _trec_params(trec: TrecName, family: str, text: str, name: str) -> _Params:
    """The parameters of ``name.TEXT`` for the kinds printed with their text."""
    if trec.kind == "pairs":
        pairs: dict[str, str] = {}
        for item in text.split(","):
            key, sep, value = (piece.strip() for piece in item.partition("="))
            if not sep or not key or not value:
                raise UnknownMeasureError(
                    f"parameters in {name!r} are written name=value pairs; got {item!r}")
            pairs[key] = value
        if family == "RBPResid":  # trec_eval's rbp_resid reads p= and ignores other pairs
            pairs = {k: v for k, v in pairs.items() if k == "p"}
        params_text = ",".join(f"{k}={v}" for k, v in pairs.items())
        return _parse_params(params_text, name, family)[1]
    values = [_number(v.strip(), "parameter", name, signed=True) for v in text.split(",")]
    if trec.field == "beta":  # set_F.2: trec_eval's x in (x + 1) P R / (x P + R)
        if len(values) != 1:
            raise UnknownMeasureError(f"{trec.name} takes one weight; got {text!r} in {name!r}")
        return {"beta": values[0]}
    if trec.field == "levels":
        return {"levels": tuple(values)}
    if len(values) != 4:
        raise UnknownMeasureError(
            f"{trec.name} takes 4 coefficients (a, b, c, d); got {text!r} in {name!r}")
    return {"weights": tuple(values)}


def _expand_trec(text: str, explicit: dict[str, str] | None = None
                 ) -> list[tuple[str, Measure]] | None:
    """trec_eval spellings: ``name``, ``name.params`` and the printed ``name_value``."""
    base, dot, params = text.partition(".")
    if base in TREC_NAMES and (dot or base in TREC_NAMES):
        trec, family = TREC_NAMES[base]
        if dot and not params:
            raise UnknownMeasureError(f"no parameters after the dot in {text!r}")
        if not dot and explicit is not None and base in explicit:
            params, dot = explicit[base], "."
        if trec.kind == "plain":
            if dot:
                raise UnknownMeasureError(f"measure {base!r} takes no cutoff; got {text!r}")
            return [(base, Measure(family.name))]
        if trec.kind in ("long", "double"):
            cutoffs = (_trec_cutoffs(params, trec, family.name, text) if dot
                       else [(k, 2) for k in trec.defaults])
            if text != base and "," not in params:
                return [(text, Measure(family.name, cutoffs[0][0]))]  # one measure: as spelled
            return [(trec_printed(trec, k, d), Measure(family.name, k)) for k, d in cutoffs]
        if not dot:
            return [(base, Measure(family.name))]
        return [(f"{base}_{params}", Measure(family.name, **_trec_params(trec, family.name,
                                                                          params, text)))]
    # a printed name: P_5, iprec_at_recall_0.10, utility_2,-1,0,0
    for cut in range(len(text) - 1, 0, -1):
        if text[cut] != "_" or text[:cut] not in TREC_NAMES:
            continue
        trec, family = TREC_NAMES[text[:cut]]
        rest = text[cut + 1:]
        if trec.kind == "plain" or not rest:
            continue
        if trec.kind == "pairs" and "=" not in rest:  # ndcg_cut10: not ndcg's grade pairs
            raise unknown_measure(text)
        if trec.kind in ("long", "double"):
            if "," in rest:  # a list after the underscore: P_5,10
                return [(trec_printed(trec, k, d), Measure(family.name, k))
                        for k, d in _trec_cutoffs(rest, trec, family.name, text)]
            return [(text, Measure(family.name, _cutoff(rest, family.name, text)))]
        return [(text, Measure(family.name, **_trec_params(trec, family.name, rest, text)))]
    return None


def _expand(name, explicit: dict[str, str] | None = None) -> list[tuple[str, Measure]]:
    """Parse one name into ``(column label, measure)`` pairs (several for lists and defaults)."""
    if isinstance(name, Measure):
        return [(str(name), name)]
    text = _as_text(name)
    if text in NICKNAMES:
        pairs: list[tuple[str, Measure]] = []
        for part in NICKNAMES[text]:
            if part not in NOT_NUMBERS:
                expanded = _expand_trec(part, explicit)
                assert expanded is not None, part  # the nicknames list trec_eval names only
                pairs += expanded
        return pairs
    if text.lower() in NICKNAMES:
        return _expand(text.lower(), explicit)
    if text in NOT_NUMBERS or text.partition(".")[0] in NOT_NUMBERS:
        raise UnknownMeasureError(
            f"{text!r} is not a number per query: trec_eval's {text.partition('.')[0]} line is "
            "printed by 'reteval evaluate --format trec' with -m official or all_trec")
    match = NAME_RE.match(text)
    if match and ("@" in text or "(" in text):
        family = FAMILY_BY_LOWER.get(match["family"].lower())
        if family is None:
            raise unknown_measure(text)
        family, params = _parse_params(match["params"] or "", text, family)
        raw = match["cutoff"]
        spec = BY_NAME[family]
        if raw is None:
            if spec.cutoff in ("required", "recall", "multiple") and spec.default_cutoffs:
                return [(str(m), m) for m in (Measure(family, k, **params)
                                              for k in spec.default_cutoffs)]
            return [(text, Measure(family, **params))]
        return [(text, Measure(family, _cutoff(raw, family, text), **params))]
    trec = None if text in BY_NAME else _expand_trec(text, explicit)
    if trec is not None:
        return trec
    if text.lower() in FAMILY_BY_LOWER:
        family = BY_NAME[FAMILY_BY_LOWER[text.lower()]]
        if family.cutoff in ("required", "recall", "multiple") and family.default_cutoffs:
            return [(str(m), m) for m in (Measure(family.name, k)
                                          for k in family.default_cutoffs)]
        return [(text, Measure(family.name))]
    raise unknown_measure(text)


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
    if isinstance(name, Measure):
        return name
    expanded = _expand(name)
    if len(expanded) != 1:
        raise UnknownMeasureError(
            f"{name!s} stands for {len(expanded)} measures "
            f"({', '.join(label for label, _ in expanded[:4])}...); use parse_measures"
        )
    return expanded[0][1]


def _as_list(names) -> list:
    if isinstance(names, (str, Measure)) or type(names).__module__.startswith("ir_measures"):
        return [names]
    return list(names)


def _explicit_params(names) -> dict[str, str]:
    """trec_eval names given with parameters (``P.5,10``): a nickname's ``P`` uses them."""
    explicit: dict[str, str] = {}
    for name in names:
        if isinstance(name, str):
            base, dot, params = name.strip().partition(".")
            if dot and params and base in TREC_NAMES and TREC_NAMES[base][0].kind != "plain":
                explicit.setdefault(base, params)  # the first given wins, as in trec_eval
    return explicit


def measure_columns(names) -> list[tuple[str, Measure]]:
    """Parse names into ``(column label, measure)`` pairs, expanding lists and defaults.

    A name that stands for one measure keeps its spelling as the label (``MRR``
    stays ``MRR``). Lists, nicknames and trec_eval names without parameters are
    labelled as trec_eval prints them (``P_5,10`` gives ``P_5`` and ``P_10``);
    reteval family names without a cutoff with reteval's names (``P`` gives ``P@5``
    ... ``P@1000``). One measure asked under two names (``AP`` and ``MAP``) gives two
    columns; a name asked twice, or a measure of a list or nickname asked before, is kept
    once (the first label), and, as
    in trec_eval, a nickname's member given with parameters elsewhere uses them
    (``-m P.5,10 -m official`` gives ``P_5`` and ``P_10`` once). A mapping ``{label: Measure}``
    is columns already parsed (by an earlier call): its items are returned as they are.

    Examples
    --------
    >>> [label for label, _ in measure_columns(["MRR", "P.5,10", "ndcg_cut_20"])]
    ['MRR', 'P_5', 'P_10', 'ndcg_cut_20']
    >>> [label for label, _ in measure_columns("success")]
    ['success_1', 'success_5', 'success_10']
    >>> [label for label, _ in measure_columns(["AP", "P.5", "official"])][:3]
    ['AP', 'P.5', 'num_q']
    >>> [label for label, _ in measure_columns(["AP", "MAP", "nDCG@10", "ndcg_cut.10"])]
    ['AP', 'MAP', 'nDCG@10', 'ndcg_cut.10']
    >>> columns = dict(measure_columns(["MAP", "P_5"]))
    >>> measure_columns(columns) == list(columns.items())
    True
    """
    if (isinstance(names, Mapping) and names
            and all(isinstance(label, str) and isinstance(m, Measure)
                    for label, m in names.items())):
        return list(names.items())  # parsed already: the labels and their measures
    names = _as_list(names)
    explicit = _explicit_params(names)
    pairs = []
    for name in names:
        expanded = _expand(name, explicit)
        single = len(expanded) == 1 and not (isinstance(name, str) and name.strip() in NICKNAMES)
        pairs += [(label, measure, single) for label, measure in expanded]
    if not pairs:
        raise UnknownMeasureError("no measures given")
    seen, labels, kept = set(), set(), []
    for label, measure, single in pairs:
        # one column per name asked (AP and MAP are two); lists and nicknames skip repeats
        if label in labels and measure in seen or measure in seen and not single:
            continue
        if label in labels:
            raise UnknownMeasureError(f"two measures are labelled {label!r}")
        seen.add(measure)
        labels.add(label)
        kept.append((label, measure))
    return kept


def parse_measures(names) -> list[Measure]:
    """Parse a measure name or a sequence of names, keeping their order.

    Lists and defaults expand, repeated measures are kept once (see :func:`measure_columns`).

    Examples
    --------
    >>> [str(m) for m in parse_measures(["P@5", "map", "ndcg_cut.10"])]
    ['P@5', 'AP', 'nDCG@10']
    >>> [str(m) for m in parse_measures("P_5,10")]
    ['P@5', 'P@10']
    """
    return [measure for _, measure in measure_columns(names)]


def wants_runid(names) -> bool:
    """Whether trec_eval would print its ``runid`` line for these names.

    Examples
    --------
    >>> wants_runid(["official"]), wants_runid(["AP"]), wants_runid(["runid", "map"])
    (True, False, True)
    """
    return any(isinstance(n, str) and (n.strip() == "runid" or "runid" in
                                       NICKNAMES.get(n.strip(), ()))
               for n in _as_list(names))


def without_text(names) -> list:
    """The names without ``runid`` and ``relstring``, trec_eval lines that are not numbers."""
    return [n for n in _as_list(names)
            if not (isinstance(n, str) and n.strip().partition(".")[0] in NOT_NUMBERS)]


def wants_relstring(names) -> int | None:
    """The length of trec_eval's ``relstring`` if these names ask for it, else None.

    Examples
    --------
    >>> wants_relstring(["all_trec"]), wants_relstring(["map", "relstring.20"])
    (10, 20)
    """
    length = None
    for name in _as_list(names):
        if not isinstance(name, str):
            continue
        base, dot, params = name.strip().partition(".")
        if base == "relstring" and dot:
            if not ATOL_RE.fullmatch(params.strip()):
                raise UnknownMeasureError(f"the length in {name!r} must be an integer")
            return int(params.strip().lstrip("+").partition(".")[0])
        if base == "relstring" or "relstring" in NICKNAMES.get(base, ()):
            length = 10
    return length


