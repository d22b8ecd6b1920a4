"""Measure names: parsing ``"nDCG@10"`` or ``"P(rel=2)@10"`` into a frozen, hashable spec.

Every measure family is one :class:`Family` record of :data:`REGISTRY`: its names,
its cutoff rule, its parameters, its trec_eval names and how they expand, its kernel
(the function of :mod:`reteval.metrics` that computes it), whether it is a count and
how its per-query values are aggregated. The parser, the kernels' dispatch, the names
trec_eval prints, the ``is this a count?`` question (:func:`is_count`) and the table of
``docs/measures.md`` (:func:`measures_table`) all read it; adding a measure is adding
one record.

Names follow ir_measures: a family, optional parameters in parentheses and optionally
``@`` and a rank cutoff: ``P@10``, ``P(rel=2)@10``, ``RBP(p=0.9)``,
``nDCG(dcg=exp-log2)@10``, ``IPrec@0.5``, ``AP(judged_only=True)``.

Parameters, ir_measures style:

* ``rel=n``: the minimum grade that counts as relevant, for this measure only
  (it overrides the ``relevance_level`` option);
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

import difflib
import math
import re

from reteval.errors import UnknownMeasureError

__all__ = [
    "DEFAULT_MEASURES",
    "MEASURE_FAMILIES",
    "REGISTRY",
    "Family",
    "Measure",
    "TrecName",
    "aggregation",
    "family_of",
    "is_count",
    "measure_columns",
    "measures_markdown",
    "measures_table",
    "parse_measure",
    "parse_measures",
    "trec_name",
    "trec_order",
    "wants_relstring",
    "wants_runid",
    "without_text",
]


class TrecName:
    """One trec_eval name of a family and how its parameters expand.

    ``kind`` is ``"plain"`` (no parameters), ``"long"`` (integer cutoffs, printed
    ``name_k``), ``"double"`` (real cutoffs, printed ``name_%3.2f``), ``"pairs"``
    (``grade=gain`` and ``p=`` pairs, printed ``name_<as given>``) or ``"doubles"``
    (a list of numbers given to the field ``field``, printed ``name_<as given>``).
    ``order`` is the place of the name in trec_eval's table of measures: trec_eval prints
    measures in that order.
    """

    __slots__ = ("defaults", "field", "kind", "name", "order")

    def __init__(self, name, kind="plain", defaults=(), order=0, field=None):
        self.name, self.kind, self.defaults = name, kind, tuple(defaults)
        self.order, self.field = order, field


class Family:
    """One measure family: everything reteval knows about it, in one record.

    Attributes
    ----------
    name : str
        reteval's name (``"AP"``).
    description : str
        One line.
    cutoff : {"none", "optional", "required", "recall", "multiple"}
        ``"recall"``: a recall level in [0, 1]; ``"multiple"``: a positive multiple of R.
    params : tuple of str
        Parameters it takes (besides the cutoff).
    defaults : dict
        Default values of parameters.
    aliases : tuple of str
        Other reteval names (``MAP``).
    trec : tuple of TrecName
        Its trec_eval names.
    default_cutoffs : tuple
        The cutoffs of the family asked for without one (``P`` -> ``P@5`` ... ``P@1000``).
    kernel : str
        Name of the function of :mod:`reteval.metrics` that computes it.
    aggregate : {"mean", "sum", "gmean", "queries"}
        How per-query values become the ``all`` value: mean, sum (counts), geometric
        mean with trec_eval's floor of 0.00001 for zeros, or the number of queries.
    count : bool
        An integer count (printed without decimals).
    query_lines : bool
        trec_eval prints a per-query line for it (``gm_map`` and ``num_q`` have none).
    judgments : {"qrels", "prefs", "qrels_jg"}
        The judgments it needs: relevance judgments, preferences (trec_eval ``-R prefs``
        or ``-R qrels_prefs``) or qrels of several judgment groups (``-R qrels_jg``).
    """

    __slots__ = (
        "aggregate",
        "aliases",
        "count",
        "cutoff",
        "default_cutoffs",
        "defaults",
        "description",
        "judgments",
        "kernel",
        "name",
        "params",
        "query_lines",
        "trec",
    )

    def __init__(self, name, description, *, kernel, cutoff="none", params=(), defaults=None,
                 aliases=(), trec=(), default_cutoffs=(), aggregate="mean", count=False,
                 query_lines=True, judgments="qrels"):
        self.name, self.description, self.kernel, self.cutoff = name, description, kernel, cutoff
        self.params, self.defaults = tuple(params), dict(defaults or {})
        self.aliases, self.trec = tuple(aliases), tuple(trec)
        self.default_cutoffs, self.aggregate, self.count = tuple(default_cutoffs), aggregate, count
        self.query_lines, self.judgments = query_lines, judgments

    def __repr__(self) -> str:
        return f"Family({self.name!r})"


_LONG = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
_R = ("rel", "judged_only")  # parameters of every family with a notion of "relevant"
_GAINS = ("gains", "judged_only")

# The registry, in trec_eval's order of measures (m_*.c, measures.c).
REGISTRY: tuple[Family, ...] = (
    Family("NumQ", "1 for every evaluated query (summed: the number of queries)",
           kernel="num_q", trec=(TrecName("num_q", order=1),), aggregate="queries",
           count=True, query_lines=False, params=("judged_only",)),
    Family("NumRet", "number of documents retrieved", kernel="num_ret",
           trec=(TrecName("num_ret", order=2),), aggregate="sum", count=True,
           params=("judged_only",)),
    Family("NumRel", "number of relevant documents judged", kernel="num_rel",
           trec=(TrecName("num_rel", order=3),), aggregate="sum", count=True, params=_R),
    Family("NumRelRet", "number of relevant documents retrieved", kernel="num_rel_ret",
           trec=(TrecName("num_rel_ret", order=4),), aggregate="sum", count=True, params=_R),
    Family("AP", "average precision over all judged relevant documents", cutoff="optional",
           kernel="average_precision", aliases=("MAP",), params=_R,
           trec=(TrecName("map", order=5), TrecName("map_cut", "long", _LONG, order=27)),
           default_cutoffs=_LONG),
    Family("GMAP", "AP, averaged over queries by the geometric mean (zeros count 0.00001)",
           kernel="average_precision", trec=(TrecName("gm_map", order=6),), aggregate="gmean",
           query_lines=False, params=_R),
    Family("Rprec", "precision at rank R, R = number of relevant documents",
           kernel="r_precision", trec=(TrecName("Rprec", order=7),), params=_R),
    Family("Bpref", "binary preference (Buckley & Voorhees 2004)", kernel="bpref",
           trec=(TrecName("bpref", order=8),), params=_R),
    Family("RR", "reciprocal rank of the first relevant document", cutoff="optional",
           kernel="reciprocal_rank", aliases=("MRR",), trec=(TrecName("recip_rank", order=9),),
           params=_R),
    Family("IPrec", "interpolated precision at a recall level r in [0, 1]", cutoff="recall",
           kernel="interpolated_precision", params=_R, default_cutoffs=_LEVELS,
           trec=(TrecName("iprec_at_recall", "double", _LEVELS, order=10),)),
    Family("P", "precision at k", cutoff="required", kernel="precision", params=_R,
           trec=(TrecName("P", "long", _LONG, order=11),), default_cutoffs=_LONG),
    Family("R", "recall at k", cutoff="required", kernel="recall", params=_R,
           trec=(TrecName("recall", "long", _LONG, order=13),), default_cutoffs=_LONG),
    Family("infAP", "inferred average precision (Yilmaz & Aslam 2006), as trec_eval",
           kernel="inferred_average_precision", trec=(TrecName("infAP", order=14),), params=_R),
    Family("GMBpref", "Bpref, averaged over queries by the geometric mean (floor 0.00001)",
           kernel="bpref", trec=(TrecName("gm_bpref", order=15),), aggregate="gmean",
           query_lines=False, params=_R),
    Family("RprecMult", "precision at rank m * R (m a positive multiple)", cutoff="multiple",
           kernel="r_precision_multiple", params=_R, default_cutoffs=_MULTIPLES,
           trec=(TrecName("Rprec_mult", "double", _MULTIPLES, order=16),)),
    Family("Utility", "a*relret + b*nonrelret + c*relmissed + d*nonrelmissed (default 1, -1, 0, 0)",
           kernel="utility", params=("weights", "rel", "judged_only"),
           trec=(TrecName("utility", "doubles", order=17, field=("a", "b", "c", "d")),)),
    Family("IPrecAvg",
           "interpolated precision averaged over recall levels (default 0, 0.1, ..., 1)",
           kernel="interpolated_precision_average", params=("levels", "rel", "judged_only"),
           trec=(TrecName("11pt_avg", "doubles", order=18, field="levels"),)),
    Family("binG", "binary G (trec_eval's experimental gain measure)", kernel="bin_g",
           trec=(TrecName("binG", order=19),), params=_R),
    Family("G", "normalised gain G (trec_eval's experimental measure; grade gains)",
           kernel="g_measure", trec=(TrecName("G", "pairs", order=20),), params=_GAINS),
    Family("nDCG", "normalised discounted cumulative gain, linear gain (trec_eval)",
           cutoff="optional", kernel="ndcg", params=("dcg",) + _GAINS, default_cutoffs=_LONG,
           aliases=("NDCG",),
           trec=(TrecName("ndcg", "pairs", order=23), TrecName("ndcg_cut", "long", _LONG,
                                                               order=26))),
    Family("nDCG_rel", "nDCG averaged over the relevant documents (trec_eval ndcg_rel)",
           kernel="ndcg_rel", trec=(TrecName("ndcg_rel", "pairs", order=24),), params=_GAINS),
    Family("Rndcg", "nDCG averaged at the R levels of each gain (trec_eval Rndcg)",
           kernel="rndcg", trec=(TrecName("Rndcg", "pairs", order=25),), params=_GAINS),
    Family("RelP", "relevant in the top k / min(k, R) (trec_eval relative_P)",
           cutoff="required", kernel="relative_precision", params=_R, default_cutoffs=_LONG,
           trec=(TrecName("relative_P", "long", _LONG, order=28),)),
    Family("Success", "1 if a relevant document is in the top k, else 0", cutoff="required",
           kernel="success", params=_R, default_cutoffs=(1, 5, 10),
           trec=(TrecName("success", "long", (1, 5, 10), order=29),)),
    Family("SetP", "relevant retrieved / retrieved (the whole ranking as a set)",
           kernel="set_precision", trec=(TrecName("set_P", order=30),), params=_R),
    Family("SetRelP", "relevant retrieved / min(retrieved, relevant)",
           kernel="set_relative_precision", trec=(TrecName("set_relative_P", order=31),),
           params=_R),
    Family("SetR", "relevant retrieved / relevant (the whole ranking as a set)",
           kernel="set_recall", trec=(TrecName("set_recall", order=32),), params=_R),
    Family("SetAP", "SetP * SetR (trec_eval set_map)", kernel="set_average_precision",
           trec=(TrecName("set_map", order=33),), params=_R),
    Family("SetF", "F measure of SetP and SetR, weight beta (default 1)", kernel="set_f",
           params=("beta",) + _R, trec=(TrecName("set_F", order=34),)),
    Family("NumNonRelJudgedRet", "number of judged non-relevant documents retrieved",
           kernel="num_nonrel_judged_ret", aggregate="sum", count=True, params=_R,
           trec=(TrecName("num_nonrel_judged_ret", order=35),)),
    Family("TrecRBP", "rank-biased precision with grade gains scaled to [0, 1] (trec_eval rbp;"
           " p default 0.9)", kernel="trec_rbp", params=("p",) + _GAINS,
           trec=(TrecName("rbp", "pairs", order=54),)),
    Family("RBPResid", "the RBP residual: the weight of unjudged and unseen ranks "
           "(trec_eval rbp_resid)", kernel="rbp_residual", params=("p", "judged_only"),
           trec=(TrecName("rbp_resid", "pairs", order=55),)),
    Family("Unjudged", "share of the top k that is not judged (trec_eval unj_k: / k)",
           cutoff="required", kernel="unjudged", default_cutoffs=(5, 10, 20),
           trec=(TrecName("unj", "long", (5, 10, 20), order=56),), params=("judged_only",)),
    # preferences (trec_eval -R prefs, -R qrels_prefs): computed by
    # reteval.evaluation.preferences, which the kernel names
    Family("PrefsPoss", "number of preferences possible",
           kernel="prefs_num_prefs_poss", judgments="prefs", aggregate="sum", count=True,
           trec=(TrecName("prefs_num_prefs_poss", order=36),)),
    Family("PrefsFul", "number of preferences fulfilled (implied ones too)",
           kernel="prefs_num_prefs_ful", judgments="prefs", aggregate="sum", count=True,
           trec=(TrecName("prefs_num_prefs_ful", order=37),)),
    Family("PrefsFulRet", "number of preferences fulfilled, both retrieved",
           kernel="prefs_num_prefs_ful_ret", judgments="prefs", aggregate="sum", count=True,
           trec=(TrecName("prefs_num_prefs_ful_ret", order=38),)),
    Family("PrefsSimp", "preferences fulfilled / possible",
           kernel="prefs_simp", judgments="prefs",
           trec=(TrecName("prefs_simp", order=39),)),
    Family("PrefsPair", "preference ratio averaged over document pairs",
           kernel="prefs_pair", judgments="prefs",
           trec=(TrecName("prefs_pair", order=40),)),
    Family("PrefsAvgJG", "prefs_simp averaged over judgment groups",
           kernel="prefs_avgjg", judgments="prefs",
           trec=(TrecName("prefs_avgjg", order=41),)),
    Family("PrefsAvgJGRnonrel", "prefs_avgjg with R non-relevant per group",
           kernel="prefs_avgjg_Rnonrel", judgments="prefs",
           trec=(TrecName("prefs_avgjg_Rnonrel", order=42),)),
    Family("PrefsSimpRet", "prefs_simp among retrieved documents",
           kernel="prefs_simp_ret", judgments="prefs",
           trec=(TrecName("prefs_simp_ret", order=43),)),
    Family("PrefsPairRet", "prefs_pair among retrieved documents",
           kernel="prefs_pair_ret", judgments="prefs",
           trec=(TrecName("prefs_pair_ret", order=44),)),
    Family("PrefsAvgJGRet", "prefs_avgjg among retrieved documents",
           kernel="prefs_avgjg_ret", judgments="prefs",
           trec=(TrecName("prefs_avgjg_ret", order=45),)),
    Family("PrefsAvgJGRnonrelRet", "prefs_avgjg_Rnonrel, retrieved only",
           kernel="prefs_avgjg_Rnonrel_ret", judgments="prefs",
           trec=(TrecName("prefs_avgjg_Rnonrel_ret", order=46),)),
    Family("PrefsSimpImp", "prefs_simp without pairs never retrieved",
           kernel="prefs_simp_imp", judgments="prefs",
           trec=(TrecName("prefs_simp_imp", order=47),)),
    Family("PrefsPairImp", "prefs_pair without pairs never retrieved",
           kernel="prefs_pair_imp", judgments="prefs",
           trec=(TrecName("prefs_pair_imp", order=48),)),
    Family("PrefsAvgJGImp", "prefs_avgjg without pairs never retrieved",
           kernel="prefs_avgjg_imp", judgments="prefs",
           trec=(TrecName("prefs_avgjg_imp", order=49),)),
    # several judgment groups (trec_eval -R qrels_jg)
    Family("APAvgJG", "AP averaged over the judgment groups of a query", kernel="map_avgjg",
           trec=(TrecName("map_avgjg", order=50),), judgments="qrels_jg"),
    Family("PAvgJG", "P@k averaged over the judgment groups of a query", cutoff="required",
           kernel="P_avgjg", default_cutoffs=_LONG, judgments="qrels_jg",
           trec=(TrecName("P_avgjg", "long", _LONG, order=51),)),
    Family("RprecMultAvgJG", "RprecMult averaged over the judgment groups of a query",
           cutoff="multiple", kernel="Rprec_mult_avgjg", default_cutoffs=_MULTIPLES,
           judgments="qrels_jg",
           trec=(TrecName("Rprec_mult_avgjg", "double", _MULTIPLES, order=52),)),
    # reteval's own (ir_measures) families: no trec_eval name
    Family("nDCG_exp", "nDCG with exponential gain 2**rel - 1 (the chapter's variant)",
           cutoff="optional", kernel="ndcg_exp", params=("dcg", "judged_only")),
    Family("DCG", "discounted cumulative gain, linear gain, not normalised",
           cutoff="optional", kernel="dcg", params=("judged_only",)),
    Family("ERR", "expected reciprocal rank, gains (2**g - 1) / 16, grades 0-4 (gdeval)",
           cutoff="optional", kernel="expected_reciprocal_rank", params=("judged_only",)),
    Family("RBP", "rank-biased precision with persistence p (default 0.8), binary",
           cutoff="optional", kernel="rank_biased_precision", params=("p",) + _R,
           defaults={"p": 0.8}),
    Family("Judged", "share of the top k retrieved documents that are judged",
           cutoff="required", kernel="judged", params=("judged_only",)),
)

_BY_NAME = {family.name: family for family in REGISTRY}
_TREC = {trec.name: (trec, family) for family in REGISTRY for trec in family.trec}

# trec_eval's nicknames (measures.c); runid is printed by the command line only
_NICKNAMES = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                  "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
                  "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
                  "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                  "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
              "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}
# trec_eval names reteval does not compute as numbers: runid is a line of the command line's
# trec output, relstring a string
_NOT_NUMBERS = ("runid", "relstring")

#: family -> (cutoff rule, one-line description), derived from the registry
MEASURE_FAMILIES: dict[str, tuple[str, str]] = {
    family.name: (family.cutoff, family.description) for family in REGISTRY
}

DEFAULT_MEASURES = ("P@5", "P@10", "R@10", "R@100", "RR", "AP", "nDCG@10")

_FAMILY_BY_LOWER = {family.name.lower(): family.name for family in REGISTRY}
_FAMILY_BY_LOWER.update({alias.lower(): family.name for family in REGISTRY
                         for alias in family.aliases})
_ALL_PARAMS = ("rel", "p", "beta", "dcg", "judged_only", "a", "b", "c", "d", "levels")
# words people write for a family: used only to suggest the right name
_LONG_NAMES = {"precision": "P", "prec": "P", "reciprocal_rank": "RR", "average_precision": "AP",
               "hits": "Success", "hit_rate": "Success", "hitrate": "Success",
               "dcg_cut": "DCG", "err": "ERR", "infap": "infAP"}

_NAME_RE = re.compile(
    r"^(?P<family>[A-Za-z_]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[^@]*))?$"
)
_INT_RE = re.compile(r"\+?[0-9]+")  # ASCII digits only, as trec_eval reads them
_LEVEL_RE = re.compile(r"\+?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
_SIGNED_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_ATOL_RE = re.compile(r"\+?[0-9]+(\.[0-9]*)?")  # an integer cutoff as atol reads it: 23.4 -> 23


def _bad_number(value) -> bool:
    return isinstance(value, bool) or not isinstance(value, (int, float))


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
    rel : int, optional
        Minimum grade that counts as relevant, for this measure only.
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

    def __init__(self, family: str, cutoff: float | None = None, rel: int | None = None,
                 p: float | None = None, beta: float | None = None, gains=None, weights=None,
                 levels=None, judged_only: bool | None = None):
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
        return _BY_NAME[self.family]

    def _check(self):
        if self.family not in _BY_NAME:
            raise _unknown(str(self.family))
        family = _BY_NAME[self.family]
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
                if _bad_number(self.cutoff) or not 0 <= self.cutoff <= 1:
                    raise UnknownMeasureError(
                        f"the recall level of 'IPrec' must be a number in [0, 1]; "
                        f"got {self.cutoff!r}"
                    )
                object.__setattr__(self, "cutoff", float(self.cutoff))
            elif rule == "multiple":
                if _bad_number(self.cutoff) or not 0 < self.cutoff < math.inf:
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
        if self.rel is not None and (isinstance(self.rel, bool) or not isinstance(self.rel, int)
                                     or self.rel < 0):
            raise UnknownMeasureError(
                f"rel of {self.family!r} must be a non-negative integer; got {self.rel!r}"
            )
        if self.p is not None and (_bad_number(self.p) or not 0 < self.p < 1):
            raise UnknownMeasureError(
                f"p of {self.family!r} must be a number in (0, 1); got {self.p!r}")
        if self.beta is not None and (_bad_number(self.beta) or not 0 < self.beta < math.inf):
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
            if len(weights) != 4 or any(_bad_number(w) or not math.isfinite(w) for w in weights):
                raise UnknownMeasureError(
                    f"the weights of 'Utility' are 4 numbers (a, b, c, d); got {self.weights!r}")
            object.__setattr__(self, "weights", tuple(float(w) for w in weights))
        if self.levels is not None:
            levels = tuple(self.levels)
            if not levels or any(_bad_number(v) or not math.isfinite(v) for v in levels):
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


def _unknown(name: str) -> UnknownMeasureError:
    valid = sorted(_BY_NAME) + sorted(a for f in REGISTRY for a in f.aliases)
    family = re.split(r"[@(._]", name, maxsplit=1)[0] if name else name
    candidates = valid + sorted(_TREC) + sorted(_NICKNAMES)
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
        "(with '@k' for a cutoff, e.g. 'nDCG@10', and parameters such as 'P(rel=2)@10'), "
        "or trec_eval's names (see docs/measures.md)"
    )


def _as_text(name) -> str:
    if isinstance(name, str):
        return name.strip()
    if type(name).__module__.partition(".")[0] == "ir_measures":
        return str(name).strip()  # an ir_measures measure object: its name is its string form
    raise UnknownMeasureError(f"a measure name must be a string; got {name!r}")


def _number(value: str, key: str, name: str, signed: bool = False) -> float:
    pattern = _SIGNED_RE if signed else _LEVEL_RE
    try:
        number = float(value) if pattern.fullmatch(value) else math.nan
    except OverflowError:  # pragma: no cover - float() saturates to inf instead
        number = math.nan
    if not math.isfinite(number):
        raise UnknownMeasureError(f"{key} in {name!r} must be a number; got {value!r}")
    return number


def _parse_params(text: str, name: str, family: str):
    params = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = (piece.strip() for piece in item.partition("="))
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]  # ir_measures quotes string values: dcg='exp-log2'
        if not sep or not value:
            raise UnknownMeasureError(f"parameters in {name!r} are written key=value; got {item!r}")
        if key not in _ALL_PARAMS and not _INT_RE.fullmatch(key):
            raise UnknownMeasureError(
                f"unknown parameter {key!r} in {name!r}; parameters are "
                f"{', '.join(sorted(_ALL_PARAMS))} and grade=gain pairs such as 2=5"
            )
        if key in params or (_INT_RE.fullmatch(key) and int(key) in params.get("gains", {})):
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
        elif key == "judged_only":
            if value.lower() not in ("true", "false", "1", "0"):
                raise UnknownMeasureError(
                    f"judged_only in {name!r} must be True or False; got {value!r}")
            params[key] = value.lower() in ("true", "1")
        elif key == "levels":
            params[key] = tuple(_number(v.strip(), key, name) for v in value.split(";"))
        elif key in "abcd":
            params.setdefault("weights", {})[key] = _number(value, key, name, signed=True)
        elif _INT_RE.fullmatch(key):
            params.setdefault("gains", {})[int(key)] = _number(value, key, name, signed=True)
        else:
            params[key] = _number(value, key, name)
    if "weights" in params:
        given = params.pop("weights")
        defaults = dict(zip("abcd", (1.0, -1.0, 0.0, 0.0), strict=True))
        defaults.update(given)
        params["weights"] = tuple(defaults[k] for k in "abcd")
    if "dcg" in params:
        if family not in ("nDCG", "nDCG_exp"):
            raise UnknownMeasureError(f"measure {family!r} takes no parameter 'dcg'")
        dcg = params.pop("dcg")
        if family == "nDCG_exp" and dcg == "log2":
            raise UnknownMeasureError(f"{name!r}: nDCG_exp has exponential gain (dcg=exp-log2)")
        family = "nDCG_exp" if dcg == "exp-log2" else family
    return family, params


def _cutoff(raw: str, family: str, name: str):
    rule = _BY_NAME[family].cutoff
    if rule in ("recall", "multiple"):
        if not _LEVEL_RE.fullmatch(raw):
            what = "recall level" if rule == "recall" else "multiple of R"
            bound = " in [0, 1]" if rule == "recall" else ""
            raise UnknownMeasureError(
                f"the {what} in {name!r} must be a number{bound}; got {raw!r}"
            )
        return float(raw)
    if not _INT_RE.fullmatch(raw):
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
            if not _ATOL_RE.fullmatch(raw) or len(raw.lstrip("+").partition(".")[0]) > 18:
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


def _printed(trec: TrecName, value, decimals: int = 2) -> str:
    """The name trec_eval prints (``%3.2f`` for real cutoffs); a label keeps more decimals
    when more are given (``iprec_at_recall.0.125`` is labelled ``iprec_at_recall_0.125``,
    trec_eval prints ``iprec_at_recall_0.12``)."""
    if trec.kind == "double":
        return f"{trec.name}_{value:.{max(decimals, 2)}f}"
    return f"{trec.name}_{value}"


def _trec_params(trec: TrecName, family: str, text: str, name: str) -> dict:
    """The parameters of ``name.TEXT`` for the kinds printed with their text."""
    if trec.kind == "pairs":
        pairs = {}
        for item in text.split(","):
            key, sep, value = (piece.strip() for piece in item.partition("="))
            if not sep or not key or not value:
                raise UnknownMeasureError(
                    f"parameters in {name!r} are written name=value pairs; got {item!r}")
            pairs[key] = value
        params_text = ",".join(f"{k}={v}" for k, v in pairs.items())
        return _parse_params(params_text, name, family)[1]
    values = [_number(v.strip(), "parameter", name, signed=True) for v in text.split(",")]
    if trec.field == "levels":
        return {"levels": tuple(values)}
    if len(values) != 4:
        raise UnknownMeasureError(
            f"{trec.name} takes 4 coefficients (a, b, c, d); got {text!r} in {name!r}")
    return {"weights": tuple(values)}


def _expand_trec(text: str, explicit: dict | None = None) -> list[tuple[str, Measure]] | None:
    """trec_eval spellings: ``name``, ``name.params`` and the printed ``name_value``."""
    base, dot, params = text.partition(".")
    if base in _TREC and (dot or base in _TREC):
        trec, family = _TREC[base]
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
            return [(_printed(trec, k, d), Measure(family.name, k)) for k, d in cutoffs]
        if not dot:
            return [(base, Measure(family.name))]
        return [(f"{base}_{params}", Measure(family.name, **_trec_params(trec, family.name,
                                                                          params, text)))]
    # a printed name: P_5, iprec_at_recall_0.10, utility_2,-1,0,0
    for cut in range(len(text) - 1, 0, -1):
        if text[cut] != "_" or text[:cut] not in _TREC:
            continue
        trec, family = _TREC[text[:cut]]
        rest = text[cut + 1:]
        if trec.kind == "plain" or not rest:
            continue
        if trec.kind in ("long", "double"):
            if "," in rest:  # a list after the underscore: P_5,10
                return [(_printed(trec, k, d), Measure(family.name, k))
                        for k, d in _trec_cutoffs(rest, trec, family.name, text)]
            return [(text, Measure(family.name, _cutoff(rest, family.name, text)))]
        return [(text, Measure(family.name, **_trec_params(trec, family.name, rest, text)))]
    return None


def _expand(name, explicit: dict | None = None) -> list[tuple[str, Measure]]:
    """Parse one name into ``(column label, measure)`` pairs (several for lists and defaults)."""
    if isinstance(name, Measure):
        return [(str(name), name)]
    text = _as_text(name)
    if text in _NICKNAMES:
        return [pair for part in _NICKNAMES[text] if part not in _NOT_NUMBERS
                for pair in _expand_trec(part, explicit)]
    if text.lower() in _NICKNAMES:
        return _expand(text.lower(), explicit)
    if text in _NOT_NUMBERS or text.partition(".")[0] in _NOT_NUMBERS:
        raise UnknownMeasureError(
            f"{text!r} is not a number per query: trec_eval's {text.partition('.')[0]} line is "
            "printed by 'reteval evaluate --format trec' with -m official or all_trec")
    match = _NAME_RE.match(text)
    if match and ("@" in text or "(" in text):
        family = _FAMILY_BY_LOWER.get(match["family"].lower())
        if family is None:
            raise _unknown(text)
        family, params = _parse_params(match["params"] or "", text, family)
        raw = match["cutoff"]
        spec = _BY_NAME[family]
        if raw is None:
            if spec.cutoff in ("required", "recall", "multiple") and spec.default_cutoffs:
                return [(str(m), m) for m in (Measure(family, k, **params)
                                              for k in spec.default_cutoffs)]
            return [(text, Measure(family, **params))]
        return [(text, Measure(family, _cutoff(raw, family, text), **params))]
    trec = None if text in _BY_NAME else _expand_trec(text, explicit)
    if trec is not None:
        return trec
    if text.lower() in _FAMILY_BY_LOWER:
        family = _BY_NAME[_FAMILY_BY_LOWER[text.lower()]]
        if family.cutoff in ("required", "recall", "multiple") and family.default_cutoffs:
            return [(str(m), m) for m in (Measure(family.name, k)
                                          for k in family.default_cutoffs)]
        return [(text, Measure(family.name))]
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


def _explicit_params(names) -> dict:
    """trec_eval names given with parameters (``P.5,10``): a nickname's ``P`` uses them."""
    explicit = {}
    for name in names:
        if isinstance(name, str):
            base, dot, params = name.strip().partition(".")
            if dot and params and base in _TREC and _TREC[base][0].kind != "plain":
                explicit.setdefault(base, params)  # the first given wins, as in trec_eval
    return explicit


