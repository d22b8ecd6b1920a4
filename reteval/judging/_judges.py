"""Judges: asking a function (a model, a rule, a person) for relevance grades.

:func:`judge` sends each (query, document) pair of a pool to a judge, any
callable ``(query_text, doc_text) -> grade``, and collects qrels that say who
judged them. :class:`TermOverlapJudge` is a deterministic offline judge for
teaching. :func:`compare_judgments` asks the question that matters: with these
judgments instead of the human ones, would we rank the systems the same way?
"""

from __future__ import annotations

import itertools
import numbers
import re
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pandas as pd

from reteval._util.catalogue import check_lang, phrase
from reteval._util.languages import language
from reteval.errors import InputError, RetevalError, outside_stacklevel

__all__ = [
    "JudgeError",
    "JudgeWarning",
    "JudgmentComparison",
    "Judgments",
    "TermOverlapJudge",
    "compare_judgments",
    "is_judge_name",
    "judge",
    "judge_name",
]


class JudgeError(RetevalError):
    """A judge raised, or gave an answer that is not a grade (with ``on_error="raise"``)."""


class JudgeWarning(UserWarning):
    """Some answers failed and were left out (with ``on_error="record"``)."""


@dataclass(frozen=True, repr=False)
class Judgments:
    """The result of :func:`judge`.

    Attributes
    ----------
    qrels : pandas.DataFrame
        ``query_id``, ``doc_id``, ``relevance`` (the majority grade), ``judge``
        (the judge's name: provenance) and ``votes`` (the valid grades given, a
        tuple). Items whose every answer failed are not in it (see ``failures``).
        Empty for a dry run.
    failures : pandas.DataFrame
        One row per failed answer: ``query_id``, ``doc_id``, ``sample``, ``error``.
    calls : int
        Calls made (for a dry run: calls that would be made).
    characters : int
        Characters of query and document text sent (or that would be sent).
    dry_run : bool
    lang : {"en", "zh"}
        Language of :attr:`summary` (what ``print`` shows); ``repr`` is English.
    cached : int
        Answers taken from the cache instead of asked (0 without a cache).
    name : str
        The judge's name (what the ``judge`` column holds; said also when every answer
        failed and the qrels are empty).
    """

    qrels: pd.DataFrame
    failures: pd.DataFrame
    calls: int
    characters: int
    dry_run: bool = False
    lang: str = "en"
    cached: int = 0
    name: str = ""

    @property
    def failed(self) -> int:
        """How many answers failed (raised, or were not a grade)."""
        return len(self.failures)

    @property
    def summary(self) -> str:
        """One line: the calls and characters, the items judged, by whom, and the failures.

        Examples
        --------
        >>> result = judge({"q1": ["d1"]}, lambda q, d: 1, queries={"q1": "cats"},
        ...                docs={"d1": "a cat"}, name="one", lang="zh")
        >>> print(result)
        相关性判断：判定器 one 判断了 1 个（查询，文档）对；调用 1 次，发送 9 个字符，0 个回答失败
        """
        return self._line(self.lang)

    def _line(self, lang: str) -> str:
        cached = "_cached" if self.cached else ""
        if self.dry_run:
            return phrase(f"judging.dry_run{cached}", lang, calls=self.calls,
                          characters=self.characters, cached=self.cached)
        judges = language(lang).separator.join(sorted(set(self.qrels["judge"])))
        return phrase(f"judging.summary{cached}", lang, items=len(self.qrels),
                      judges=judges or self.name or phrase("judging.none", lang),
                      calls=self.calls,
                      characters=self.characters, failed=self.failed, cached=self.cached)

    def __repr__(self) -> str:
        return self._line("en")

    def __str__(self) -> str:
        return self.summary


def _text(value, what: str, key) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        parts = [str(value.get("title") or ""), str(value.get("text") or "")]
        return "\n".join(p for p in parts if p)
    raise InputError(f"{what} {key!r}: the text must be a string or a {{'title', 'text'}} "
                     f"mapping; got {type(value).__name__}")


class _NotAGrade(ValueError):
    """An answer that is not a grade; its message is English, ``key`` and ``fields`` say it in
    either language (``phrase(key, lang, **fields)``)."""

    def __init__(self, key: str, **fields):
        self.key, self.fields = key, fields
        super().__init__(phrase(key, "en", **fields))


