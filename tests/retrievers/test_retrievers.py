"""Tests of the reference retrievers, the registry and the invoke adapter."""

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.retrievers import (
    BM25Retriever,
    HybridRetriever,
    RerankedRetriever,
    Retriever,
    Tokenizer,
    VectorRetriever,
    available_retrievers,
    from_invoke,
    make_retriever,
    registry,
)
from reteval.retrievers.vector import neural_available

CORPUS = {
    "py1": {"title": "Python programming",
            "text": "An introduction to Python programming for beginners."},
    "py2": {"title": "Python data", "text": "Using pandas and numpy for data analysis in Python."},
    "ml1": {"title": "Machine learning",
            "text": "Supervised learning algorithms such as decision trees."},
    "ml2": {"title": "Deep learning", "text": "Neural networks learn representations from data."},
    "db1": {"title": "Databases",
            "text": "SQL queries, indexes and transactions in relational databases."},
    "web1": {"title": "Web", "text": "HTTP servers answer requests from browsers."},
    "se1": {"title": "Search engines", "text": "Inverted indexes and BM25 ranking for search."},
    "zh1": {"title": "Python 编程入门", "text": "面向初学者的 Python 编程教程。"},
    "zh2": {"title": "机器学习算法", "text": "决策树和支持向量机等机器学习算法。"},
    "zh3": {"title": "数据库", "text": "关系数据库与 SQL 查询。"},
}
QUERIES = {"q1": "python programming", "q2": "机器学习算法", "q3": "SQL databases",
           "q4": "xyzzy plugh"}


@pytest.fixture(scope="module")
def bm25():
    return BM25Retriever(CORPUS)


@pytest.fixture(scope="module")
def vector():
    # The word-based LSA encoder: small and exact. The multilingual default is
    # tested in tests/retrievers/test_multilingual_vector.py.
    return VectorRetriever(CORPUS, encoder="lsa")


def check_run_frame(run):
    assert list(run.columns) == ["query_id", "doc_id", "score"]
    assert pd.api.types.is_string_dtype(run["query_id"])
    assert pd.api.types.is_string_dtype(run["doc_id"])
    assert run["score"].dtype == np.float64


# --- BM25 --------------------------------------------------------------------

def test_bm25_matches_hand_computed_lucene_formula():
    # Tokens (stemmed, stop words dropped): d1 = [appl, appl, pie], d2 = [appl, tart],
    # d3 = [cherri, pie, pie, crust]; N = 3, avgdl = 3.
    corpus = {"d1": "apples, apple pie", "d2": "an apple tart", "d3": "cherry pie, pie crust"}
    k1, b = 0.9, 0.4

    def term(tf, dl, df):
        idf = math.log(1 + (3 - df + 0.5) / (df + 0.5))
        return idf * tf / (tf + k1 * (1 - b + b * dl / 3))

    expected = {"d1": term(2, 3, 2) + term(1, 3, 2),  # apple (df 2), pie (df 2)
                "d3": term(2, 4, 2),
                "d2": term(1, 2, 2)}
    got = dict(BM25Retriever(corpus)("apple pie"))
    assert got == pytest.approx(expected, rel=1e-6)  # bm25s stores float32 term scores


def test_bm25_agrees_with_bm25s_own_scoring(bm25):
    # bm25s's get_scores sums per-term scores query by query; ours is a sparse product.
    for text in ["python data analysis", "learning learning algorithms", "机器学习"]:
        ids = [bm25.vocab[t] for t in bm25.tokenizer(text) if t in bm25.vocab]
        reference = bm25._bm25.get_scores_from_ids(ids).astype(np.float64)
        got = dict(bm25(text, k=len(CORPUS)))
        positive = {d: s for d, s in zip(bm25.doc_ids, reference, strict=True) if s > 0}
        assert got == pytest.approx(positive, rel=1e-6)


def test_bm25_parameters_change_scores():
    a = dict(BM25Retriever(CORPUS, k1=1.2, b=0.75)("python"))
    b = dict(BM25Retriever(CORPUS)("python"))
    assert a.keys() == b.keys() and a != pytest.approx(b)


