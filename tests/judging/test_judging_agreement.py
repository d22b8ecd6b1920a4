"""Agreement between assessors against scikit-learn, statsmodels, krippendorff and hand counts."""

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.judging import (
    cohen_kappa,
    confusion_matrix,
    fleiss_kappa,
    krippendorff_alpha,
    ratings_table,
)

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C: four
# observers, twelve units, values 1..5, with missing values (None). His published
# results: nominal alpha = 0.743, interval alpha = 0.849.
KRIPPENDORFF_EXAMPLE = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def example_ratings():
    data = np.array(KRIPPENDORFF_EXAMPLE, dtype=float).T  # units x observers
    return pd.DataFrame(data, columns=["A", "B", "C", "D"])


def random_labels(seed, n=60, categories=4):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, categories, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, categories - 1)
    return a, b


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cohen_kappa_equals_scikit_learn(weights, seed):
    from sklearn.metrics import cohen_kappa_score

    a, b = random_labels(seed)
    assert cohen_kappa(a, b, weights=weights) == pytest.approx(
        cohen_kappa_score(a, b, weights=weights), abs=1e-12)


def test_cohen_kappa_by_hand():
    # 10 items: agree on 7; a gives 1 five times, b six times (binary labels).
    a = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    b = [1, 1, 1, 1, 0, 1, 1, 0, 0, 0]
    # p_o = 0.7, p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5, kappa = (0.7 - 0.5) / 0.5 = 0.4
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(a, a) == pytest.approx(1.0)


def test_cohen_kappa_with_labels_keeps_the_scale():
    from sklearn.metrics import cohen_kappa_score

    a, b = [0, 0, 3, 3, 1], [0, 1, 3, 3, 0]  # grade 2 never used
    got = cohen_kappa(a, b, weights="linear", labels=[0, 1, 2, 3])
    assert got == pytest.approx(cohen_kappa_score(a, b, weights="linear", labels=[0, 1, 2, 3]))
    assert got != pytest.approx(cohen_kappa(a, b, weights="linear"))


def test_cohen_kappa_takes_two_qrels_on_their_common_pairs():
    human = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d1": 3}}
    other = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d9": 0}}  # d9 and q2 judged by one only
    assert cohen_kappa(human, other) == pytest.approx(cohen_kappa([2, 0, 1], [2, 1, 1]))
    frame = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["d1", "d2", "d3"],
                          "relevance": [2, 1, 1]})
    assert cohen_kappa(human, frame) == pytest.approx(cohen_kappa([2, 0, 1], [2, 1, 1]))


def test_missing_labels_are_left_out_of_kappa():
    assert cohen_kappa([0, 1, np.nan, 1], [0, 1, 1, np.nan]) == pytest.approx(1.0)


def test_confusion_matrix_counts():
    table = confusion_matrix([0, 1, 2, 2, 2], [0, 2, 2, 1, 2])
    assert table.index.tolist() == [0, 1, 2] and table.columns.tolist() == [0, 1, 2]
    assert table.to_numpy().tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 2]]
    wide = confusion_matrix([0, 1], [0, 1], labels=[0, 1, 2, 3])
    assert wide.shape == (4, 4) and wide.to_numpy().sum() == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fleiss_kappa_equals_statsmodels(seed):
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, 50)
    ratings = pd.DataFrame({f"r{i}": np.clip(truth + rng.integers(-1, 2, 50), 0, 3)
                            for i in range(5)})
    expected = sm_fleiss(aggregate_raters(ratings.to_numpy())[0])
    assert fleiss_kappa(ratings) == pytest.approx(expected, abs=1e-12)


def test_fleiss_kappa_leaves_out_incomplete_items():
    full = pd.DataFrame({"a": [1, 0, 1, 1], "b": [1, 0, 0, 1], "c": [1, 0, 1, 1]})
    with_gap = pd.concat([full, pd.DataFrame({"a": [0.0], "b": [np.nan], "c": [1.0]})],
                         ignore_index=True)
    assert fleiss_kappa(with_gap) == pytest.approx(fleiss_kappa(full))
    # by hand: P_i = 1, 1, 1/3, 1 (mean 10/12); p = (4/12 zeros, 8/12 ones), P_e = 5/9
    assert fleiss_kappa(full) == pytest.approx((10 / 12 - 5 / 9) / (1 - 5 / 9))


