#!/usr/bin/env bash
# Writes a database holding months or years of recorded shifts, through the store's own
# code (Sources/HistoryGenerator, the dashpilot-history executable), for measuring and
# testing a box that has recorded for a long time:
#
#   scripts/history/make-history.sh --file PATH [--rate HZ] [--shifts N] [--hours H]
#       [--seed S] [--layout current|0.1.0] [--until YYYY-MM-DD] [--json]
#
# Defaults: a year of working days (250 shifts of 8 h) at 1 Hz, seed 1, dated back from
# today; --layout 0.1.0 writes into a copy of the file 0.1.0 made (4 KiB pages,
# AUTOINCREMENT). The same options give the same rows. Built in release and linked as
# `make bench` and `make install` link (static Swift runtime), so neither rebuilds for it.
#
#   DASHPILOT_HISTORY_CACHE=DIR  keep the file in DIR under a name made of the generator's
#                                version and the options, and only copy it to --file when
#                                it is already there (the system test caches its year so;
#                                a file made on an earlier day keeps that day's dates)
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
swift=${SWIFT:-swift}
"$swift" build --package-path "$repo" -c release --static-swift-stdlib --product dashpilot-history >&2
bin="$("$swift" build --package-path "$repo" -c release --static-swift-stdlib --show-bin-path)/dashpilot-history"

if [ -z "${DASHPILOT_HISTORY_CACHE:-}" ]; then
  exec "$bin" "$@"
fi

# The cached copy: named by the generator's version and every option but --file.
file=""
options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --file) file=${2:?--file needs a path}; shift 2 ;;
    *) options+=("$1"); shift ;;
  esac
done
[ -n "$file" ] || { "$bin" --help >&2; exit 2; }
key=$( { "$bin" --version; printf '%s\n' "${options[@]}"; } | sha256sum | cut -c1-16)
cached=$DASHPILOT_HISTORY_CACHE/history-$key.sqlite
if [ ! -s "$cached" ] || [ ! -s "$cached.summary" ]; then
  mkdir -p "$DASHPILOT_HISTORY_CACHE"
  "$bin" --file "$cached" "${options[@]}" >"$cached.summary.partial"
  mv "$cached.summary.partial" "$cached.summary"
  cat "$cached.summary"
else
  echo "make-history.sh: $cached was written before; copying it" >&2
  cat "$cached.summary"
fi
cp "$cached" "$file"
