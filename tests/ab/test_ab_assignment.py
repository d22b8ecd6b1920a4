"""Deterministic assignment: golden values, stability, weights, independence, errors."""

import random
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from reteval.ab.assignment import Experiment, assign, bucket
from reteval.errors import InputError

# Golden values, computed once outside reteval with the standard library only:
#   h = int.from_bytes(hashlib.sha256(f"{e}\x00{u}".encode("utf-8")).digest()[:8], "big")
#   h / 2**64
GOLDEN = [
    ("ranker-v2", "user123", 12304405786788296486, 0.6670231742589542),
    ("ranker-v2", "user124", 7906258705639334391, 0.4285991432443299),
    ("exp-é", "用户7", 18093994596635725518, 0.9808774125306716),
    ("checkout", "42", 3502753513818337366, 0.18988464846815378),
    ("ranker-v2", "alice", 17682772690545457110, 0.9585850283328367),
]


@pytest.mark.parametrize("experiment, user, h, expected", GOLDEN)
def test_bucket_golden_values(experiment, user, h, expected):
    assert bucket(experiment, user) == expected
    assert h / 2**64 == expected


@pytest.mark.parametrize(
    "user, equal, weighted",
    # weights (1, 1, 2): boundaries at 0.25 and 0.5 (buckets from GOLDEN)
    [("user123", "C", "C"), ("user124", "B", "B"), ("alice", "C", "C")],
)
def test_variant_by_cumulative_weights(user, equal, weighted):
    # equal thirds: boundaries 1/3 and 2/3; 0.667 < 2/3 is False -> C
    assert assign("ranker-v2", user, ["A", "B", "C"]) == equal
    assert Experiment("ranker-v2", ("A", "B", "C"), weights=(1, 1, 2)).assign(user) == weighted


def test_two_variants_and_weights_move_the_boundary():
    # bucket of user123 is 0.667: B with equal weights, A when A has 90%, B when A has 60%
    assert assign("ranker-v2", "user123", ["A", "B"]) == "B"
    assert assign("ranker-v2", "user123", ["A", "B"], weights=[0.9, 0.1]) == "A"
    assert assign("ranker-v2", "user123", ["A", "B"], weights=[0.6, 0.4]) == "B"


def test_stable_in_another_process_with_another_hash_seed():
    code = ("from reteval.ab.assignment import bucket; "
            "print(repr(bucket('ranker-v2', 'user123')))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""}, check=True)
    assert res.stdout.strip() == "0.6670231742589542"


def test_shares_follow_weights():
    exp = Experiment("shares", ("A", "B", "C"), weights=(0.5, 0.3, 0.2))
    users = [f"u{i}" for i in range(30_000)]
    counts = [sum(exp.assign(u) == v for u in users) for v in exp.variants]
    # goodness of fit against the design: a failure here would be 1 in 1000 by chance
    p = stats.chisquare(counts, np.array([0.5, 0.3, 0.2]) * len(users)).pvalue
    assert p > 0.001
    assert exp.shares == pytest.approx((0.5, 0.3, 0.2))


def test_buckets_independent_across_experiments():
    users = [f"u{i}" for i in range(5000)]
    a = np.array([bucket("exp-1", u) for u in users])
    b = np.array([bucket("exp-2", u) for u in users])
    # Spearman correlation of independent uniforms: sd about 1/sqrt(5000) = 0.014
    assert abs(stats.spearmanr(a, b).statistic) < 0.06
    both = np.mean((a < 0.5) & (b < 0.5))
    assert both == pytest.approx(0.25, abs=0.03)


def test_no_global_random_state_touched():
    py_state = random.getstate()
    np_state = np.random.get_state()[1].copy()
    Experiment("x").assign("u1")
    bucket("x", "u2")
    assert random.getstate() == py_state
    assert (np.random.get_state()[1] == np_state).all()


def test_nul_separator_keeps_keys_apart():
    assert bucket("ab", "c") != bucket("a", "bc")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"name": "", "variants": ("A", "B")}, "name must be a non-empty string"),
        ({"name": "e", "variants": ("A",)}, "at least 2 variants"),
        ({"name": "e", "variants": "AB"}, "got the string 'AB'"),
        ({"name": "e", "variants": ("A", "A")}, "unique"),
        ({"name": "e", "variants": ("A", "B"), "weights": (1, 0)}, "positive finite"),
        ({"name": "e", "variants": ("A", "B"), "weights": (1,)}, "one entry per variant"),
        ({"name": "e", "feedback_values": (0, 0.5)}, "must be integers"),
    ],
)
def test_bad_designs(kwargs, message):
    with pytest.raises(InputError, match=message):
        Experiment(**kwargs)


def test_integer_user_id_rejected():
    with pytest.raises(InputError, match="user_id must be a non-empty string; got 42"):
        Experiment("e").assign(42)
