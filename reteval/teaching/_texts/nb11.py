"""The words of notebook 11 (exploring measures interactively)."""

TEXTS = {
    "shape": (
        ("{s}：{measure}@1 = {first:.3f}，在 K = {kmin} 降到最低 {low:.3f}，"
         "K = {last_k} 时为 {last:.3f}（{trend}）。"),
        ("{s}: {measure}@1 = {first:.3f}, lowest {low:.3f} at K = {kmin}, {last:.3f} at "
         "K = {last_k} ({trend})."),
    ),
    "up": ("之后回升", "rising again after it"),
    "flat": ("之后不再上升", "not rising after it"),
}