def test_bm25_finds_chinese_and_english(bm25):
    assert bm25("机器学习算法")[0][0] == "zh2"
    assert bm25("python programming")[0][0] in {"py1", "zh1"}
    assert {d for d, _ in bm25("编程")} == {"zh1"}


def test_bm25_returns_only_matching_documents(bm25):
    assert bm25("xyzzy") == []
    assert {d for d, _ in bm25("sql")} == {"db1", "zh3"}


def test_bm25_ties_in_corpus_order():
    corpus = {"b": "same words", "a": "same words", "c": "other"}
    assert [d for d, _ in BM25Retriever(corpus)("same")] == ["b", "a"]


def test_run_matches_single_calls(bm25):
    run = bm25.run(QUERIES, k=3)
    check_run_frame(run)
    assert run["query_id"].unique().tolist() == ["q1", "q2", "q3"]  # q4 matches nothing
    for qid, text in QUERIES.items():
        rows = run[run.query_id == qid]
        assert list(zip(rows.doc_id, rows.score, strict=True)) == bm25(text, k=3)
    assert run.groupby("query_id").size().max() == 3


def test_run_accepts_series_and_int_ids(bm25):
    run = bm25.run(pd.Series({1: "python", 2: "sql"}), k=2)
    assert run["query_id"].tolist() == ["1", "1", "2", "2"]


def test_empty_query_set_gives_empty_typed_run(bm25):
    run = bm25.run({})
    check_run_frame(run)
    assert run.empty


def test_k_larger_than_corpus_is_fine(bm25):
    assert len(bm25("learning data python", k=1000)) <= len(CORPUS)


def test_corpus_forms_are_equivalent():
    as_text = {d: f"{v['title']} {v['text']}" for d, v in CORPUS.items()}
    frame = pd.DataFrame([{"doc_id": d, **v} for d, v in CORPUS.items()])
    expected = BM25Retriever(CORPUS)("python data")
    assert BM25Retriever(as_text)("python data") == expected
    assert BM25Retriever(frame)("python data") == expected


@pytest.mark.parametrize(
    "corpus, message",
    [
        ({}, "at least one document"),
        ([("d", "text")], "corpus must be a mapping"),
        ({"d": 3}, "corpus document 'd' must be a str or a mapping"),
        ({"d": {"body": "x"}}, r"corpus document 'd' must be .*got keys \['body'\]"),
        ({"d": {"text": 7}}, "field 'text' must be a str; got int"),
        ({"d": "the of and"}, "no indexable term"),
        (pd.DataFrame({"id": ["d"], "text": ["x"]}), r"missing \['doc_id'\]"),
    ],
)
def test_bad_corpus_is_reported(corpus, message):
    with pytest.raises(InputError, match=message):
        BM25Retriever(corpus)


@pytest.mark.parametrize("k", [0, -3, 2.5, True, "10"])
def test_bad_k_is_reported(bm25, k):
    with pytest.raises(InputError, match="k must be a positive integer"):
        bm25("python", k=k)
    with pytest.raises(InputError, match="k must be a positive integer"):
        bm25.run(QUERIES, k=k)


def test_bad_queries_are_reported(bm25):
    with pytest.raises(InputError, match="query must be a str; got list"):
        bm25(["python"])
    with pytest.raises(InputError, match="query 'q1': text must be a str; got NoneType"):
        bm25.run({"q1": None})
    with pytest.raises(InputError, match="queries must be a mapping"):
        bm25.run(["python"])


def test_bad_bm25_parameters_are_reported():
    with pytest.raises(InputError, match="b must be a number in \\[0, 1\\]; got 2"):
        BM25Retriever(CORPUS, b=2)
    with pytest.raises(InputError, match="method must be one of"):
        BM25Retriever(CORPUS, method="bm25l")


def test_custom_tokenizer_is_used():
    bm = BM25Retriever(CORPUS, tokenizer=Tokenizer(stemmer=None))
    assert bm("programs") == []  # no stemming: "programs" != "programming"
    assert BM25Retriever(CORPUS)("programs")[0][0] in {"py1", "zh1"}


