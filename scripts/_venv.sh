# Sourced by the scripts: make sure .venv exists and holds this package. scripts/play sets
# KOTP2P_EXTRA to nothing (the game alone, a faster first start); the others get the test tools.
# Reinstalls only when pyproject.toml changed since the last install.
VENV="${KOTP2P_VENV:-.venv}"
extra="${KOTP2P_EXTRA-test}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating $VENV"
  python3 -m venv "$VENV"
fi
fresh() { [ -f "$1" ] && [ ! pyproject.toml -nt "$1" ]; }
if [ -n "$extra" ]; then
  if ! fresh "$VENV/.kotp2p-installed-$extra"; then
    echo "== installing kotp2p and its $extra tools into $VENV"
    "$VENV/bin/python" -m pip install --quiet -e ".[$extra]"
    touch "$VENV/.kotp2p-installed-$extra" "$VENV/.kotp2p-installed"
  fi
elif ! fresh "$VENV/.kotp2p-installed"; then
  echo "== installing kotp2p into $VENV"
  "$VENV/bin/python" -m pip install --quiet -e .
  touch "$VENV/.kotp2p-installed"
fi
