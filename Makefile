# Two entry points, both self-installing on a fresh machine with Python 3.11+:
#   make serve   installs everything and serves the dashboards with Voilà
#   make test    installs everything (Chromium included) and runs the whole suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8866
HOST   ?= 127.0.0.1
STAMP  := $(VENV)/.installed
# pytest-xdist workers, each a session with servers, ports and folders of its own (see
# tests/conftest.py). More workers than cores: most browser and server tests wait on I/O.
WORKERS ?= 4
XDIST   := -n $(WORKERS) --dist loadgroup
# Python keeps its compiled modules (__pycache__, git-ignored) and pytest its rewritten test
# modules, even where the machine says not to (PYTHONDONTWRITEBYTECODE=1, as here): else every
# kernel, server and test worker compiles the project's sources again.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: serve test quick lint install browser fullbrowser postgres hubproxy replicatools system suite system-then-hubproxy screenshots bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# uv (from PyPI, into the venv) installs the same packages as pip would (the same versions, checked
# here with pip freeze), downloading in parallel: under 15 s from a cold cache where pip took 42 s
# from a warm one, time every fresh `make test` waits before its first test. Unlike pip it compiles no
# bytecode at install: the modules a run imports are compiled at their first import (and kept:
# PYTHONDONTWRITEBYTECODE above), not the 5,767 files of the whole environment (29 s of the 40 with --compile-bytecode).
# tools/uv-overrides.txt keeps out what the environment needs not (each line says why).
$(STAMP): $(BIN)/python pyproject.toml tools/uv-overrides.txt
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python --override tools/uv-overrides.txt -e '.[test]'
	@# An editable install leaves out data files: link Cartas' Voilà template and server
	@# configuration and its kernel's (cartas_server.kernel) into the venv (pip install . copies them; see pyproject.toml).
	mkdir -p $(VENV)/share/jupyter/voila/templates $(VENV)/etc/jupyter $(VENV)/etc/ipython
	ln -sfn $(CURDIR)/share/jupyter/voila/templates/cartas $(VENV)/share/jupyter/voila/templates/cartas
	ln -sfn $(CURDIR)/etc/jupyter/jupyter_server_config.json $(VENV)/etc/jupyter/jupyter_server_config.json
	ln -sfn $(CURDIR)/etc/ipython/ipython_kernel_config.json $(VENV)/etc/ipython/ipython_kernel_config.json
	touch $(STAMP)

install: $(STAMP)

# Debian's packages, each installed with apt-get (sudo unless root) when its check finds it
# missing; those of one target with one `apt-get update` (a fresh machine waits for each).
# NEED_*: a shell test that prints the packages it finds missing.
NEED_BROWSER      = [ -x /usr/lib/chromium/chromium-headless-shell ] || echo chromium-headless-shell
NEED_FULLBROWSER  = [ -x /usr/bin/chromium ] || echo chromium
NEED_POSTGRES     = command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || echo postgresql
NEED_REPLICATOOLS = for tool in haproxy pgbouncer; do command -v $$tool >/dev/null 2>&1 || [ -x /usr/sbin/$$tool ] || echo $$tool; done
NEED_NODE         = command -v npm >/dev/null 2>&1 || echo nodejs npm
# $(call debian,NEED_A NEED_B ...): install what those checks find missing
debian = @missing=$$( $(foreach need,$(1),{ $($(need)); };) ); missing=$$(echo $$missing); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian's $$missing..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# Debian's Chromium, its headless shell (tests/browser/serving.py): Playwright cannot download a
# browser of its own here.
browser:
	$(call debian,NEED_BROWSER)

# Debian's full Chromium, a learner's browser, for the benchmarks (tests/browser/serving.py).
fullbrowser:
	$(call debian,NEED_FULLBROWSER)

# Debian's PostgreSQL, for the store tests (they start a throwaway server of their own).
postgres:
	$(call debian,NEED_POSTGRES)

# Debian's haproxy and pgbouncer, for the class service's replica tests (tests/test_replicas.py
# starts its own of each, on 127.0.0.1).
replicatools:
	$(call debian,NEED_REPLICATOOLS)

# All that make test needs from Debian (the above, and nodejs for the hub's proxy), at once.
system:
	$(call debian,NEED_BROWSER NEED_POSTGRES NEED_REPLICATOOLS NEED_NODE)

# JupyterHub's proxy (configurable-http-proxy, from npm) in build/npm, for the hub tests;
# Debian's nodejs and npm first when missing.
HUBPROXY := build/npm/node_modules/.bin/configurable-http-proxy
hubproxy: $(HUBPROXY)

$(HUBPROXY):
	$(call debian,NEED_NODE)
	npm install --silent --no-audit --no-fund --prefix build/npm configurable-http-proxy

# Serves on exactly HOST:PORT or stops with a message (port taken); HOST=0.0.0.0 serves the
# local network (see README: anyone on it can open and run the dashboards).
serve: install
	@$(BIN)/python -m cartas_server.serve --host=$(HOST) --port=$(PORT)

# ruff and mypy as configured in pyproject.toml (mypy: the engine, the widgets, the class store).
lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy cartas widgets classroom

# make test: lint beside the suite, two jobs at once. On a fresh machine Python's packages
# install beside Debian's packages and the hub's proxy (each waits mostly on downloads); then
# lint (mypy: 15 s of one core from a fresh clone, where the other core would wait) runs while
# the suite starts. Either failing fails make test.
test:
	@$(MAKE) --no-print-directory -j2 lint suite

system-then-hubproxy: system
	@$(MAKE) --no-print-directory hubproxy

# Before the workers start, one process collects the suite: it compiles the modules the tests
# import (a fresh environment holds none compiled) and pytest's rewritten test modules, once.
# Else the workers, starting together, each compiled them for themselves: from a fresh clone the
# four workers' start took 52 to 59 s of CPU here, against 20 s after this collection (17 to 19 s).
# Lint runs beside it on the other core.
suite: install system-then-hubproxy
	@# (a failing collection is reported by the run itself, below)
	-@$(BIN)/python -m pytest --collect-only -q -p no:xdist -p no:cacheprovider tests > /dev/null 2>&1
	$(BIN)/python -m pytest -q $(XDIST) --durations=25 -m "not sample" tests
	$(BIN)/python tests/nbval_prepare.py notebooks build/nbval
	@# the notebooks' kernels keep their progress in a store of their own, never ~/.cartas (one
	@# per worker: build/nbval/conftest.py); a notebook's cells stay together, in order, on one worker
	CARTAS_DB=$(CURDIR)/build/nbval/cartas.db CARTAS_DATABASE_URL= CARTAS_PROGRESS=$(CURDIR)/build/nbval/progress.json \
	  $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --nbval-lax --nbval-current-env -p no:cacheprovider build/nbval

# The developer's loop: lint, then every test but the browser ones and the slow scale tests
# (marked `slow`; make test runs them), in under 3 minutes.
quick: install postgres lint
	$(BIN)/python -m pytest -q $(XDIST) -m "not slow" tests --ignore=tests/browser

# Rewrite the reviewed screenshots: the phone dashboards' in screenshots/phone/, the teacher's
# insight panel's (laptop and phone, pt and en) in screenshots/insight/ (a test run writes under build/).
screenshots: install browser
	CARTAS_UPDATE_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/browser/test_phone_dashboards.py \
	  tests/browser/test_turma_insight_dashboard.py

bench: install fullbrowser
	-$(BIN)/python -m pip install --quiet open_spiel  # for the euchre comparison; optional
	for f in benchmarks/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache
