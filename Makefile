# make run  — bootstrap .venv, install, ingest the sample corpus and print its trees
# make test — the test suite CI runs
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install bench clean samples

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/pdfrag ingest data/samples
	@for f in data/samples/*.pdf; do echo; echo "== $$f"; $(BIN)/pdfrag show "$$(basename $$f)" --what tree; done

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_ingest.py
	$(BIN)/python benchmarks/bench_ask.py
	$(BIN)/python benchmarks/bench_llm.py

samples: $(STAMP)
	$(BIN)/python data/samples/make_samples.py

clean:
	rm -rf $(VENV) data/workspace build