def measure_columns(names) -> list[tuple[str, Measure]]:
    """Parse names into ``(column label, measure)`` pairs, expanding lists and defaults.

    A name that stands for one measure keeps its spelling as the label (``MRR``
    stays ``MRR``). Lists, nicknames and trec_eval names without parameters are
    labelled as trec_eval prints them (``P_5,10`` gives ``P_5`` and ``P_10``);
    reteval family names without a cutoff with reteval's names (``P`` gives ``P@5``
    ... ``P@1000``). A measure asked for twice is kept once (the first label), and, as
    in trec_eval, a nickname's member given with parameters elsewhere uses them
    (``-m P.5,10 -m official`` gives ``P_5`` and ``P_10`` once).

    Examples
    --------
    >>> [label for label, _ in measure_columns(["MRR", "P.5,10", "ndcg_cut_20"])]
    ['MRR', 'P_5', 'P_10', 'ndcg_cut_20']
    >>> [label for label, _ in measure_columns("success")]
    ['success_1', 'success_5', 'success_10']
    >>> [label for label, _ in measure_columns(["AP", "P.5", "official"])][:3]
    ['AP', 'P.5', 'num_q']
    """
    names = _as_list(names)
    explicit = _explicit_params(names)
    pairs = [pair for name in names for pair in _expand(name, explicit)]
    if not pairs:
        raise UnknownMeasureError("no measures given")
    seen, labels, kept = set(), set(), []
    for label, measure in pairs:
        if measure in seen:
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
                                       _NICKNAMES.get(n.strip(), ()))
               for n in _as_list(names))


