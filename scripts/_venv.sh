# Sourced by the scripts: make sure .venv exists and holds this package with its test extra.
# Reinstalls only when pyproject.toml changed since the last install.
VENV="${KOTP2P_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating $VENV"
  python3 -m venv "$VENV"
fi
stamp="$VENV/.kotp2p-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "== installing kotp2p and its test tools into $VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -e ".[test]"
  touch "$stamp"
fi
