# Two commands do all the set-up: `make run` (the main job) and `make test` (the whole suite).
# Both create .venv when it is missing and install the project with everything it needs;
# `make test-fast` (the suite without its notebook kernels) and `make lint` too.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PARAMS ?= params/default.yml
OUTPUT ?= outputs

.PHONY: setup run test test-fast lint bench clean

setup: $(STAMP)

# Fonts first (order-only): matplotlib lists the installed fonts the first time it is imported.
# uv installs the environment, in seconds once its cache is warm; pip, which compiles every
# module of every package as it installs (a minute here), is the fallback where uv cannot be had.
# The venv is made without pip (ensurepip takes 4 s): the pip of $(PYTHON) puts uv in it (or,
# when that pip is older than 22.3, the venv's own pip does), and uv installs pip with the rest.
# gbstats 0.8, the test-only oracle of the CUPED and Bayesian engines, pins pandas<2 and
# numpy<2 in its metadata but runs on both: it goes in without its dependencies, pydantic beside.
ORACLES := pydantic
NO_DEPS_ORACLES := gbstats==0.8.0
UV := $(BIN)/python -m uv pip install --quiet --python $(BIN)/python
$(STAMP): pyproject.toml | fonts
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "reteval needs Python >= 3.10")'
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	{ { $(PYTHON) -m pip --python $(BIN)/python install --quiet uv 2>/dev/null \
		|| { $(BIN)/python -m ensurepip --default-pip >/dev/null \
			&& $(BIN)/python -m pip install --quiet uv; }; } \
		&& $(UV) pip -e '.[dev]' $(ORACLES) && $(UV) --no-deps $(NO_DEPS_ORACLES); } \
	|| { echo "setup: uv failed; installing with pip"; \
		$(BIN)/python -m ensurepip --default-pip >/dev/null; \
		$(BIN)/python -m pip install --quiet --upgrade pip \
		&& $(BIN)/python -m pip install --quiet -e '.[dev]' $(ORACLES) \
		&& $(BIN)/python -m pip install --quiet --no-deps $(NO_DEPS_ORACLES); }
	touch $(STAMP)

# Python writes each module's bytecode the first time a process imports it, even where
# PYTHONDONTWRITEBYTECODE is set (as on this machine): uv installs without compiling, and every
# notebook kernel and test worker would otherwise compile pandas, scipy, matplotlib and reteval
# again (several seconds a process).
export PYTHONDONTWRITEBYTECODE =

# Both editions, the Chinese one (the default edition) first: the book holds both.
run: fonts setup
	$(BIN)/reteval run --params $(PARAMS) --output $(OUTPUT) --lang all

# Two workers (a third of the suite's time is notebooks executing in their own kernels);
# --dist loadscope keeps each test file on one worker, so that a notebook run a module's tests
# share (a module-scoped fixture) runs once. The files go out in the order tests/conftest.py
# gives them, those that run kernels first (--no-loadscope-reorder: xdist would otherwise
# send the files with the most tests first, and a long notebook file last, to run alone).
WORKERS ?= 2

test: fonts setup browser-deps
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadscope --no-loadscope-reorder

# A CJK font, so that figures draw Chinese labels (reteval._util.fonts), installed with apt-get when
# fc-list finds none, before anything imports matplotlib (a font cache made earlier is mended by
# reteval._util.fonts all the same). A failed install does not stop `make`, but the Chinese edition
# then stops with one error (`reteval run --lang en` needs no CJK font).
.PHONY: fonts
fonts:
	@if ! fc-list :lang=zh 2>/dev/null | grep -q .; then \
		mkdir -p $(VENV); \
		echo "fonts: installing fonts-noto-cjk with apt-get"; \
		if { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk; } \
			> $(VENV)/fonts.log 2>&1; then \
			echo "fonts: fonts-noto-cjk installed"; \
		else \
			echo "fonts: could not install fonts-noto-cjk (see $(VENV)/fonts.log);" \
				"Chinese labels in figures will show as boxes"; \
		fi; \
	fi

# Debian's chromium for the browser tests (tests/test_browser.py), installed with apt-get when
# missing. A failed install does not stop `make test`: those tests then skip and say why.
.PHONY: browser-deps
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
		mkdir -p $(VENV); \
		echo "browser-deps: installing chromium with apt-get"; \
		if { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } \
			> $(VENV)/browser-deps.log 2>&1; then \
			echo "browser-deps: chromium installed"; \
		else \
			echo "browser-deps: could not install chromium (see $(VENV)/browser-deps.log);" \
				"the browser tests will be skipped"; \
		fi; \
	fi

# The edit-test loop: everything but the tests that execute a notebook in a kernel (marked
# `notebook`), drive a browser or take more than a few seconds (`slow`: large files, Dask
# clusters, Cranfield). `pytest --lf` reruns the tests that failed last time.
test-fast: setup
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadscope --no-loadscope-reorder \
		-m "not notebook and not browser and not slow"

# ruff, the layers contract and the type checks; all three also run inside `make test`.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# Speed benchmarks, side by side in one run (several minutes: ranx is slow to compile and run).
bench: setup
	$(BIN)/python bench/bench_evaluate.py
	$(BIN)/python bench/bench_stats.py

clean:
	rm -rf $(VENV) build *.egg-info