@pytest.mark.parametrize("level, published", [("nominal", 0.743), ("interval", 0.849)])
def test_krippendorff_worked_example_with_missing_values(level, published):
    """Krippendorff's own example (2011, section C): his published values, and the package's."""
    import krippendorff

    got = krippendorff_alpha(example_ratings(), level=level)
    assert round(got, 3) == published
    data = np.array(KRIPPENDORFF_EXAMPLE, dtype=float)
    assert got == pytest.approx(krippendorff.alpha(reliability_data=data,
                                                   level_of_measurement=level), abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
@pytest.mark.parametrize("seed", [0, 1])
def test_krippendorff_alpha_equals_the_krippendorff_package(level, seed):
    import krippendorff

    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, 40)
    values = np.stack([np.clip(truth + rng.integers(-1, 2, 40), 0, 3) for _ in range(3)], 1)
    ratings = pd.DataFrame(values.astype(float)).mask(rng.random(values.shape) < 0.25)
    expected = krippendorff.alpha(reliability_data=ratings.to_numpy().T,
                                  level_of_measurement=level)
    assert krippendorff_alpha(ratings, level=level) == pytest.approx(expected, abs=1e-12)


def test_krippendorff_ordinal_on_the_worked_example_equals_the_package():
    import krippendorff

    data = np.array(KRIPPENDORFF_EXAMPLE, dtype=float)
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")
    assert krippendorff_alpha(example_ratings(), level="ordinal") == pytest.approx(expected)


def test_ratings_table_lines_up_assessors():
    table = ratings_table({"ann": {"q1": {"d1": 2, "d2": 0}}, "bob": {"q1": {"d1": 1, "d3": 3}}})
    assert table.index.tolist() == [("q1", "d1"), ("q1", "d2"), ("q1", "d3")]
    assert table["ann"].tolist()[:2] == [2.0, 0.0] and np.isnan(table["ann"].iloc[2])
    assert np.isnan(table["bob"].iloc[1])
    # Krippendorff's alpha takes the mapping directly
    assert krippendorff_alpha({"ann": {"q1": {"d1": 2, "d2": 0}},
                               "bob": {"q1": {"d1": 2, "d2": 0}}}) == pytest.approx(1.0)


def test_one_assessor_is_an_error():
    with pytest.raises(InputError, match="at least two assessors; the ratings have 1 column"):
        krippendorff_alpha(pd.DataFrame({"only": [1, 2, 3]}))
    with pytest.raises(InputError, match="at least two assessors; got 1"):
        fleiss_kappa({"only": {"q1": {"d1": 1}}})


def test_non_integer_labels_are_an_error_where_kappa_needs_categories():
    with pytest.raises(InputError, match="Cohen's kappa needs integer category labels.*0.5"):
        cohen_kappa([0, 1, 0.5], [0, 1, 1])
    with pytest.raises(InputError, match="Fleiss' kappa needs integer category labels.*2.5"):
        fleiss_kappa(pd.DataFrame({"a": [1, 2.5], "b": [1, 2]}))
    with pytest.raises(InputError, match="at the nominal level needs integer"):
        krippendorff_alpha(pd.DataFrame({"a": [1, 2.5], "b": [1, 2]}))
    # the interval level takes any number
    assert krippendorff_alpha(pd.DataFrame({"a": [1, 2.5], "b": [1, 2.5]}),
                              level="interval") == pytest.approx(1.0)


