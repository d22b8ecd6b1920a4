"""Where things are, for every test: the project root and the read-only shared data beside it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance" / "trec_eval"
DATA = SHARED / "data"