def without_text(names) -> list:
    """The names without ``runid`` and ``relstring``, trec_eval lines that are not numbers."""
    return [n for n in _as_list(names)
            if not (isinstance(n, str) and n.strip().partition(".")[0] in _NOT_NUMBERS)]


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
            if not _ATOL_RE.fullmatch(params.strip()):
                raise UnknownMeasureError(f"the length in {name!r} must be an integer")
            return int(params.strip().lstrip("+").partition(".")[0])
        if base == "relstring" or "relstring" in _NICKNAMES.get(base, ()):
            length = 10
    return length


def _trec_text(measure: Measure):
    """``(trec name, order)`` of a measure, or None when trec_eval has no such measure."""
    family = measure.spec
    if measure.rel is not None or measure.judged_only or not family.trec:
        return None
    if family.name == "SetF" and measure.beta not in (None, 1):
        return None
    if family.name == "nDCG" and measure.cutoff is not None:
        if measure.gains is not None:
            return None
        trec = family.trec[1]
        return _printed(trec, measure.cutoff), trec.order
    trec = family.trec[0]
    if trec.kind in ("long", "double"):
        if measure.cutoff is None:
            return None
        return _printed(trec, measure.cutoff), trec.order
    if family.name == "AP" and measure.cutoff is not None:
        trec = family.trec[1]
        return _printed(trec, measure.cutoff), trec.order
    if family.cutoff == "optional" and measure.cutoff is not None:
        return None
    if trec.kind == "pairs":
        pairs = [f"{level}={gain:g}" for level, gain in measure.gains or ()]
        if measure.p is not None and measure.p != family.defaults.get("p", 0.9):
            pairs.append(f"p={measure.p:g}")
        return (f"{trec.name}_{','.join(pairs)}" if pairs else trec.name), trec.order
    if trec.kind == "doubles":
        values = measure.weights if trec.field != "levels" else measure.levels
        if values is None or (trec.field == "levels" and values == _LEVELS):
            return trec.name, trec.order
        return f"{trec.name}_{','.join(f'{v:g}' for v in values)}", trec.order
    return trec.name, trec.order


