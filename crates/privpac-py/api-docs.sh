#!/usr/bin/env bash
# Builds the Python API reference (HTML generated from the docstrings by pdoc) into
# target/python-docs/ (never committed). Needs python3 (3.10 or later, with venv), a Rust
# toolchain for the package's build, and PyPI.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
VENV="${CARGO_TARGET_DIR:-$PWD/target}/py-docs-venv"
OUT="${CARGO_TARGET_DIR:-$PWD/target}/python-docs"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet pdoc ./crates/privpac-py
rm -rf "$OUT"
# privpac.experiment and privpac.audit are native submodules (no import spec): pdoc warns
# about that and documents them anyway.
"$VENV/bin/python" -m pdoc privpac privpac.audit privpac.experiment privpac.plot -o "$OUT" 2>/dev/null
echo "Python API reference: $OUT/index.html"
