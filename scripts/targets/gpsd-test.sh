#!/usr/bin/env bash
# gpsd-test.sh: the gpsd suites (every suite of GPSDTests, and CaptureTests' LiveCaptureTests
# and GGAOnlyReplayTests) built by Debian 13's Swift against Debian 13's libgps (gpsd 3.25,
# libgps API 14) and run against its gpsd, gpsfake and gpspipe, in the Debian 13 build root
# (scripts/targets/build-root.sh). `make test` runs the same suites against this machine's
# gpsd (Debian 12's 3.22, API 11). The root sees scripts/targets/gpsd-suites/Package.swift
# as the package's manifest: the repository's own sources, only the targets these need.
#
# Needs root (the build root). Under CI (CI=true) a machine without it fails; elsewhere the
# suites are skipped, saying what is missing.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
if [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null; then
  why="needs root and debootstrap (make deps installs it) for the Debian 13 build root"
  [ "${CI:-}" = true ] && { echo "gpsd-test: FAILED: $why" >&2; exit 1; }
  echo "gpsd-test: SKIPPED: $why"; exit 0
fi
started=$SECONDS
root=$(scripts/targets/build-root.sh debian13)
suites=(--bind "$repo/scripts/targets/gpsd-suites/Package.swift:$repo/Package.swift")
scratch=(--scratch-path "$repo/.build/targets/debian13-amd64-gpsd-suites")
echo "gpsd-test: Debian 13's $(scripts/targets/in-root.sh "$root" sh -c 'dpkg-query -W -f "gpsd \${Version}, libgps-dev \${Version}" gpsd; echo')"
scripts/targets/in-root.sh "${suites[@]}" "$root" swift build --build-tests "${scratch[@]}"
# --build: only build them (CI builds them while `make test` runs: scripts/targets/prepare.sh).
[ "${1:-}" = --build ] && { echo "gpsd-test: built in $((SECONDS - started)) s"; exit 0; }
scripts/targets/in-root.sh "${suites[@]}" "$root" swift test --skip-build "${scratch[@]}"
echo "gpsd-test: passed on Debian 13's gpsd in $((SECONDS - started)) s"
