"""Click models: how a simulated user clicks on a result list of judged documents.

A user looks at a result list of ``depth`` documents. A document's
*attractiveness* (the probability of a click once it is looked at) comes
from its relevance label through a mapping, by default
:data:`DEFAULT_CLICK_PROBABILITIES`::

    label:        0     1     2     3 (and above)
    P(click):  0.05  0.50  0.70  0.90

Unjudged documents count as label 0, negative labels as 0, labels above the
largest key take the largest key's probability.

:class:`CascadeModel` (Craswell et al. 2008)
    The user reads from the top. At each document read, they click with its
    attractiveness; after a click they stop with ``stop_probability``
    (default 1: the classic cascade, at most one click); after a non-click
    they read on with ``persistence`` (default 0.8).
:class:`PositionBasedModel`
    Position ``i`` (1-based) is looked at with probability ``examination[i-1]``
    (default ``1 / i``), independently of the rest; a document looked at is
    clicked with its attractiveness.

Both models give the probability of every click pattern in closed form, so
the expected click-through of a ranker and the expected interleaving outcome
are computed exactly (:func:`reteval.ab.simulation.expected_outcomes`), not estimated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from reteval._util.validation import check_probability, check_rng
from reteval.errors import InputError

__all__ = [
    "DEFAULT_CLICK_PROBABILITIES",
    "CascadeModel",
    "PositionBasedModel",
    "as_click_model",
    "attractiveness",
]

#: Relevance label -> click probability once looked at (see the module docstring).
DEFAULT_CLICK_PROBABILITIES = {0: 0.05, 1: 0.5, 2: 0.7, 3: 0.9}


def attractiveness(labels, mapping: Mapping[int, float] | None = None) -> np.ndarray:
    """Map relevance labels to click probabilities (see the module docstring).

    Examples
    --------
    >>> attractiveness([0, 1, 2, 5, -1]).tolist()
    [0.05, 0.5, 0.7, 0.9, 0.05]
    """
    mapping = DEFAULT_CLICK_PROBABILITIES if mapping is None else mapping
    if not mapping:
        raise InputError("the relevance -> click probability mapping is empty")
    keys = np.array(sorted(int(k) for k in mapping))
    probs = np.array([check_probability(mapping[k], f"click probability of label {k}", closed=True)
                      for k in keys])
    lab = np.asarray(labels, dtype=float)
    idx = np.searchsorted(keys, np.floor(lab), side="right") - 1
    return probs[np.clip(idx, 0, len(keys) - 1)]


@dataclass(frozen=True)
class CascadeModel:
    """Cascade click model (see the module docstring).

    Parameters
    ----------
    click_probabilities : mapping of int to float, optional
    persistence : float, default 0.8
        Probability of reading on after a document not clicked (1.0 with
        ``stop_probability=1.0`` is the classic cascade, where almost every
        list of ten gets a click).
    stop_probability : float, default 1.0
        Probability of stopping after a click.

    Examples
    --------
    >>> model = CascadeModel(persistence=1.0)
    >>> model.simulate([[0.0, 1.0, 1.0]], rng=0).tolist()  # stops at the first click
    [[False, True, False]]
    """

    click_probabilities: Mapping[int, float] = field(
        default_factory=lambda: dict(DEFAULT_CLICK_PROBABILITIES))
    persistence: float = 0.8
    stop_probability: float = 1.0

    def __post_init__(self):
        check_probability(self.persistence, "persistence", closed=True)
        check_probability(self.stop_probability, "stop_probability", closed=True)
        attractiveness([0], self.click_probabilities)

    def simulate(self, attract: np.ndarray, rng=None) -> np.ndarray:
        """Clicks (bool, same shape) for rows of attractiveness, one row per impression."""
        gen = check_rng(rng)
        r = np.asarray(attract, dtype=float)
        u = gen.random((2, *r.shape), dtype=np.float32)
        attracted = u[0] < r  # clicked if read
        n, length = r.shape
        if not length:
            return attracted
        # one uniform decides what happens after each position read: stop after a click,
        # read on after none; the user reads down to the first position they leave at
        if self.stop_probability == 1:  # every click ends the session (u[1] < 1 always)
            leaves = attracted | (u[1] >= self.persistence)
        else:
            leaves = ((attracted & (u[1] < self.stop_probability))
                      | (~attracted & (u[1] >= self.persistence)))
        first = leaves.argmax(axis=1)  # 0 also when the user never leaves
        at_first = np.arange(n) * length + first  # flat index of each row's first leave
        if self.stop_probability == 1:  # the one click is where the user leaves, if anywhere
            clicks = np.zeros(n * length, dtype=bool)
            clicks[at_first] = attracted.ravel()[at_first]
            return clicks.reshape(n, length)
        last_read = np.where(leaves.ravel()[at_first], first, length)
        return attracted & (np.arange(length) <= last_read[:, None])

    def pattern_probabilities(self, attract: np.ndarray, patterns: np.ndarray) -> np.ndarray:
        """P(click pattern) for each row of ``attract`` (K, L) and pattern (P, L) -> (K, P)."""
        r = np.asarray(attract, dtype=float)[:, None, :]
        pat = np.asarray(patterns, dtype=bool)[None, :, :]
        s, g = self.stop_probability, self.persistence
        active = np.ones(r.shape[0:1] + pat.shape[1:2])
        stopped = np.zeros_like(active)
        for i in range(r.shape[2]):
            ri, ci = r[:, :, i], pat[:, :, i]
            clicked = active * ri
            read_on = active * (1 - ri)
            active = np.where(ci, clicked * (1 - s), read_on * g)
            stopped = np.where(ci, clicked * s, stopped + read_on * (1 - g))
        return active + stopped


@dataclass(frozen=True)
class PositionBasedModel:
    """Position-based click model (see the module docstring).

    Parameters
    ----------
    click_probabilities : mapping of int to float, optional
    examination : sequence of float, optional
        Probability of looking at each position; ``1 / rank`` by default.

    Examples
    --------
    Two perfectly attractive documents: rank 1 is always looked at, rank 2 half the time.

    >>> import itertools
    >>> patterns = list(itertools.product((False, True), repeat=2))
    >>> PositionBasedModel().pattern_probabilities([[1.0, 1.0]], patterns).tolist()
    [[0.0, 0.0, 0.5, 0.5]]
    """

    click_probabilities: Mapping[int, float] = field(
        default_factory=lambda: dict(DEFAULT_CLICK_PROBABILITIES))
    examination: tuple[float, ...] | None = None

    def __post_init__(self):
        if self.examination is not None:
            ex = tuple(check_probability(p, "examination probability", closed=True)
                       for p in self.examination)
            object.__setattr__(self, "examination", ex)
        attractiveness([0], self.click_probabilities)

    def _theta(self, depth: int) -> np.ndarray:
        if self.examination is None:
            return 1.0 / np.arange(1, depth + 1)
        if len(self.examination) < depth:
            raise InputError(f"examination has {len(self.examination)} probabilities for a "
                             f"list of depth {depth}")
        return np.asarray(self.examination[:depth], dtype=float)

    def simulate(self, attract: np.ndarray, rng=None) -> np.ndarray:
        """Clicks (bool, same shape) for rows of attractiveness, one row per impression."""
        r = np.asarray(attract, dtype=float)
        return check_rng(rng).random(r.shape, dtype=np.float32) < r * self._theta(r.shape[1])

    def pattern_probabilities(self, attract: np.ndarray, patterns: np.ndarray) -> np.ndarray:
        """P(click pattern) for each row of ``attract`` (K, L) and pattern (P, L) -> (K, P)."""
        q = np.asarray(attract, dtype=float) * self._theta(np.shape(attract)[1])
        pat = np.asarray(patterns, dtype=bool)
        return np.prod(np.where(pat[None], q[:, None, :], 1 - q[:, None, :]), axis=2)


def as_click_model(click_model):
    """The click model named by ``click_model``: "cascade", "pbm" (or "position"), or the object.

    Examples
    --------
    >>> as_click_model("pbm")
    PositionBasedModel(click_probabilities={0: 0.05, 1: 0.5, 2: 0.7, 3: 0.9}, examination=None)
    """
    if isinstance(click_model, (CascadeModel, PositionBasedModel)):
        return click_model
    if click_model == "cascade":
        return CascadeModel()
    if click_model in ("pbm", "position"):
        return PositionBasedModel()
    raise InputError(f"click_model must be 'cascade', 'pbm' or a click model object; "
                     f"got {click_model!r}")
