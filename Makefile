# simwright: two commands for a new user (see README.md).
#   make demo   create .venv, install simwright with the MD engines, run the main job
#   make test   install the dev extras (and Debian packages when root), lint, run the suite

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q
# Debian packages the test suite needs (installed only when running as root).
APT_PACKAGES ?= quantum-espresso quantum-espresso-data postgresql slurm-wlm munge chromium
DEMO_HOME ?= $(CURDIR)/.simwright-demo
DEMO_REQUEST ?= self-diffusion coefficient of SPC/E water at 298 K

.PHONY: demo test install install-dev system-packages lint clean bench-retrieval

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

install: $(PY)
	$(PIP) install -e ".[md]"

install-dev: $(PY)
	$(PIP) install -e ".[dev]"

system-packages:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
		echo "not root: install$$missing yourself (sudo apt-get install$$missing) for the DFT, PostgreSQL, Slurm and browser tests"; \
	fi

demo: install
	SIMWRIGHT_HOME=$(DEMO_HOME) $(VENV)/bin/simwright run "$(DEMO_REQUEST)"

lint: install-dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: install-dev system-packages lint
	$(PY) -m pytest -q

bench-retrieval: install-dev
	$(VENV)/bin/simwright docs install lammps
	$(PY) benchmarks/retrieval.py --show-misses

clean:
	rm -rf $(VENV) $(DEMO_HOME) .pytest_cache .mypy_cache .ruff_cache
