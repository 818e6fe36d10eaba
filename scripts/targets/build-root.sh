#!/usr/bin/env bash
# build-root.sh RELEASE: prints the path of the build root of RELEASE (debian13), making it
# first when it is missing or its package list changed. Needs root (debootstrap, chroot).
#
# The root is a minimal Debian 13 (debootstrap from DASHPILOT_DEBIAN_MIRROR, default
# http://deb.debian.org/debian) with scripts/targets/RELEASE-build-root.txt installed, and
# Debian's arm64 Swift runtime and standard-library modules unpacked under /opt/swift-arm64
# (from the arm64 swiftlang and libswiftlang packages: they cannot be installed beside the
# amd64 ones, which own the same paths). It is cached as .build/roots/RELEASE-build-KEY,
# KEY a hash of the package list and this script; a root of another key is removed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
release=${1:?usage: build-root.sh RELEASE}
case $release in
  debian13) suite=trixie ;;
  *) echo "build-root.sh: no build root for $release (only debian13: Debian 12 builds on the host)" >&2; exit 2 ;;
esac
list=$repo/scripts/targets/$release-build-root.txt
mirror=${DASHPILOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
key=$(cat "$list" "$0" | sha256sum | cut -c1-12)
roots=$repo/.build/roots
root=$roots/$release-build-$key
[ -f "$root/.complete" ] && { echo "$root"; exit 0; }

say() { echo "build-root: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "making the $release build root needs root (debootstrap)"; exit 1; }
command -v debootstrap >/dev/null || { say "debootstrap is missing (make deps installs it)"; exit 1; }
started=$SECONDS
mkdir -p "$roots"
for old in "$roots/$release-build-"*; do
  [ -e "$old" ] && [ "$old" != "$root" ] && { say "removing $old (another package list)"; rm -rf "$old"; }
done
partial=$root.partial
rm -rf "$partial"
say "debootstrapping $suite into $partial (once; cached afterwards)"
debootstrap --variant=minbase "$suite" "$partial" "$mirror" >"$roots/$release-build-$key.debootstrap.log" 2>&1 ||
  { tail -20 "$roots/$release-build-$key.debootstrap.log" >&2; say "debootstrap failed"; exit 1; }
# Manual pages, documentation and translations are not needed to build, and an amd64 and an
# arm64 package of one version sometimes ship different compressed pages at one path.
cat >"$partial/etc/dpkg/dpkg.cfg.d/dashpilot-build-root" <<'CFG'
path-exclude=/usr/share/man/*
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/locale/*
CFG
cp /etc/resolv.conf "$partial/etc/resolv.conf"
mapfile -t packages < <(sed 's/#.*//' "$list" | tr -s ' \t' '\n' | grep -v '^$')
"$repo/scripts/targets/in-root.sh" "$partial" sh -ec '
  dpkg --add-architecture arm64
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/tmp/install.log 2>&1 ||
    { tail -30 /tmp/install.log; exit 1; }
  # The arm64 runtime and modules, unpacked where the cross build looks for them.
  cd /tmp && apt-get download -qq swiftlang:arm64 libswiftlang:arm64
  mkdir -p /opt/swift-arm64
  dpkg-deb -x libswiftlang_*_arm64.deb /opt/swift-arm64
  # What the runtime package holds, as dpkg -L lists an installed one (make deb needs it).
  dpkg-deb --fsys-tarfile libswiftlang_*_arm64.deb | tar -t | sed "s|^\./|/|; s|/$||" >/opt/swift-arm64/libswiftlang.list
  dpkg-deb --fsys-tarfile swiftlang_*_arm64.deb | tar -x -C /opt/swift-arm64 \
    --wildcards "./usr/libexec/swift/lib/swift/linux/*" "./usr/libexec/swift/lib/swift/shims/*" \
    "./usr/libexec/swift/lib/swift/_foundation_unicode/*" "./usr/libexec/swift/lib/swift/_FoundationCShims/*" \
    "./usr/libexec/swift/lib/swift/CoreFoundation/*" "./usr/libexec/swift/lib/swift/Block/*" \
    "./usr/libexec/swift/lib/swift/dispatch/*" "./usr/libexec/swift/lib/swift/os/*" \
    "./usr/libexec/swift/lib/swift/clang" "./usr/libexec/swift/lib/clang/*"
  rm -f /tmp/*.deb
  apt-get clean
' sh "${packages[@]}" >&2 || { say "installing the packages failed"; exit 1; }
touch "$partial/.complete"
mv "$partial" "$root"
say "made $root in $((SECONDS - started)) s ($(du -sm "$root" | cut -f1) MB)"
echo "$root"
