"""The measure families: one :class:`Family` record per family in :data:`REGISTRY`, with
its names, cutoff rule, parameters, trec_eval names, kernel and aggregation.

The spelling of names is :mod:`reteval.measures.names`.
"""

from __future__ import annotations

import difflib
import re

from reteval.errors import UnknownMeasureError

__all__ = ["DEFAULT_MEASURES", "MEASURE_FAMILIES", "REGISTRY", "Family", "TrecName",
           "not_a_number", "unknown_measure"]


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
        Name of the function of :mod:`reteval.measures.kernels` that computes it.
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
LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
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
           kernel="interpolated_precision", params=_R, default_cutoffs=LEVELS,
           trec=(TrecName("iprec_at_recall", "double", LEVELS, order=10),)),
    Family("P", "precision at k", cutoff="required", kernel="precision", params=_R,
           aliases=("Precision",), trec=(TrecName("P", "long", _LONG, order=11),),
           default_cutoffs=_LONG),
    Family("R", "recall at k", cutoff="required", kernel="recall", params=_R,
           aliases=("Recall",), trec=(TrecName("recall", "long", _LONG, order=13),),
           default_cutoffs=_LONG),
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
           params=("beta",) + _R, trec=(TrecName("set_F", "doubles", order=34, field="beta"),)),
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

BY_NAME = {family.name: family for family in REGISTRY}
TREC_NAMES = {trec.name: (trec, family) for family in REGISTRY for trec in family.trec}

# trec_eval's nicknames (measures.c); runid is printed by the command line only
NICKNAMES = {
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
NOT_NUMBERS = ("runid", "relstring")

#: family -> (cutoff rule, one-line description), derived from the registry
MEASURE_FAMILIES: dict[str, tuple[str, str]] = {
    family.name: (family.cutoff, family.description) for family in REGISTRY
}

DEFAULT_MEASURES = ("P@5", "P@10", "R@10", "R@100", "RR", "AP", "nDCG@10")

FAMILY_BY_LOWER = {family.name.lower(): family.name for family in REGISTRY}
FAMILY_BY_LOWER.update({alias.lower(): family.name for family in REGISTRY
                         for alias in family.aliases})
ALL_PARAMS = ("rel", "p", "beta", "dcg", "judged_only", "a", "b", "c", "d", "levels")
# words people write for a family: used only to suggest the right name
LONG_NAMES = {"precision": "P", "prec": "P", "reciprocal_rank": "RR", "average_precision": "AP",
               "hits": "Success", "hit_rate": "Success", "hitrate": "Success",
               "dcg_cut": "DCG", "err": "ERR", "infap": "infAP"}

NAME_RE = re.compile(
    r"^(?P<family>[A-Za-z_]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[^@]*))?$"
)
INT_RE = re.compile(r"\+?[0-9]+")  # ASCII digits only, as trec_eval reads them
LEVEL_RE = re.compile(r"\+?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
SIGNED_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
ATOL_RE = re.compile(r"\+?[0-9]+(\.[0-9]*)?")  # an integer cutoff as atol reads it: 23.4 -> 23


def not_a_number(value) -> bool:
    """Whether a parameter value is not an int or float (a bool is not a number here)."""
    return isinstance(value, bool) or not isinstance(value, (int, float))


def unknown_measure(name: str) -> UnknownMeasureError:
    """The error for an unknown measure name, with the nearest valid name as a hint."""
    valid = sorted(BY_NAME) + sorted(a for f in REGISTRY for a in f.aliases)
    family = re.split(r"[@(._]", name, maxsplit=1)[0] if name else name
    candidates = valid + sorted(TREC_NAMES) + sorted(NICKNAMES)
    # a trec_eval name run into its parameter (iprec_at_recall0.5): the longest such name
    starts = [t for t in TREC_NAMES if name.startswith(t) and len(t) > 1]
    near = [max(starts, key=len)] if starts else []
    words = difflib.get_close_matches(family.lower(), list(LONG_NAMES), n=1, cutoff=0.8)
    near = near or ([LONG_NAMES[words[0]]] if words else [])
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