def _grade(answer, grades: tuple[int, ...]) -> int:
    """The answer as one of ``grades``; ValueError if it is not one."""
    if isinstance(answer, str):
        stripped = answer.strip()
        if not stripped.lstrip("-").isdigit():
            raise _NotAGrade("judging.not_integer", answer=answer[:40])
        try:
            value = int(stripped)
        except ValueError:  # "--1", or digits int() does not read ("²")
            raise _NotAGrade("judging.not_integer", answer=answer[:40]) from None
    elif isinstance(answer, numbers.Real) and not isinstance(answer, bool) \
            and float(answer).is_integer():
        value = int(answer)
    else:
        raise _NotAGrade("judging.not_integer", answer=answer)
    if value not in grades:
        raise _NotAGrade("judging.not_a_grade", value=value, grades=list(grades))
    return value


def _majority(votes: list[int]) -> int:
    counts = Counter(votes)
    top = max(counts.values())
    return min(g for g, c in counts.items() if c == top)


def judge_name(fn, name=None) -> str:
    """``name``, else the judge's ``name`` attribute, its function name or its type's name.

    Examples
    --------
    >>> def by_length(query, doc):
    ...     return 1
    >>> judge_name(by_length), judge_name(by_length, "short-is-bad")
    ('by_length', 'short-is-bad')
    """
    if name is not None:
        return str(name)
    return str(getattr(fn, "name", None) or getattr(fn, "__name__", None) or type(fn).__name__)


def is_judge_name(value) -> bool:
    """Whether ``value`` names a judge: a string with something besides white space.

    Examples
    --------
    >>> is_judge_name("gpt-4o-umbrela"), is_judge_name("  "), is_judge_name(None)
    (True, False, False)
    """
    return isinstance(value, str) and bool(value.strip())


def _given_a_name(fn) -> bool:
    """Whether a judge carries a name of its own (a ``name`` attribute; for a judge made by
    :func:`~reteval.judging.llm_judge`, one that was given), not a function's name."""
    return bool(getattr(fn, "named", is_judge_name(getattr(fn, "name", None))))


def _items(pool) -> pd.DataFrame:
    if isinstance(pool, pd.DataFrame):
        missing = {"query_id", "doc_id"} - set(pool.columns)
        if missing:
            raise InputError(
                f"the pool needs columns query_id and doc_id; missing {sorted(missing)}"
            )
        items = pool[["query_id", "doc_id"]].astype(str)
    elif isinstance(pool, Mapping):
        items = pd.DataFrame([(str(q), str(d)) for q, docs in pool.items() for d in docs],
                             columns=["query_id", "doc_id"])
    else:
        raise InputError("the pool must be a DataFrame (query_id, doc_id) or a mapping "
                         f"{{query_id: [doc ids]}}; got {type(pool).__name__}")
    if items.duplicated().any():
        q, d = items[items.duplicated()].iloc[0]
        raise InputError(f"the pool lists query {q!r}, document {d!r} twice")
    if items.empty:
        raise InputError("the pool is empty: nothing to judge")
    return items.reset_index(drop=True)


