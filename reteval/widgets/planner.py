"""The A/B planner: baseline rate, effect, alpha and power, and the sample size they need."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import ipywidgets as widgets

from reteval._util.catalogue import check_lang, phrase
from reteval.errors import InputError
from reteval.widgets.common import STYLE, Displayable

__all__ = ["ABPlanner", "SamplePlan", "plan_sample_size"]


@dataclass(frozen=True)
class SamplePlan:
    """Sample size of a two-group test on a proportion.

    Attributes
    ----------
    baseline, treatment : float
        Rate in the control group, and the rate to detect in the treatment group.
    alpha, power : float
    effect_size : float
        Cohen's h of the two rates.
    n_per_group : int
        Observations per group (the solution rounded up).
    total : int
        Both groups.
    """

    baseline: float
    treatment: float
    alpha: float
    power: float
    effect_size: float
    n_per_group: int
    total: int

    def describe(self, lang: str = "en") -> tuple[str, ...]:
        """The plan as lines of text, in English (``"en"``) or Chinese (``"zh"``).

        Examples
        --------
        >>> plan_sample_size(0.10, 0.02).describe()[2]
        'n per group = 3,835 (total 7,670) for power 0.80 at alpha 0.050, two-sided'
        >>> plan_sample_size(0.10, 0.02).describe("zh")[2]
        '每组 3,835 人（共 7,670 人），双侧检验，显著性水平 α = 0.050，统计功效 0.80'
        """
        check_lang(lang)
        first = phrase("widgets.plan_rates", lang, baseline=self.baseline,
                       treatment=self.treatment, change=self.treatment - self.baseline,
                       relative=(self.treatment / self.baseline - 1) * 100)
        second = (f"h = 2 asin(sqrt({self.treatment:.3f})) - 2 asin(sqrt({self.baseline:.3f})) "
                  f"= {self.effect_size:.4f}")
        third = phrase("widgets.plan_size", lang, n=self.n_per_group, total=self.total,
                       alpha=self.alpha, power=self.power)
        return (first, second, third)


def plan_sample_size(baseline: float, effect: float, *, alpha: float = 0.05,
                     power: float = 0.8) -> SamplePlan:
    """Users per group to detect an absolute increase ``effect`` over a ``baseline`` rate.

    The effect size is Cohen's h and the size solves the two-sided normal
    power equation of :func:`reteval.stats.planning.two_sample_size`, rounded up.

    Parameters
    ----------
    baseline : float
        Control rate, in (0, 1).
    effect : float
        Absolute increase to detect (0.01 = one percentage point), > 0, with
        ``baseline + effect <= 1``.
    alpha : float, default 0.05
    power : float, default 0.8

    Returns
    -------
    SamplePlan

    Examples
    --------
    >>> plan = plan_sample_size(0.10, 0.02)
    >>> plan.n_per_group, plan.total
    (3835, 7670)
    """
    from reteval.stats.planning import proportion_effect_size, two_sample_size

    if not 0 < baseline < 1:
        raise InputError(f"baseline must be a rate in (0, 1); got {baseline!r}")
    if not effect > 0 or baseline + effect > 1:
        raise InputError(f"effect must be > 0 with baseline + effect <= 1; got effect={effect!r} "
                         f"with baseline={baseline!r}")
    treatment = baseline + effect
    h = proportion_effect_size(treatment, baseline)
    n = math.ceil(two_sample_size(h, power=power, alpha=alpha) - 1e-9)
    return SamplePlan(baseline=float(baseline), treatment=float(treatment), alpha=float(alpha),
                      power=float(power), effect_size=float(h), n_per_group=int(n),
                      total=2 * int(n))


class ABPlanner(Displayable):
    """Sliders for baseline rate, effect, alpha and power; the sample size they need.

    Parameters
    ----------
    baseline : float, default 0.10
    effect : float, default 0.01
        Absolute increase of the rate to detect.
    alpha : float, default 0.05
    power : float, default 0.80
    lang : {"en", "zh"}, default "en"
        Language of the plan's text (shown and in :meth:`text`).

    Attributes
    ----------
    baseline_slider, effect_slider, alpha_slider, power_slider : ipywidgets.FloatSlider
    result_html : ipywidgets.HTML
    plan : SamplePlan or None
        The plan shown (None while the sliders make no valid plan; the HTML
        then says why).
    widget : ipywidgets.VBox

    Examples
    --------
    >>> planner = ABPlanner(baseline=0.10, effect=0.02)
    >>> planner.plan.n_per_group
    3835
    >>> planner.effect_slider.value = 0.04
    >>> planner.plan.n_per_group < 3835
    True
    """

    def __init__(self, *, baseline: float = 0.10, effect: float = 0.01, alpha: float = 0.05,
                 power: float = 0.80, lang: str = "en"):
        self.lang = check_lang(lang)
        plan_sample_size(baseline, effect, alpha=alpha, power=power)  # validate up front
        # A starting value outside a slider's usual range widens the range: a slider never
        # clamps it silently (the plan shown is always the plan asked for).
        words = {key: phrase(f"widgets.{key}", lang)
                 for key in ("baseline_rate", "effect", "alpha", "power")}
        self.baseline_slider = _slider(baseline, 0.01, 0.99, 0.01, words["baseline_rate"], ".2f")
        self.effect_slider = _slider(effect, 0.001, 0.2, 0.001, words["effect"], ".3f")
        self.alpha_slider = _slider(alpha, 0.005, 0.2, 0.005, words["alpha"], ".3f")
        self.power_slider = _slider(power, 0.5, 0.99, 0.01, words["power"], ".2f")
        self.result_html = widgets.HTML()
        self.result_html.add_class("reteval-ab-plan")
        self.plan: SamplePlan | None = None
        for slider in self.sliders:
            slider.observe(lambda change: self.render(), names="value")
        self.widget = widgets.VBox([*self.sliders, self.result_html])
        self.widget.add_class("reteval-ab-planner")
        self.render()

    @property
    def sliders(self) -> tuple[widgets.FloatSlider, ...]:
        return (self.baseline_slider, self.effect_slider, self.alpha_slider, self.power_slider)

    def text(self) -> str:
        """The plan shown (or why there is none), as plain text."""
        return "\n".join(self._lines)

    def render(self) -> None:
        """Recompute the plan from the sliders and show it (or why there is none)."""
        try:
            self.plan = plan_sample_size(self.baseline_slider.value, self.effect_slider.value,
                                         alpha=self.alpha_slider.value,
                                         power=self.power_slider.value)
        except InputError as error:
            self.plan = None
            self._lines = (phrase("widgets.no_plan", self.lang, error=error),)
            self.result_html.value = (f"<div class='reteval-w'>{STYLE}<div class='formula non'>"
                                      f"{html.escape(self._lines[0])}</div></div>")
            return
        self._lines = self.plan.describe(self.lang)
        lines = "".join(f"<div class='formula'>{html.escape(line)}</div>"
                        for line in self._lines)
        self.result_html.value = f"<div class='reteval-w'>{STYLE}{lines}</div>"


def _slider(value: float, low: float, high: float, step: float, description: str,
            readout: str) -> widgets.FloatSlider:
    """A slider over [low, high], widened to hold ``value``; the value is kept exactly."""
    value = float(value)
    slider = widgets.FloatSlider(
        value=value, min=min(low, value), max=max(high, value), step=step,
        description=description, readout_format=readout,
        style={"description_width": "110px"}, layout=widgets.Layout(width="420px"))
    if slider.value != value:  # pragma: no cover - ipywidgets keeps in-range values as given
        raise InputError(f"{description} {value!r} cannot be shown on a slider")
    return slider
