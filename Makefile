# make run  — bootstrap .venv, install, ingest the samples into the default workspace (once), start the workbench
# make test — the test suite CI runs, after make lint (browser tests included)
# make test-quick — the tests not marked slow (no browser session, corpus ingest or worker processes of note)
# make lint — ruff on engine/, app/ and benchmarks/, mypy on engine/ and app/ (their settings are in pyproject.toml)
# make space — assemble the Hugging Face Space folder under build/space/
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-quick lint install bench clean samples space

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

PORT ?= 8000
HOST ?= 127.0.0.1

run: $(STAMP)
	@if [ -z "$$(ls data/workspace/documents 2>/dev/null)" ]; then $(BIN)/pdfrag ingest data/samples; fi
	$(BIN)/pdfrag serve --port $(PORT) --host $(HOST)

test: lint
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test-quick: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check engine app benchmarks
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_ingest.py
	$(BIN)/python benchmarks/bench_ask.py
	$(BIN)/python benchmarks/bench_llm.py
	$(BIN)/python benchmarks/bench_app.py

samples: $(STAMP)
	$(BIN)/python data/samples/make_samples.py

# build/space/: the Hugging Face Space (Dockerfile, Space card, the code and samples), ready to push
space:
	$(PY) space/build.py

clean:
	rm -rf $(VENV) data/workspace build