# --- vector ------------------------------------------------------------------

def test_vector_dims_adapt_to_corpus_size():
    assert VectorRetriever(CORPUS, encoder="lsa").encoder.dims == len(CORPUS) - 1
    assert VectorRetriever(CORPUS, encoder="lsa", dims=3).encoder.dims == 3
    tiny = {"a": "cats purr", "b": "dogs bark"}
    assert VectorRetriever(tiny, encoder="lsa").encoder.dims == 1


def test_vector_needs_two_documents():
    with pytest.raises(InputError, match="at least 2 documents and 2 distinct terms; got 1"):
        VectorRetriever({"a": "cats purr"}, encoder="lsa")


def test_vector_scores_are_cosines(vector):
    hits = vector("python programming", k=len(CORPUS))
    assert len(hits) == len(CORPUS)
    scores = np.array([s for _, s in hits])
    assert np.all(scores <= 1 + 1e-12) and np.all(scores >= -1 - 1e-12)
    assert np.all(np.diff(scores) <= 0)
    q = vector.encoder.encode(["python programming"])[0]
    assert np.linalg.norm(q) == pytest.approx(1.0)
    by_id = dict(hits)
    docs = vector.encoder.fitted_documents()
    for i, doc in enumerate(vector.doc_ids):
        assert by_id[doc] == pytest.approx(float(docs[i] @ q))


def test_vector_finds_document_by_its_own_text(vector):
    for doc_id in ["py2", "db1", "zh2"]:
        text = f"{CORPUS[doc_id]['title']} {CORPUS[doc_id]['text']}"
        assert vector(text, k=1)[0][0] == doc_id


def test_vector_is_reproducible_and_seeded():
    a = VectorRetriever(CORPUS, encoder="lsa", rng=7).run(QUERIES)
    b = VectorRetriever(CORPUS, encoder="lsa", rng=7).run(QUERIES)
    pd.testing.assert_frame_equal(a, b)
    c = VectorRetriever(CORPUS, encoder="lsa", rng=np.random.default_rng(7)).run(QUERIES)
    assert set(c.query_id) == set(a.query_id)


def test_vector_unknown_query_returns_nothing(vector):
    assert vector("xyzzy plugh") == []
    assert "q4" not in set(vector.run(QUERIES).query_id)


def test_vector_run_matches_single_calls(vector):
    run = vector.run(QUERIES, k=4)
    check_run_frame(run)
    for qid, text in QUERIES.items():
        rows = run[run.query_id == qid]
        expected = vector(text, k=4)
        assert rows.doc_id.tolist() == [d for d, _ in expected]
        assert rows.score.tolist() == pytest.approx([s for _, s in expected])


def test_vector_bad_options():
    with pytest.raises(InputError, match="rng must be a numpy.random.Generator, an int or None"):
        VectorRetriever(CORPUS, encoder="lsa", rng="seed")
    with pytest.raises(InputError, match="dims must be a positive integer; got 0"):
        VectorRetriever(CORPUS, encoder="lsa", dims=0)
    with pytest.raises(InputError, match="encoder must be 'use', 'lsa', 'neural'"):
        VectorRetriever(CORPUS, encoder="word2vec")


def test_score_documents_matches_retrieval(vector):
    hits = vector("deep neural networks", k=3)
    (scores,) = vector.score_documents(["deep neural networks"], [[d for d, _ in hits]])
    assert scores.tolist() == pytest.approx([s for _, s in hits])
    with pytest.raises(InputError, match="document 'nope' is not in this retriever's corpus"):
        vector.score_documents(["x"], [["nope"]])


# --- hybrid ------------------------------------------------------------------

def test_hybrid_rrf_equals_hand_fusion_of_its_parts(bm25, vector):
    hybrid = HybridRetriever(retrievers=[bm25, vector])
    for text in ["python data", "机器学习", "search indexes"]:
        expected = {}
        for ranked in (bm25(text), vector(text)):
            for rank, (doc, _) in enumerate(ranked, start=1):
                expected[doc] = expected.get(doc, 0.0) + 1 / (60 + rank)
        got = hybrid(text, k=len(CORPUS))
        assert dict(got) == pytest.approx(expected)
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)


