#!/usr/bin/env bash
# Starts a real Valhalla on 127.0.0.1:PORT over a generated grid of streets, for tests and
# benchmarks. Usage: scripts/valhalla/start.sh DIR PORT
#   DIR gets grid.osm.pbf, grid.json (the geometry the tests check against), valhalla.json,
#   tiles/, valhalla.log and valhalla.pid. Prints the service's PID on success.
# Installs pyvalhalla-weekly (Python 3.11; pyvalhalla for 3.12+) and osmium from PyPI when
# missing. valhalla_service ignores SIGTERM: stop it with `kill -KILL $(cat DIR/valhalla.pid)`.
# `scripts/valhalla/start.sh --check` only says whether it could (exit 0), or what is
# missing (exit 1, one line on stderr): the tests' `.requiresValhalla` asks it.
set -euo pipefail
# Close whatever descriptors the caller leaked to us (a test process's sockets, say), so the
# engine left running holds none of them open.
for fd in /proc/$$/fd/*; do
  n=${fd##*/}
  if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null || true; fi
done
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
if [ "${1:-}" = "--check" ]; then
  . "$here/../python-packages.sh"
  check_python_packages "$python" "apt-get install python3-pip" valhalla osmium
fi
dir=$1
port=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# The engines' tools drop files in the working directory (valhalla_build_tiles writes
# duplicateways.txt): work inside DIR.
cd "$dir"

if ! "$python" -c "import valhalla, osmium" 2>/dev/null; then
  minor=$("$python" -c 'import sys; print(sys.version_info.minor)')
  if [ "$minor" -ge 12 ]; then pkg=pyvalhalla; else pkg=pyvalhalla-weekly; fi
  echo "installing $pkg and osmium from PyPI" >&2
  "$python" -m pip install --quiet "$pkg" osmium >&2
fi
bin=$("$python" -c 'import os, valhalla; print(os.path.join(os.path.dirname(valhalla.__file__), "bin"))')

"$python" "$here/make_grid.py" "$dir"
# A 36-node grid is smaller than Valhalla's default minimum reachability (50): lower it, or
# every location is refused as unreachable. Every IPC socket (the defaults are fixed paths in
# /tmp) goes in DIR, or two instances pass each other's requests to their workers.
"$python" -m valhalla.valhalla_build_config \
  --mjolnir-tile-dir "$dir/tiles" \
  --mjolnir-tile-extract "$dir/tiles.tar" \
  --mjolnir-timezone "$dir/tz.sqlite" \
  --mjolnir-admin "$dir/admin.sqlite" \
  --loki-service-defaults-minimum-reachability 2 \
  --httpd-service-listen "tcp://127.0.0.1:$port" \
  --httpd-service-loopback "ipc://$dir/loopback" \
  --httpd-service-interrupt "ipc://$dir/interrupt" \
  --loki-service-proxy "ipc://$dir/loki" \
  --thor-service-proxy "ipc://$dir/thor" \
  --odin-service-proxy "ipc://$dir/odin" \
  --meili-service-proxy "ipc://$dir/meili" \
  > "$dir/valhalla.json"
rm -rf "$dir/tiles"
"$bin/valhalla_build_tiles" -c "$dir/valhalla.json" "$dir/grid.osm.pbf" > "$dir/build.log" 2>&1 || {
  tail -20 "$dir/build.log" >&2
  exit 1
}

"$bin/valhalla_service" "$dir/valhalla.json" 2 > "$dir/valhalla.log" 2>&1 &
pid=$!
echo "$pid" > "$dir/valhalla.pid"
for _ in $(seq 1 200); do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "valhalla_service exited; its log:" >&2
    tail -20 "$dir/valhalla.log" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "$pid"
    exit 0
  fi
  sleep 0.05
done
echo "valhalla_service did not listen on 127.0.0.1:$port within 10 s" >&2
kill -KILL "$pid" 2>/dev/null || true
exit 1
