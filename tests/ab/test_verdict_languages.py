"""The Chinese verdicts carry the same information as the English ones: the same numbers."""

import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from reteval.ab.analysis import analyze
from reteval.ab.assignment import Experiment
from reteval.ab.sequential import msprt
from reteval.ab.simulation import compare_methods, synthetic_collection
from reteval.ab.sufficient import reduce_log
from reteval.comparison import compare
from reteval.report import to_markdown

_NUMBER = re.compile(r"[+-]?\d+(?:,\d{3})*(?:\.\d+)?(?:e[+-]?\d+)?%?")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _numbers(text: str) -> Counter:
    return Counter(_NUMBER.findall(text))


def _log(seed, rates, clicks, n=3000):
    rng = np.random.default_rng(seed)
    names = np.array(list(rates))
    variant = names[np.arange(n) % len(names)]
    p = np.array([rates[v] for v in variant])
    lam = np.array([clicks[v] for v in variant])
    return pd.DataFrame({"variant": variant, "user_id": [f"u{i}" for i in range(n)],
                         "feedback": rng.binomial(1, p), "n_clicks": rng.poisson(lam),
                         "n_retrieved": 10})


CASES = {
    # B better on both primaries; the guardrail shows no detectable change (its MDE is quoted)
    "ship": (0, {"A": 0.60, "B": 0.67}, {"A": 1.0, "B": 1.0}, ("clicks_per_query",)),
    # nothing changes: every metric quotes its detectable change
    "inconclusive": (1, {"A": 0.60, "B": 0.60}, {"A": 1.0, "B": 1.0}, ("user_click_rate",)),
    # three arms, a guardrail that degrades for C and one that improves for B
    "three arms": (2, {"A": 0.58, "B": 0.64, "C": 0.61}, {"A": 1.0, "B": 1.2, "C": 0.9},
                   ("clicks_per_query", "user_click_rate")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ab_verdicts_carry_the_same_numbers(case):
    seed, rates, clicks, guardrails = CASES[case]
    stats = reduce_log(_log(seed, rates, clicks))
    design = Experiment("exp", list(rates))
    en, zh = (analyze(stats, experiment=design, metrics=["satisfaction", "ctr"],
                      guardrails=guardrails, lang=lang).verdict for lang in ("en", "zh"))
    assert _numbers(zh) == _numbers(en)
    assert not re.search(r"[A-Za-z]{3,}", re.sub(r"Holm|'exp'", "", zh)), zh
    assert "detect" in en and "只能检出约" in zh or "could only detect" not in en
    assert en.count("relative") == zh.count("相对变化")
    assert en.count("blocks shipping") == zh.count("阻止上线")


def test_the_verdict_quotes_a_guardrail_without_change_and_its_detectable_change():
    seed, rates, clicks, guardrails = CASES["ship"]
    result = analyze(reduce_log(_log(seed, rates, clicks)), metrics=["satisfaction", "ctr"],
                     guardrails=guardrails, lang="zh")
    (guard,) = [c for c in result.comparisons if c.role == "guardrail"]
    assert guard.outcome == "no detectable change"
    assert f"护栏指标（每次查询的点击数）：A 组 {guard.control_value:.4g}" in result.verdict
    assert f"本实验只能检出约 {guard.mde:.4g} 的变化" in result.verdict


def test_a_guardrail_that_improves_does_not_block_shipping():
    seed, rates, clicks, guardrails = CASES["three arms"]
    result = analyze(reduce_log(_log(seed, rates, clicks)), metrics=["satisfaction", "ctr"],
                     guardrails=guardrails)
    better = [c for c in result.comparisons if c.role == "guardrail" and c.outcome == "better"]
    assert better, "the case has an improving guardrail"
    for sentence in result.verdict.split(". "):
        if sentence.startswith("Guardrail") and sentence.endswith("is better"):
            assert "blocks" not in sentence


def test_sequential_verdicts_carry_the_same_numbers():
    for diffs in ([0.05, 0.05, 0.05], [0.001, 0.002, 0.001]):
        en, zh = (msprt(diffs, [0.01, 0.001, 0.0001], mixing_sd=0.05, lang=lang).verdict
                  for lang in ("en", "zh"))
        assert _numbers(zh) == _numbers(en) and _HAN.search(zh)


def test_method_comparison_verdicts_carry_the_same_numbers_and_the_ratio():
    qrels, run_a, run_b = synthetic_collection(n_queries=8, rng=0)
    en, zh = (compare_methods(qrels, run_a, run_b, impressions=[50, 200, 1000, 5000],
                              n_experiments=20, rng=1, lang=lang).verdict
              for lang in ("en", "zh"))
    assert _numbers(zh) == _numbers(en)
    assert ("times as sensitive" in en) == ("倍" in zh)


def test_report_documents_carry_the_same_numbers():
    qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}, "q3": {"d4": 2}, "q4": {"d5": 1}}
    runs = {"a": {"q1": ["d1", "d2"], "q2": ["d9", "d3"], "q3": ["d4"], "q4": ["d8", "d5"]},
            "b": {"q1": ["d9", "d1"], "q2": ["d3"], "q3": ["d7", "d4"], "q4": ["d5"]}}
    comparison = compare(qrels, runs, ["P@1", "RR", "AP"], baseline="a", rng=0)
    en, zh = (to_markdown(comparison, lang=lang) for lang in ("en", "zh"))
    assert _numbers(zh) == _numbers(en)


def test_interleaving_verdicts_carry_the_same_numbers():
    from reteval.ab.interleaving import interleaving_test

    for counts in ((60, 40, 20), (600, 400, 200)):
        en, zh = (interleaving_test(*counts, rng=0, lang=lang).verdict for lang in ("en", "zh"))
        assert _numbers(zh) == _numbers(en) and _HAN.search(zh)
