"""A CJK font installed after matplotlib made its font cache is still found, and the cache mended.

The stale cache is made the way users get one: matplotlib lists the fonts (here in a fresh
``MPLCONFIGDIR``), then the CJK font "appears". Its entries are taken out of the cache that
matplotlib wrote, which is what the cache holds when it was written before the font was
installed; fontconfig (``fc-list :lang=zh``) still lists the font files.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reteval._util.fonts import fontconfig_cjk_files

pytestmark = pytest.mark.slow  # matplotlib lists every installed font twice (a few seconds)

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: matplotlib reads its cache once per process.
CHILD = r"""
import io, json, sys, warnings
from matplotlib import font_manager
from matplotlib.figure import Figure
cjk = set(json.loads(sys.argv[1]))
before = sorted({f.name for f in font_manager.fontManager.ttflist if f.fname in cjk})
from reteval._util.fonts import use_cjk_font
font = use_cjk_font(warn=False)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fig = Figure()
    ax = fig.subplots()
    ax.set_title("召回率与平均倒数排名")
    fig.savefig(io.BytesIO(), format="png")
print(json.dumps({"before": before, "font": font,
                  "warnings": [str(w.message) for w in caught]}))
"""


def _run(code, config_dir, *args):
    env = {**os.environ, "MPLCONFIGDIR": str(config_dir), "PYTHONPATH": str(ROOT),
           "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _cache_file(config_dir: Path) -> Path:
    (cache,) = config_dir.glob("fontlist-v*.json")
    return cache


def _cache_knows(cache: Path, files) -> bool:
    return any(font["fname"] in files for font in json.loads(cache.read_text())["ttflist"])


def test_a_cjk_font_missing_from_a_stale_cache_is_found_and_the_cache_mended(tmp_path):
    files = fontconfig_cjk_files()
    if not files:
        pytest.skip("fontconfig lists no CJK font (make fonts installs fonts-noto-cjk)")
    config = tmp_path / "mpl"
    config.mkdir()
    _run("import matplotlib.font_manager", config)  # matplotlib writes its font cache
    cache = _cache_file(config)
    data = json.loads(cache.read_text())
    assert _cache_knows(cache, files)  # the font is installed: a fresh cache has it
    data["ttflist"] = [font for font in data["ttflist"] if font["fname"] not in files]
    cache.write_text(json.dumps(data))  # the cache of before the font was installed
    assert not _cache_knows(cache, files)

    seen = json.loads(_run(CHILD, config, json.dumps(files)).splitlines()[-1])

    assert seen["before"] == []  # matplotlib started without the font: the cache was stale
    assert seen["font"] is not None
    assert not [w for w in seen["warnings"] if "missing from font" in w], seen["warnings"]
    assert _cache_knows(cache, files)  # rewritten: the next process starts with the font
    again = json.loads(_run(CHILD, config, json.dumps(files)).splitlines()[-1])
    assert again["before"] != [] and again["font"] == seen["font"]
