#!/usr/bin/env bash
# Offline replay, no daemon and no receiver: the fixture drives through the same capture,
# store and measurement as dashpilotd, then the short drive against a route it follows and
# one it leaves. Run from the repository root after `swift build`.
set -euo pipefail
ctl="${DASHPILOTCTL:-.build/debug/dashpilotctl}"
if [[ ! -x "$ctl" ]]; then
  echo "demo-replay: $ctl is not built; run 'swift build' first" >&2
  exit 1
fi
for drive in city-drive short-drive parked never-fixes; do
  echo "== dashpilotctl replay Fixtures/drives/$drive.json"
  "$ctl" replay "Fixtures/drives/$drive.json"
  echo
done
for route in short-drive.gpx short-drive-divergent.geojson; do
  echo "== dashpilotctl replay Fixtures/drives/short-drive.json --route Fixtures/routes/$route --json"
  "$ctl" replay Fixtures/drives/short-drive.json --route "Fixtures/routes/$route" --json
  echo
done
