"""docs/ci.md's CI jobs: valid YAML, and the GitHub gate fails its step on a regression."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from paths import ROOT

CI = ROOT / "docs" / "ci.md"


def _jobs():
    """The GitHub Actions workflow and the GitLab CI file, parsed."""
    blocks = re.findall(r"```yaml\n(.*?)```", CI.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert len(blocks) == 2
    return [yaml.safe_load(block) for block in blocks]


def _github_steps():
    github, _ = _jobs()
    return [step for job in github["jobs"].values() for step in job["steps"]]


def test_both_job_files_parse_with_their_jobs():
    github, gitlab = _jobs()
    assert set(github["jobs"]) == {"compare", "monitor"}
    assert {"compare", "monitor"} <= set(gitlab)


def test_the_history_is_kept_also_when_the_monitor_fails():
    """A failed evaluation's entry is recorded; the jobs must keep the history then too:
    GitHub's actions/cache saves only after a successful job, GitLab's cache by default too."""
    github, gitlab = _jobs()
    steps = github["jobs"]["monitor"]["steps"]
    monitor = next(i for i, s in enumerate(steps) if "reteval monitor" in s.get("run", ""))
    saves = [i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/cache/save")]
    assert saves and all(i > monitor and steps[i].get("if") == "always()" for i in saves)
    assert not any(s.get("uses", "").startswith("actions/cache@") for s in steps)
    assert gitlab["monitor"]["cache"]["when"] == "always"


def test_a_piped_github_step_runs_under_bash_with_pipefail():
    """Without ``shell:``, GitHub runs a step under ``bash -e`` and a pipeline's status is its
    last command's; ``shell: bash`` is ``bash -eo pipefail``."""
    piped = [step for step in _github_steps() if " | " in step.get("run", "")]
    assert piped
    for step in piped:
        assert step.get("shell") == "bash", step


QUERIES = [f"q{i}" for i in range(1, 9)]


def _files(folder):
    """The job's files: judgments, a baseline run, and a run that finds every relevant document
    second rather than first (worse on every query)."""
    (folder / "eval").mkdir()
    (folder / "eval" / "qrels.txt").write_text("".join(f"{q} 0 d{q} 1\n" for q in QUERIES))
    good = "".join(f"{q} Q0 d{q} 1 2.0 base\n{q} Q0 x 2 1.0 base\n" for q in QUERIES)
    worse = "".join(f"{q} Q0 x 1 2.0 new\n{q} Q0 d{q} 2 1.0 new\n" for q in QUERIES)
    (folder / "eval" / "baseline.trec").write_text(good)
    return good, worse


def _step_status(step, folder, *options):
    """The exit status of a GitHub ``run`` step, run by bash with ``options`` in ``folder``."""
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(folder / "summary.md"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "--noprofile", "--norc", *options, "-c", step["run"]],
                          cwd=folder, env=env, capture_output=True, text=True,
                          check=False).returncode


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_github_gate_fails_its_step_on_a_regression_and_writes_the_summary(tmp_path):
    step = next(s for s in _github_steps() if "--fail-on-regression" in s.get("run", ""))
    _, worse = _files(tmp_path)
    (tmp_path / "candidate.trec").write_text(worse)
    assert _step_status(step, tmp_path, "-eo", "pipefail") == 3  # `shell: bash`
    # the relevant document second: nDCG@10 = 1 / log2(3)
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| candidate | 0.6309 ▼ | 1.0000 | 0.5000 ▼ |" in summary
    assert (tmp_path / "per_query.csv").is_file()
    assert _step_status(step, tmp_path, "-e") == 0  # no `shell:`: tee's 0, the regression unseen


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_monitor_job_keeps_failing_a_regressed_run_run_again(tmp_path):
    step = next(s for s in _github_steps() if "reteval monitor" in s.get("run", ""))
    good, worse = _files(tmp_path)
    statuses = []
    for run in (good, worse, worse):
        (tmp_path / "today.trec").write_text(run)
        statuses.append(_step_status(step, tmp_path, "-eo", "pipefail"))
    assert statuses == [0, 3, 3]  # the job run again still fails
