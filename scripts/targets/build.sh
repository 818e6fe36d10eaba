#!/usr/bin/env bash
# build.sh TARGET PRODUCT...: builds the products (release) for TARGET (scripts/targets/targets.sh)
# and prints the directory that holds them as its last line.
#
#   debian12-amd64  on this machine, which must be Debian 12 amd64, with SWIFT (default swift,
#                   the toolchain in /opt/swift) and --static-swift-stdlib, into .build/release
#                   as `make install` and `make bench` build.
#   debian13-amd64  in the Debian 13 build root (scripts/targets/build-root.sh) with Debian's
#                   swiftlang, into .build/targets/debian13-amd64.
#   debian13-arm64  in the same root, cross-compiled by the same compiler, into
#                   .build/targets/debian13-arm64:
#                   --triple aarch64-unknown-linux-gnu   the box's machine;
#                   -resource-dir /opt/swift-arm64/...   Debian's arm64 standard library and
#                                                        Foundation modules and runtime;
#                   PKG_CONFIG_PATH                      the arm64 C libraries (multiarch);
#                   and lld, the toolchain's linker for any machine (both targets use it).
# Both Debian 13 targets link Debian's shared Swift runtime, found on the box in
# /usr/libexec/swift/lib/swift/linux (the binaries' RUNPATH, and nothing else).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. scripts/targets/targets.sh
target=${1:?usage: build.sh TARGET PRODUCT...}
shift
is_target "$target" || { echo "build.sh: unknown target $target (one of: $DEB_TARGETS)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: build.sh TARGET PRODUCT..." >&2; exit 2; }
SWIFT=${SWIFT:-swift}

case $target in
  debian12-amd64)
    [ "$(host_target)" = debian12-amd64 ] ||
      { echo "build.sh: debian12-amd64 builds on a Debian 12 amd64 machine with the Swift toolchain; this one is $(host_target)" >&2; exit 1; }
    for product in "$@"; do $SWIFT build -c release --static-swift-stdlib --product "$product" >&2; done
    $SWIFT build -c release --static-swift-stdlib --show-bin-path
    ;;
  debian13-*)
    root=$(scripts/targets/build-root.sh debian13)
    runtime=/usr/libexec/swift/lib/swift/linux
    # The box's binaries load Debian's runtime and the system's libraries, never a library
    # beside themselves or in the build root: their RUNPATH is the runtime's directory alone.
    # Linked by the toolchain's lld for either machine, with full RELRO and immediate
    # binding, as Debian's hardening asks of a program (gold, Debian's Swift's default
    # linker, writes no RELRO segment for it).
    flags=(-c release --scratch-path "$repo/.build/targets/$target" --disable-local-rpath
      -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -rpath -Xlinker "$runtime" -Xswiftc -use-ld=lld
      -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
    environment=()
    if [ "$(target_arch "$target")" = arm64 ]; then
      flags+=(--triple "$(target_triple "$target")"
        -Xswiftc -resource-dir -Xswiftc /opt/swift-arm64/usr/libexec/swift/lib/swift)
      environment+=(PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig)
    fi
    for product in "$@"; do
      scripts/targets/in-root.sh "$root" env "${environment[@]}" swift build "${flags[@]}" --product "$product" >&2
    done
    bin=$(scripts/targets/in-root.sh "$root" env "${environment[@]}" swift build "${flags[@]}" --show-bin-path)
    echo "$bin"
    ;;
esac