def trec_name(measure) -> str | None:
    """The name trec_eval prints for a measure, or None when trec_eval has no such measure.

    Measures with their own ``rel`` or ``judged_only`` have no trec_eval name (trec_eval's
    ``-l`` and ``-J`` are global). A name trec_eval prints is returned as given: the
    parameters of ``utility_2,-1,0,0`` or ``11pt_avg_.25,.5`` keep their spelling.

    Examples
    --------
    >>> trec_name("nDCG@10"), trec_name("AP"), trec_name("IPrec@0.1"), trec_name("Judged@10")
    ('ndcg_cut_10', 'map', 'iprec_at_recall_0.10', None)
    >>> trec_name("11pt_avg_.25,.5,.75"), trec_name("GMAP"), trec_name("nDCG(1=3,2=9)")
    ('11pt_avg_.25,.5,.75', 'gm_map', 'ndcg_1=3,2=9')
    """
    m = parse_measure(measure)
    text = _trec_text(m)
    if text is None:
        return None
    if isinstance(measure, str):
        given = measure.strip()
        base = given.partition(".")[0]
        for cut in range(len(given) - 1, 0, -1):
            if given[cut] == "_" and given[:cut] in _TREC:
                base = given[:cut]
                break
        if base in _TREC and _TREC[base][0].kind in ("pairs", "doubles") and given != base:
            return given.replace(".", "_", 1) if "." in given[:len(base) + 1] else given
    return text[0]


