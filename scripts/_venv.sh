# Sourced by the scripts: make sure .venv exists and holds this package. scripts/play sets
# KOTP2P_EXTRA to nothing (the game alone, a faster first start); the others get the test tools.
# Reinstalls only when pyproject.toml changed since the last install.
#
# The venv is made without a pip of its own when the system's pip can install into it
# (pip 22.3 and later): that saves the seconds ensurepip takes. pip installs uv into it first, and
# uv installs the rest: it fetches in parallel and a fresh .venv is ready in about 6 s, where pip
# alone takes 15 to 20. When uv cannot be had or fails, pip does it all. Packages are not compiled at
# install time; Python compiles the modules a run imports, once. scripts/test has the modules
# the tests import compiled by one collection before its workers start: a third of the
# installed files, so compiling all of them up front cost more than it saved.
VENV="${KOTP2P_VENV:-.venv}"
extra="${KOTP2P_EXTRA-test}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating $VENV"
  if python3 -m pip --version >/dev/null 2>&1; then
    python3 -m venv --without-pip "$VENV"
  else
    python3 -m venv "$VENV"
  fi
fi
pip_install() {
  if "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    "$VENV/bin/python" -m pip install --quiet --no-compile "$@"
  elif python3 -m pip --python "$VENV/bin/python" --version >/dev/null 2>&1; then
    python3 -m pip --python "$VENV/bin/python" install --quiet --no-compile "$@"
  else
    "$VENV/bin/python" -m ensurepip --default-pip >/dev/null
    "$VENV/bin/python" -m pip install --quiet --no-compile "$@"
  fi
}
venv_install() {
  if [ ! -x "$VENV/bin/uv" ]; then
    pip_install uv >/dev/null 2>&1 || true
  fi
  if [ -x "$VENV/bin/uv" ] && "$VENV/bin/uv" pip install --quiet --python "$VENV/bin/python" "$@"; then
    return 0
  fi
  pip_install "$@"
}
fresh() { [ -f "$1" ] && [ ! pyproject.toml -nt "$1" ]; }
if [ -n "$extra" ]; then
  if ! fresh "$VENV/.kotp2p-installed-$extra"; then
    echo "== installing kotp2p and its $extra tools into $VENV"
    venv_install -e ".[$extra]"
    touch "$VENV/.kotp2p-installed-$extra" "$VENV/.kotp2p-installed"
  fi
elif ! fresh "$VENV/.kotp2p-installed"; then
  echo "== installing kotp2p into $VENV"
  venv_install -e .
  touch "$VENV/.kotp2p-installed"
fi
