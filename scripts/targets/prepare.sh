#!/usr/bin/env bash
# prepare.sh: makes, at the lowest CPU priority, what the Debian 13 steps build and boot in,
# so that CI makes them while `make test` runs (its suites mostly wait on gpsd, brokers and
# daemons, and debootstrap on the mirror): the Debian 13 build root and the Debian 13 builds
# of dashpilotd and dashpilotctl (scripts/targets/build.sh), the gpsd suites' build
# (gpsd-test.sh --build), and the roots each package test boots (package.sh --roots; the
# arm64 one, through qemu-user, the longest). The later steps find them made and reuse them.
# Prints what it did, with the time of each step, and fails with the first that fails.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
renice -n 19 -p $$ >/dev/null
step() {
  local started=$SECONDS
  echo "prepare: $*"
  "$@" >".build/prepare-step.log" 2>&1 || { cat .build/prepare-step.log; echo "prepare: FAILED: $*"; return 1; }
  echo "prepare: done in $((SECONDS - started)) s"
}
mkdir -p .build
step scripts/targets/build-root.sh debian13
step env DEB_TARGET=debian13-arm64 scripts/system-test/package.sh --roots
step scripts/targets/build.sh debian13-arm64 dashpilotd dashpilotctl
step scripts/targets/build.sh debian13-amd64 dashpilotd dashpilotctl
step scripts/targets/gpsd-test.sh --build
step env DEB_TARGET=debian13-amd64 scripts/system-test/package.sh --roots
step env DEB_TARGET=debian12-amd64 scripts/system-test/package.sh --roots