def trec_order(measure) -> int:
    """The place of a measure in trec_eval's output (its table of measures); large if none."""
    text = _trec_text(parse_measure(measure))
    return 1000 if text is None else text[1]


def measures_markdown() -> str:
    """The whole page ``docs/measures.md`` (``python -m reteval.evaluation.measures`` prints it)."""
    return (
        "# Measures\n\n"
        "Every measure reteval computes, with its trec_eval name where trec_eval has one "
        "(trec_eval 10;\nvalues are identical). Generated from the measure registry "
        "(`reteval/evaluation/measures.py`) by\n"
        "`python -m reteval.evaluation.measures > docs/measures.md`; a test "
        "checks that this page matches it.\n\n"
        "A trec_eval name takes its parameters after a dot (`P.5,10`, `ndcg.1=3,2=9`) and is "
        "printed\nwith an underscore (`P_5`, `ndcg_1=3,2=9`); both spellings are accepted. "
        "reteval names\ntake a cutoff after `@` and parameters in parentheses "
        "(`P(rel=2)@10`, `AP(judged_only=True)`).\n\n"
        + measures_table()
        + "\n## trec_eval's options\n\n"
        "| trec_eval | `reteval evaluate` | `reteval.evaluate(...)` |\n|---|---|---|\n"
        "| `-m NAME` | `-m NAME`, `--measure` | `measures=[...]` |\n"
        "| `-q` | `-q`, `--per-query`, `--query_eval_wanted` | one row per query, always |\n"
        "| `-c` | `-c`, `--complete_rel_info_wanted` (the default: `--missing zero`) | "
        "`missing=\"zero\"` |\n"
        "| `-l N` | `-l N`, `--relevance-level`, `--level_for_rel` | `relevance_level=N` |\n"
        "| `-M N` | `-M N`, `--max-docs`, `--Max_retrieved_per_topic` | `max_docs=N` |\n"
        "| `-J` | `-J`, `--judged-only`, `--Judged_docs_only` | `judged_only=True` (or "
        "`AP(judged_only=True)` for one measure) |\n"
        "| `-N N` | `-N N`, `--num-docs`, `--Number_docs_in_coll` | `num_docs=N` |\n"
        "| `-R FORMAT` | `-R FORMAT`, `--rel-format`, `--Rel_info_format` | "
        "`rel_format=FORMAT` |\n"
        "| `-Z FILE` | `-Z FILE`, `--zscores`, `--Zscore` | `zscores=FILE` |\n"
        "\n`reteval evaluate --format trec` prints trec_eval's text: the same names, order, "
        "`runid`,\n`relstring` and `Z` lines, and values (`%6.4f` of the same doubles).\n"
        "\nTwo places where trec_eval 10 prints what is arguably a slip, and reteval does "
        "not:\n\n"
        "* with `-J`, a query none of whose retrieved documents is judged: trec_eval's "
        "`iprec_at_recall` and\n  `11pt_avg` divide 0 by 0 and print `-nan` (and so does its "
        "`all` line); reteval gives 0.\n"
        "* with `-c` and `-l N` (N > 1): trec_eval's `num_rel` `all` line counts the "
        "judgments with a grade\n  above 0; reteval sums the per-query `num_rel` (grades of "
        "N or more).\n"
    )