def judge(pool, judge: Callable[[str, str], object], *, queries: Mapping, docs: Mapping,
          samples: int = 1, dry_run: bool = False, grades=(0, 1, 2, 3), name: str | None = None,
          on_error: str = "raise", lang: str = "en", cache=None) -> Judgments:
    """Ask ``judge`` for a grade of every (query, document) pair of ``pool``.

    Parameters
    ----------
    pool : DataFrame or mapping
        The pairs to judge: a table with ``query_id`` and ``doc_id`` (what
        :func:`pool` returns) or ``{query_id: [doc ids]}``.
    judge : callable
        ``judge(query_text, doc_text)`` returns a grade: an integer, or a string
        holding one (an LLM's answer); anything else is an unparsable answer.
    queries : mapping
        Query id -> query text.
    docs : mapping
        Document id -> text, or ``{"title": ..., "text": ...}`` (a collection's
        corpus); the judge gets ``title + "\\n" + text``.
    samples : int, default 1
        Times each pair is asked. The grade is the majority of the valid answers,
        a tie going to the lower grade (the cautious choice).
    dry_run : bool, default False
        Count the calls and the characters that would be sent, and call nothing.
    grades : sequence of int, default (0, 1, 2, 3)
        The valid grades; any other answer is unparsable.
    name : str, optional
        Name recorded in the ``judge`` column (default: the judge's ``name``
        attribute or function name).
    on_error : {"raise", "record"}, default "raise"
        "raise": the first failing call or unparsable answer raises
        :class:`JudgeError` naming the query and the document. "record": failed
        answers are listed in ``failures``, counted, and warned about
        (:class:`JudgeWarning`); an item with no valid answer is left out of the qrels.
    lang : {"en", "zh"}, default "en"
        Language of the warning, of the recorded reasons an answer is not a
        grade (``failures``), and of the result's :attr:`Judgments.summary`.
        A :class:`JudgeError` is English.
    cache : str or path-like, optional
        A judgment cache file (SQLite; created when absent, its folder must
        exist), for a judge with a name of its own (``name=``, a ``name``
        attribute, or :func:`llm_judge`'s ``name``): a function's own name may
        be another function's. A grade is kept under the judge's name, its ``prompt``
        attribute (see :func:`llm_judge`) and the query and document texts,
        with the sample's number: a question asked before is answered from
        the file, so judging a grown pool sends only the new pairs, and a dry
        run counts only those. Every valid grade is written as soon as its
        pair is judged (one transaction per pair); failed answers are not
        kept. Another judge name, another prompt or changed texts are new
        questions; a judge's other settings are not in the key (give a judge
        whose settings change, e.g. ``TermOverlapJudge`` thresholds, another
        ``name``). ``calls`` and ``characters`` count only what was sent;
        ``cached`` counts the answers taken from the file.

    Returns
    -------
    Judgments

    Raises
    ------
    InputError
        A malformed pool, a query or document without text, bad options.
    JudgeError
        With ``on_error="raise"``: the judge raised or gave no valid grade.

    Examples
    --------
    >>> def by_length(query, doc):
    ...     return 1 if len(doc) > 10 else 0
    >>> result = judge({"q1": ["d1", "d2"]}, by_length, queries={"q1": "cats"},
    ...                docs={"d1": "short", "d2": "a longer text"})
    >>> result.qrels[["query_id", "doc_id", "relevance", "judge"]]
      query_id doc_id  relevance     judge
    0       q1     d1          0  by_length
    1       q1     d2          1  by_length
    >>> judge({"q1": ["d1", "d2"]}, by_length, queries={"q1": "cats"},
    ...       docs={"d1": "short", "d2": "a longer text"}, samples=3, dry_run=True)
    Judgments(dry run: 6 calls, 78 characters)

    With a cache, the second time asks only the pair not judged before:

    >>> import pathlib, tempfile
    >>> cache = pathlib.Path(tempfile.mkdtemp()) / "judgments.sqlite"
    >>> docs = {"d1": "short", "d2": "a longer text", "d3": "another long text"}
    >>> judge({"q1": ["d1", "d2"]}, by_length, queries={"q1": "cats"}, docs=docs, cache=cache,
    ...       name="by_length")
    Judgments(2 items judged by by_length; 2 calls, 26 characters, 0 failed answers)
    >>> judge({"q1": ["d1", "d2", "d3"]}, by_length, queries={"q1": "cats"}, docs=docs,
    ...       cache=cache, name="by_length")
    Judgments(3 items judged by by_length; 1 calls, 21 characters, 0 failed answers, \
2 answers from the cache)
    """
    if not callable(judge):
        raise InputError(f"judge must be a callable (query_text, doc_text) -> grade; "
                         f"got {type(judge).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, numbers.Integral) or samples < 1:
        raise InputError(f"samples must be a positive integer; got {samples!r}")
    if on_error not in ("raise", "record"):
        raise InputError(f"on_error must be 'raise' or 'record'; got {on_error!r}")
    if name is not None and not is_judge_name(name):
        raise InputError(f"name must be a non-empty string; got {name!r}")
    lang = check_lang(lang)
    grades = tuple(int(g) for g in grades)
    items = _items(pool)
    texts = []
    for q, d in items.itertuples(index=False):
        if q not in queries:
            raise InputError(f"query {q!r} of the pool has no text in queries")
        if d not in docs:
            raise InputError(f"document {d!r} of the pool (query {q!r}) has no text in docs")
        texts.append((_text(queries[q], "query", q), _text(docs[d], "document", d)))
    who = judge_name(judge, name)
    if cache is not None and name is None and not _given_a_name(judge):
        raise InputError(
            f"judge(..., cache=) needs a name for the judge, under which the cache keeps its "
            f"grades: name=..., or llm_judge(..., name=...), after the model and the prompt "
            f"(e.g. 'gpt-4o-umbrela'); {who!r} is a function's own name, which another "
            f"model's function may share, and its grades would be taken for this one's")
    # a dry run reads a cache that exists and never creates one
    store = None if cache is None or (dry_run and not _exists(cache)) else _open_cache(cache)
    try:
        known, keys = _cached_grades(store, judge, who, texts, samples, grades)
        asked = [[s for s in range(1, samples + 1) if s not in got] for got in known]
        calls = sum(len(a) for a in asked)
        characters = sum(len(a) * (len(qt) + len(dt)) for a, (qt, dt) in zip(asked, texts,
                                                                              strict=True))
        cached = len(items) * samples - calls
        if dry_run:
            return Judgments(qrels=_empty_qrels(), failures=_empty_failures(), calls=calls,
                             characters=characters, dry_run=True, lang=lang, cached=cached)
        rows, failures = [], []
        for number, ((q, d), (qt, dt)) in enumerate(zip(items.itertuples(index=False), texts,
                                                        strict=True), start=1):
            where = f"query {q!r}, document {d!r} (item {number} of {len(items)}"
            new = _ask(judge, qt, dt, asked[number - 1], grades, where, on_error, failures,
                       (q, d), lang, samples)
            if store is not None:
                store.store(keys[number - 1], new, judge=who)
            by_sample = {**known[number - 1], **new}
            votes = [by_sample[s] for s in sorted(by_sample)]
            if votes:
                rows.append((q, d, _majority(votes), who, tuple(votes)))
    finally:
        if store is not None:
            store.close()
    qrels = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance", "judge", "votes"])
    qrels = qrels.astype({"relevance": "int64"})
    failed = pd.DataFrame(failures, columns=["query_id", "doc_id", "sample", "error"])
    if failures:
        lost = len(items) - len(qrels)
        warnings.warn(phrase("judging.failed", lang, failed=len(failures), calls=calls,
                             judge=who, lost=lost, attribute=".failures"),
                      JudgeWarning, stacklevel=outside_stacklevel())
    return Judgments(qrels=qrels, failures=failed, calls=calls, characters=characters,
                     dry_run=False, lang=lang, cached=cached, name=who)


def _exists(path) -> bool:
    from reteval.io.textfile import as_path

    return as_path(path, "judgment cache path").exists()


def _open_cache(path):
    from reteval.judging._cache import JudgmentCache

    return JudgmentCache(path)


def _cached_grades(store, fn, who: str, texts, samples: int, grades) -> tuple[list, list]:
    """Per item, ``{sample: grade}`` of the valid grades in the cache, and the items' keys."""
    if store is None:
        return [{} for _ in texts], [None] * len(texts)
    from reteval.judging._cache import cache_key

    prompt = getattr(fn, "prompt", "")
    prompt = prompt if isinstance(prompt, str) else repr(prompt)
    keys = [cache_key(who, prompt, qt, dt) for qt, dt in texts]
    found = store.lookup(keys)
    known = [{s: found[(key, s)] for s in range(1, samples + 1)
              if found.get((key, s)) in grades} for key in keys]
    return known, keys


def _ask(fn, query_text, doc_text, numbers, grades, where, on_error, failures, item,
         lang="en", samples=1) -> dict:
    """``{sample: grade}`` of the valid answers to the samples ``numbers``; failures appended
    to ``failures`` or raised."""
    votes = {}
    for sample in numbers:
        place = where + (f", sample {sample})" if samples > 1 else ")")
        try:
            answer = fn(query_text, doc_text)
        except Exception as exc:  # any failure of the caller's judge is reported
            if on_error == "raise":
                raise JudgeError(f"the judge failed on {place}: "
                                 f"{type(exc).__name__}: {exc}") from exc
            failures.append((*item, sample, f"{type(exc).__name__}: {exc}"))
            continue
        try:
            votes[sample] = _grade(answer, grades)
        except _NotAGrade as exc:
            if on_error == "raise":
                raise JudgeError(f"the judge's {exc} on {place}") from None
            failures.append((*item, sample, phrase(exc.key, lang, **exc.fields)))
    return votes


def _empty_qrels() -> pd.DataFrame:
    return pd.DataFrame({"query_id": pd.Series(dtype=str), "doc_id": pd.Series(dtype=str),
                         "relevance": pd.Series(dtype="int64"), "judge": pd.Series(dtype=str),
                         "votes": pd.Series(dtype=object)})


def _empty_failures() -> pd.DataFrame:
    return pd.DataFrame({"query_id": pd.Series(dtype=str), "doc_id": pd.Series(dtype=str),
                         "sample": pd.Series(dtype="int64"), "error": pd.Series(dtype=str)})


@dataclass(frozen=True)
class TermOverlapJudge:
    """A deterministic offline judge: the grade is the share of query terms in the document.

    The query and the document are tokenized by the retrievers' tokenizer
    (English words, stemmed, stop words removed; Chinese character bigrams).
    The share of the query's distinct terms that occur in the document is
    compared with ``thresholds``: the grade is how many of them it reaches.
    It is a rule, not a reader: it cannot see a paraphrase, a synonym or a
    translation, and a document that merely repeats the query's words fools
    it. That is what it is for: a judge whose mistakes can be explained.

    Parameters
    ----------
    thresholds : tuple of float, default (0.25, 0.5, 0.75)
        Increasing shares for grades 1, 2, 3, ...
    name : str, optional
        What judgments and the judge cache call it: by default ``"term-overlap"``, followed by
        the thresholds when they are not the default ones (two rules, two names: a cache
        never gives one's grades to the other). A name of that form is always the one of
        the thresholds.

    Examples
    --------
    >>> j = TermOverlapJudge()
    >>> j("install Python packages", "How to install packages with pip for Python.")
    3
    >>> j("install Python packages", "Giant pandas eat bamboo.")
    0
    >>> j.name, TermOverlapJudge((0.5, 1.0)).name
    ('term-overlap', 'term-overlap(0.5,1.0)')
    """

    thresholds: tuple[float, ...] = (0.25, 0.5, 0.75)
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        t = tuple(float(x) for x in self.thresholds)
        increasing = all(a < b for a, b in itertools.pairwise(t))
        if not t or not increasing or t[0] <= 0 or t[-1] > 1:
            raise InputError(f"thresholds must increase within (0, 1]; got {self.thresholds!r}")
        object.__setattr__(self, "thresholds", t)
        if not self.name or re.fullmatch(r"term-overlap(\(.*\))?", self.name):
            # a name of this form always says the thresholds (dataclasses.replace too)
            shown = "" if t == (0.25, 0.5, 0.75) else "(" + ",".join(map(repr, t)) + ")"
            object.__setattr__(self, "name", "term-overlap" + shown)

    def __call__(self, query_text: str, doc_text: str) -> int:
        from reteval.retrievers.tokenize import DEFAULT_TOKENIZER as tokenize

        terms = set(tokenize(query_text))
        if not terms:
            return 0
        share = len(terms & set(tokenize(doc_text))) / len(terms)
        return int(sum(share >= t for t in self.thresholds))


@dataclass(frozen=True)
class JudgmentComparison:
    """The result of :func:`compare_judgments`.

    Attributes
    ----------
    items : int
        (query, document) pairs both sets judged; the label agreement is over these.
    kappa : float
        Cohen's kappa on the grades (weighted as asked).
    binary_kappa : float
        Cohen's kappa on relevant (grade >= relevance_level) or not.
    confusion : pandas.DataFrame
        Rows: the human grades; columns: the other's.
    scores : pandas.DataFrame
        Index: run; columns ``human`` and ``other``: the mean measure each set of
        judgments gives it (on the queries both judged).
    tau, tau_ap : float
        Kendall's tau and tau_AP (human as truth) between the two system rankings.
    same_best : bool
        Whether both judgments put the same run first (the same runs, when tied).
    measure : str
    """

    items: int
    kappa: float
    binary_kappa: float
    confusion: pd.DataFrame
    scores: pd.DataFrame
    tau: float
    tau_ap: float
    same_best: bool
    measure: str


def compare_judgments(human, other, runs: Mapping[str, object], *, measure: str = "nDCG@10",
                      weights: str | None = None, relevance_level: int = 1) -> JudgmentComparison:
    """Compare a set of judgments with the human ones: labels, and the systems' ranking.

    Parameters
    ----------
    human, other : qrels
        The reference judgments and the ones under test (a judge's, a second
        assessor's), in any form :func:`reteval.io.as_qrels` takes; extra
        columns (``judge``, ``votes``) are ignored.
    runs : mapping of str to run
        At least two runs to rank.
    measure : str, default "nDCG@10"
    weights : {None, "linear", "quadratic"}, default None
        Weights of the graded kappa.
    relevance_level : int, default 1
        Lowest grade that counts as relevant, for ``binary_kappa`` and the measure.

    Returns
    -------
    JudgmentComparison

    Raises
    ------
    InputError
        No pair judged by both, no query judged by both, fewer than two runs.

    Examples
    --------
    >>> human = {"q1": {"d1": 2, "d2": 0, "d3": 1}}
    >>> other = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    >>> runs = {"a": {"q1": ["d1", "d2"]}, "b": {"q1": ["d2", "d3"]}}
    >>> c = compare_judgments(human, other, runs, measure="P@1")
    >>> c.items, round(c.kappa, 4), c.same_best
    (3, 0.5, True)
    """
    from reteval.io import as_qrels
    from reteval.judging._agreement import cohen_kappa, confusion_matrix
    from reteval.judging._rankings import kendall_tau, tau_ap

    if not isinstance(runs, Mapping) or len(runs) < 2:
        got = len(runs) if isinstance(runs, Mapping) else type(runs).__name__
        raise InputError(f"compare_judgments needs at least two runs to rank; got {got}")
    h = as_qrels(_without_provenance(human))
    o = as_qrels(_without_provenance(other))
    kappa = cohen_kappa(h, o, weights=weights)
    pairs = h.merge(o, on=["query_id", "doc_id"], suffixes=("_h", "_o"))
    binary = cohen_kappa((pairs["relevance_h"] >= relevance_level).astype(int),
                         (pairs["relevance_o"] >= relevance_level).astype(int))
    queries = sorted(set(h["query_id"].astype(str)) & set(o["query_id"].astype(str)))
    if not queries:
        raise InputError("the two judgments have no query in common")
    scores = pd.DataFrame({
        label: {name: _mean(q, run, measure, queries, relevance_level)
                for name, run in runs.items()}
        for label, q in (("human", h), ("other", o))
    }).rename_axis("run")
    return JudgmentComparison(
        items=len(pairs), kappa=kappa, binary_kappa=binary,
        confusion=confusion_matrix(h, o).rename_axis(index="human", columns="other"),
        scores=scores, tau=kendall_tau(scores["human"], scores["other"]),
        tau_ap=tau_ap(scores["human"], scores["other"]),
        same_best=_best(scores["human"]) == _best(scores["other"]), measure=measure)


def _best(scores: pd.Series) -> set:
    return set(scores.index[scores == scores.max()])


def _without_provenance(qrels):
    """Qrels without the judge and vote columns a machine judge adds (as_qrels takes three)."""
    if isinstance(qrels, pd.DataFrame) and {"query_id", "doc_id", "relevance"} <= set(qrels):
        return qrels[["query_id", "doc_id", "relevance"]]
    return qrels


def _mean(qrels, run, measure, queries, relevance_level) -> float:
    import reteval
    from reteval.io import as_run

    frame = as_run(run)
    frame = frame[frame["query_id"].astype(str).isin(queries)]
    q = qrels[qrels["query_id"].astype(str).isin(queries)]
    values = reteval.evaluate(q, frame, [measure], relevance_level=relevance_level)[measure]
    # the measure's own aggregate over the queries (a geometric mean for GMAP)
    from reteval.evaluation.engine import summarize

    return summarize({measure: values.reindex(queries, fill_value=0.0).to_numpy()})[measure]