def test_hybrid_default_and_run(bm25):
    hybrid = HybridRetriever(CORPUS)
    assert [type(r) for r in hybrid.retrievers] == [BM25Retriever, VectorRetriever]
    run = hybrid.run(QUERIES, k=3)
    check_run_frame(run)
    # q4's words are in no document: bm25 returns nothing, the dense half still answers.
    assert run["query_id"].unique().tolist() == ["q1", "q2", "q3", "q4"]
    assert run.groupby("query_id").size().tolist() == [3, 3, 3, 3]
    assert bm25("xyzzy plugh") == []
    for qid, text in QUERIES.items():
        rows = run[run.query_id == qid]
        expected = hybrid(text, k=3)
        assert rows.doc_id.tolist() == [d for d, _ in expected]
        assert rows.score.tolist() == pytest.approx([s for _, s in expected])


def test_hybrid_query_order_survives_empty_first_stage():
    # The first retriever answers only the second query, so the fused run meets
    # query "b" before query "a"; the hybrid must still list "a" first.
    only_second = from_invoke(SimpleNamespace(
        invoke=lambda q: [] if q == "first" else [{"metadata": {"id": "db1"}}]))
    hybrid = HybridRetriever(retrievers=[only_second, from_invoke(SimpleNamespace(
        invoke=lambda q: [{"metadata": {"id": "py1"}}]))])
    run = hybrid.run({"a": "first", "b": "second"})
    assert run["query_id"].tolist() == ["a", "b", "b"]
    assert run[run.query_id == "a"]["doc_id"].tolist() == ["py1"]


def test_hybrid_combmnz_option(bm25, vector):
    hybrid = HybridRetriever(retrievers=[bm25, vector], method="combmnz",
                             normalization="zscore")
    assert len(hybrid("python", k=5)) == 5
    with pytest.raises(InputError, match="method must be one of"):
        HybridRetriever(CORPUS, method="borda")
    with pytest.raises(InputError, match="normalization must be one of"):
        HybridRetriever(retrievers=[bm25], method="combsum", normalization="l1")
    with pytest.raises(InputError, match="needs a corpus or a list of retrievers"):
        HybridRetriever()


# --- reranked ----------------------------------------------------------------

def test_reranked_rescores_first_stage_candidates(bm25, vector):
    reranked = RerankedRetriever(first=bm25, second=vector, depth=5)
    for text in ["python data", "learning", "sql databases"]:
        candidates = [d for d, _ in bm25(text, k=5)]
        got = reranked(text, k=5)
        assert sorted(d for d, _ in got) == sorted(candidates)
        (cosines,) = vector.score_documents([text], [candidates])
        assert dict(got) == pytest.approx(dict(zip(candidates, cosines, strict=True)))
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)


def test_reranked_default_and_errors():
    reranked = RerankedRetriever(CORPUS)
    assert isinstance(reranked.first, BM25Retriever)
    assert isinstance(reranked.second, VectorRetriever)
    assert reranked("xyzzy") == []
    with pytest.raises(InputError, match="second must be 'use', 'lsa', 'neural'"):
        RerankedRetriever(CORPUS, second="cross-encoder")
    with pytest.raises(InputError, match="needs a corpus"):
        RerankedRetriever()


# --- registry ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["bm25", "vector", "hybrid", "reranked", "lsa"])
def test_make_retriever_builds_each_name(name):
    retriever = make_retriever(name, CORPUS)
    assert isinstance(retriever, Retriever)
    assert retriever.name == name
    assert retriever("python", k=2)


def test_make_retriever_passes_options():
    assert make_retriever("lsa", CORPUS, dims=2).encoder.dims == 2
    with pytest.raises(InputError, match="invalid option for retriever 'bm25'"):
        make_retriever("bm25", CORPUS, dims=2)


def test_make_retriever_unknown_name_lists_valid_names():
    with pytest.raises(InputError, match=r"unknown retriever 'tfidf'; valid names: \['bm25', "
                                         r"'vector', 'hybrid', 'reranked'"):
        make_retriever("tfidf", CORPUS)


