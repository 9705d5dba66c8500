# Two entry points: `make run` (the GUI) and `make test` (the whole suite).
# Both create .venv in the repo root and install the project into it.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

# Debian packages: Stockfish is the reference engine the tests compare against, Sjeng the xboard
# engine the guides connect (tests/test_docs.py);
# the Qt/X libraries let PySide6 run offscreen and under xvfb-run.
DEB_PACKAGES := stockfish sjeng nodejs gcc clang llvm xvfb xauth libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 \
                libfontconfig1 libdbus-1-3 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 \
                libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-randr0

.PHONY: run test system-deps bench clean

# The suite starts hundreds of Python processes (engines, the CLI, workers) and the window starts
# helpers: with byte-code caching off (some shells and CI images set this), each compiled
# perftscope's sources and rewrote the tests' asserts again, 2.6 s of CPU per pytest process.
unexport PYTHONDONTWRITEBYTECODE

# The venv's own pip (23 or later reads pyproject.toml and installs editable): upgrading it first
# cost 5 s of every fresh setup.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $@

system-deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

run: system-deps $(STAMP)
	$(VENV)/bin/perftscope gui

# Every test but those marked `alone` on all cores (an idle core takes tests queued for the other:
# a few take seconds among many that take milliseconds), then those by themselves (tests/conftest.py).
# One worker more than cores: with one per core a third of the cores' time was idle (tests waiting
# on an engine's timeout, a Dask start-up, a window's event loop), measured on 2 cores.
WORKERS := $(shell echo $$(( $$(nproc) + 1 )))
test: system-deps $(STAMP)
	@status=0; \
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n $(WORKERS) --dist worksteal -m "not alone" || status=1; \
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -m alone || status=1; \
	exit $$status

bench: $(STAMP)
	$(VENV)/bin/perftscope bench

clean:
	rm -rf $(VENV) build *.egg-info
