#!/usr/bin/env bash
# Starts a real OSRM (osrm-routed, MLD) on 127.0.0.1:PORT over the same generated grid of
# streets as the Valhalla tests, with one of OSRM's own profiles (car or foot).
# Usage: scripts/osrm/start.sh DIR PORT car|foot
#   DIR gets grid.osm.pbf, grid.json, grid.osrm.*, osrm.log and osrm.pid. Prints the PID.
# The engine comes from PyPI's `osrm-bindings` (its wheel ships osrm-extract and osrm-routed),
# which needs Python 3.12 or newer; the grid generator needs `osmium`. Both are installed
# when missing. Stop the server with `kill $(cat DIR/osrm.pid)`.
# `scripts/osrm/start.sh --check` only says whether it could (exit 0), or what is missing
# (exit 1, one line on stderr): the tests' `.requiresOSRM` asks it.
set -euo pipefail
# Close whatever descriptors the caller leaked to us (a test process's sockets, say), so the
# engine left running holds none of them open.
for fd in /proc/$$/fd/*; do
  n=${fd##*/}
  if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null || true; fi
done
here=$(cd "$(dirname "$0")" && pwd)
find_python312() {
  local candidates=("${OSRM_PYTHON:-}" python3 python3.13 python3.12)
  if command -v pyenv >/dev/null 2>&1; then
    for v in "$(pyenv root)"/versions/3.1[2-9]*/bin/python3; do candidates+=("$v"); done
  fi
  for p in "${candidates[@]}"; do
    [ -n "$p" ] || continue
    if "$p" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}
python=$(find_python312) || {
  echo "needs Python 3.12 or newer for OSRM's osrm-bindings (none of python3, python3.13, python3.12, pyenv's, \$OSRM_PYTHON): such as pyenv install 3.12" >&2
  exit 1
}
if [ "${1:-}" = "--check" ]; then
  . "$here/../python-packages.sh"
  check_python_packages "$python" "pip install osrm-bindings osmium" osrm osmium
fi
dir=$1
port=$2
profile=$3
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# The engines' tools drop files in the working directory (valhalla_build_tiles writes
# duplicateways.txt): work inside DIR.
cd "$dir"
if ! "$python" -c "import osrm, osmium" 2>/dev/null; then
  echo "installing osrm-bindings and osmium from PyPI for $python" >&2
  "$python" -m pip install --quiet --only-binary=:all: osrm-bindings osmium >&2
fi
osrm=$("$python" -c 'import os, osrm; print(os.path.dirname(osrm.__file__))')

"$python" "$here/../valhalla/make_grid.py" "$dir"
{
  "$osrm/bin/osrm-extract" -p "$osrm/share/profiles/$profile.lua" "$dir/grid.osm.pbf" &&
    "$osrm/bin/osrm-partition" "$dir/grid.osrm" &&
    "$osrm/bin/osrm-customize" "$dir/grid.osrm"
} > "$dir/build.log" 2>&1 || {
  tail -20 "$dir/build.log" >&2
  exit 1
}

"$osrm/bin/osrm-routed" --algorithm mld -i 127.0.0.1 -p "$port" "$dir/grid.osrm" > "$dir/osrm.log" 2>&1 &
pid=$!
echo "$pid" > "$dir/osrm.pid"
for _ in $(seq 1 200); do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "osrm-routed exited; its log:" >&2
    tail -20 "$dir/osrm.log" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "$pid"
    exit 0
  fi
  sleep 0.05
done
echo "osrm-routed did not listen on 127.0.0.1:$port within 10 s" >&2
kill -KILL "$pid" 2>/dev/null || true
exit 1
