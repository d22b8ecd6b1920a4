"""One rule per shared argument, applied the same way by every function that takes it."""

import numpy as np
import pytest

from reteval._util.validation import (
    check_alternative,
    check_confidence_level,
    check_n_resamples,
    check_probability,
    check_rng,
)
from reteval.ab import power
from reteval.ab.clicks import CascadeModel
from reteval.ab.interleaving import team_draft
from reteval.ab.stats import z_test
from reteval.comparison import compare
from reteval.errors import InputError
from reteval.stats import randomization_test


@pytest.mark.parametrize("bad", ["seed", 1.5, True, -1, [1, 2], object()])
def test_rng_refuses_what_is_not_a_generator_or_seed(bad):
    with pytest.raises(InputError, match="rng must be"):
        check_rng(bad)


def test_rng_accepts_generator_seed_and_none():
    gen = np.random.default_rng(3)
    assert check_rng(gen) is gen
    assert check_rng(np.int64(5)).integers(1000) == np.random.default_rng(5).integers(1000)
    assert isinstance(check_rng(None), np.random.Generator)


@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.1, float("nan"), "0.5", None, True])
def test_open_probability(bad):
    with pytest.raises(InputError, match="alpha must be strictly between 0 and 1"):
        check_probability(bad, "alpha")


def test_closed_probability_takes_its_bounds():
    assert check_probability(0, "p", closed=True) == 0.0
    assert check_probability(np.float32(1), "p", closed=True) == 1.0
    with pytest.raises(InputError, match=r"p must be a probability in \[0, 1\]"):
        check_probability(1.0001, "p", closed=True)


@pytest.mark.parametrize("bad", [0, -5, 2.0, True, "100", None])
def test_n_resamples(bad):
    with pytest.raises(InputError, match="n_resamples must be a positive integer"):
        check_n_resamples(bad)


def test_confidence_level_and_alternative():
    with pytest.raises(InputError, match="confidence_level"):
        check_confidence_level(95)
    with pytest.raises(InputError, match="alternative must be one of"):
        check_alternative("greater")


# Every public function that takes these arguments refuses the same way.
@pytest.mark.parametrize("call", [
    lambda: team_draft(["a", "b"], ["b", "a"], rng="seed"),
    lambda: CascadeModel().simulate(np.array([[0.5, 0.5]]), rng="seed"),
    lambda: randomization_test([1, 2, 3], [1, 1, 1], rng="seed"),
    lambda: compare({"x": {"q": {"d": 1.0}}}, {"q": {"d": 1}}, ["RR"], rng="seed"),
])
def test_every_rng_argument_is_checked(call):
    with pytest.raises(InputError, match="rng must be"):
        call()


@pytest.mark.parametrize("call", [
    lambda: z_test(0.1, 0.05, alternative="greater"),
    lambda: power(0.2, 100, alternative="greater"),
])
def test_every_alternative_argument_is_checked(call):
    with pytest.raises(InputError, match="alternative must be one of"):
        call()