def measures_table() -> str:
    """The Markdown table of ``docs/measures.md``: every family, its trec_eval names.

    Examples
    --------
    >>> print(measures_table().splitlines()[3])
    | `num_q` | `NumQ` | none | 1 for every evaluated query (summed: the number of queries) |
    """
    rule = {"none": "none", "optional": "optional k", "required": "k",
            "recall": "recall level r", "multiple": "multiple m of R"}
    lines = ["| trec_eval name | reteval name | cutoff | what it is |", "|---|---|---|---|"]
    rows = []
    for family in REGISTRY:
        names = []
        for trec in family.trec:
            if trec.kind == "long" or trec.kind == "double":
                shown = f"`{trec.name}.a,b,...` (default " + ",".join(
                    f"{v:g}" for v in trec.defaults) + ")"
            elif trec.kind == "pairs":
                shown = f"`{trec.name}`, `{trec.name}.1=g1,2=g2,...`"
            elif trec.kind == "doubles":
                shown = f"`{trec.name}`, `{trec.name}.x,y,...`"
            else:
                shown = f"`{trec.name}`"
            names.append((trec.order, shown))
        order = min((o for o, _ in names), default=1000)
        aliases = "".join(f", `{a}`" for a in family.aliases)
        shown_names = ", ".join(s for _, s in names) or "(none)"
        row = (f"| {shown_names} | `{family.name}`{aliases} | {rule[family.cutoff]} | "
               f"{family.description} |")
        rows.append((order, row))
    rows.append((0, "| `runid` | (text) | none | the run's tag: a line of `--format trec` |"))
    relstring = ("| `relstring`, `relstring.n` | (text) | none | the grades of the top n "
                 "documents as characters, per query: lines of `--format trec -q` |")
    rows.append((12, relstring))
    lines += [row for _, row in sorted(rows, key=lambda r: r[0])]
    note = ("Preference measures need `-R prefs` or `-R qrels_prefs` judgments "
            "(`rel_format=` in Python), the `*_avgjg` measures `-R qrels_jg`.")
    lines += ["", note]
    nicknames = "; ".join(f"`{k}`: " + " ".join(v) for k, v in _NICKNAMES.items())
    lines += ["", f"trec_eval's nicknames: {nicknames}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(measures_markdown(), end="")