def test_neural_name_without_extra(monkeypatch):
    monkeypatch.setattr("reteval.retrievers.vector.neural_available", lambda: False)
    assert "neural" not in available_retrievers()
    with pytest.raises(InputError,
                       match=r"needs the optional extra: pip install 'reteval\[neural\]'"):
        make_retriever("neural", CORPUS)
    assert registry.available_retrievers() == ("bm25", "vector", "hybrid", "reranked", "lsa")


# --- adapter -----------------------------------------------------------------

class FakeLangChainRetriever:
    """Behaves like a LangChain retriever: invoke returns Documents, best first."""

    def __init__(self, answers):
        self.answers = answers
        self.calls = []

    def invoke(self, query):
        self.calls.append(query)
        return [SimpleNamespace(page_content="...", metadata=m) for m in self.answers[query]]


def test_adapter_keeps_order_and_scores_by_rank():
    fake = FakeLangChainRetriever({"q": [{"id": "d3"}, {"id": "d1", "source": "x"}, {"id": 7}]})
    retriever = from_invoke(fake)
    assert retriever("q") == [("d3", 1.0), ("d1", 0.5), ("7", 1 / 3)]
    assert retriever.name == "FakeLangChainRetriever"


def test_adapter_run_and_cutoffs():
    fake = FakeLangChainRetriever({"a": [{"id": "d1"}, {"id": "d2"}, {"id": "d3"}],
                                   "b": [], "c": [{"id": "d9"}]})
    retriever = from_invoke(fake, k=2, name="lc")
    run = retriever.run({"a": "a", "b": "b", "c": "c"})
    check_run_frame(run)
    assert run.values.tolist() == [["a", "d1", 1.0], ["a", "d2", 0.5], ["c", "d9", 1.0]]
    assert fake.calls == ["a", "b", "c"]
    assert retriever("a", k=1) == [("d1", 1.0)]
    assert retriever.name == "lc"


def test_adapter_drops_repeated_ids_and_accepts_dict_documents():
    class DictDocs:
        def invoke(self, query):
            return [{"metadata": {"id": "x"}}, {"metadata": {"id": "y"}},
                    {"metadata": {"id": "x"}}]

    assert from_invoke(DictDocs())("q") == [("x", 1.0), ("y", 0.5)]


def test_adapter_missing_id_names_the_position():
    fake = FakeLangChainRetriever({"q": [{"id": "d1"}, {"source": "wiki"}]})
    with pytest.raises(InputError, match=r"document at position 1 returned by invoke\('q'\) "
                                         r"has no metadata\['id'\]"):
        from_invoke(fake)("q")


def test_adapter_rejects_objects_without_invoke():
    with pytest.raises(InputError, match="obj must have an invoke"):
        from_invoke(object())
    with pytest.raises(InputError, match="must return a list of documents"):
        from_invoke(SimpleNamespace(invoke=lambda q: 3))("q")


def test_adapter_fuses_with_reference_retrievers(bm25):
    fake = FakeLangChainRetriever({"python": [{"id": "py2"}]})
    hybrid = HybridRetriever(retrievers=[bm25, from_invoke(fake)])
    assert hybrid("python", k=1)[0][0] == "py2"  # rank 2 in bm25 + rank 1 in the fake


# --- neural (optional extra) -------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(not neural_available(), reason="the 'neural' extra is not installed")
def test_neural_retriever_offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    neural = make_retriever("neural", CORPUS)
    assert neural.name == "neural" and neural.encoder.dims == 384
    # no shared word with py1/zh1, only meaning
    assert neural("how do I start coding in a snake-named language", k=3)[0][0] in {"py1", "zh1"}
    assert neural("relational tables and joins", k=1)[0][0] == "db1"
    run = neural.run(QUERIES, k=2)
    check_run_frame(run)
    assert len(run) == 2 * len(QUERIES)  # dense: every query gets k documents
    reranked = RerankedRetriever(CORPUS, second=neural)
    assert reranked("python", k=1)