def test_other_bad_input_is_named():
    with pytest.raises(InputError, match="weights must be None, 'linear' or 'quadratic'"):
        cohen_kappa([0, 1], [0, 1], weights="cubic")
    with pytest.raises(InputError, match="different numbers of items: 3 and 2"):
        cohen_kappa([0, 1, 1], [0, 1])
    with pytest.raises(InputError, match="undefined when both assessors use one"):
        cohen_kappa([1, 1, 1], [1, 1, 1])
    with pytest.raises(InputError, match="no judged .query, document. pair in common"):
        cohen_kappa({"q1": {"d1": 1}}, {"q2": {"d1": 1}})
    with pytest.raises(InputError, match="level must be one of"):
        krippendorff_alpha(example_ratings(), level="ratio")
    with pytest.raises(InputError, match="label 3 is not among labels"):
        cohen_kappa([0, 3], [0, 1], labels=[0, 1])


def _write_qrels(path, judgments):
    path.write_text("".join(f"{q} 0 {d} {r}\n" for q, docs in judgments.items()
                            for d, r in docs.items()), encoding="utf-8")
    return path


def test_every_agreement_function_takes_qrels_files(tmp_path):
    ann = _write_qrels(tmp_path / "ann.qrels", {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 1}})
    bob = _write_qrels(tmp_path / "bob.qrels", {"q1": {"d1": 2, "d2": 1, "d3": 1, "d5": 0}})
    cat = _write_qrels(tmp_path / "cat.qrels", {"q1": {"d1": 2, "d2": 0, "d3": 1}})
    # common pairs of ann and bob: d1 (2, 2), d2 (0, 1), d3 (1, 1). By hand: observed
    # agreement 2/3; ann's labels 0,1,2 once each, bob's 1 twice and 2 once: chance
    # agreement (1*0 + 1*2 + 1*1) / 9 = 1/3; kappa = (2/3 - 1/3) / (1 - 1/3) = 0.5
    assert cohen_kappa(ann, bob) == pytest.approx(0.5)
    assert cohen_kappa(str(ann), bob) == pytest.approx(0.5)
    table = confusion_matrix(ann, bob)
    assert table.to_numpy().tolist() == [[0, 1, 0], [0, 1, 0], [0, 0, 1]]
    # a list of files: columns named by file name, as the mapping of the same files
    ratings = ratings_table([ann, bob, cat])
    assert ratings.columns.tolist() == ["ann", "bob", "cat"]
    assert ratings.loc[("q1", "d2")].tolist() == [0.0, 1.0, 0.0]
    # items d1, d2, d3 labelled by all three; Fleiss by hand: per item agreement
    # P_i = (sum n_ij^2 - 3) / 6: d1 1, d2 (4 + 1 - 3) / 6 = 1/3, d3 1 -> mean 7/9;
    # category shares: 0: 2/9, 1: 4/9, 2: 3/9 -> chance (4 + 16 + 9) / 81 = 29/81
    expected = (7 / 9 - 29 / 81) / (1 - 29 / 81)
    assert fleiss_kappa([ann, bob, cat]) == pytest.approx(expected)
    assert fleiss_kappa({"a": ann, "b": bob, "c": cat}) == pytest.approx(expected)
    assert krippendorff_alpha([ann, bob, cat]) == pytest.approx(
        krippendorff_alpha(ratings_table({"x": ann, "y": bob, "z": cat})))


def test_files_with_one_name_are_told_apart_by_path(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = _write_qrels(tmp_path / "a" / "qrels.txt", {"q1": {"d1": 1, "d2": 0}})
    two = _write_qrels(tmp_path / "b" / "qrels.txt", {"q1": {"d1": 1, "d2": 1}})
    assert ratings_table([one, two]).columns.tolist() == [str(one), str(two)]
    mixed = ratings_table([{"q1": {"d1": 1}}, {"q1": {"d1": 0}}])
    assert mixed.columns.tolist() == ["assessor 1", "assessor 2"]


def test_a_file_and_a_list_of_labels_are_an_error(tmp_path):
    ann = _write_qrels(tmp_path / "ann.qrels", {"q1": {"d1": 2}})
    with pytest.raises(InputError, match="give both assessors as qrels"):
        cohen_kappa(ann, [2])
    with pytest.raises(InputError, match="at least two assessors; got 1"):
        fleiss_kappa([ann])
    with pytest.raises(InputError, match="a list of qrels files; got str"):
        ratings_table(str(ann))
