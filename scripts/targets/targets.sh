# The boxes the package is built for; sourced, not run. A target is RELEASE-ARCH:
#
#   debian12-amd64  Debian 12 (bookworm), amd64: built on the host with the Swift toolchain
#                   in /opt/swift (or SWIFT), the Swift runtime linked in (--static-swift-stdlib):
#                   Debian 12 ships no Swift.
#   debian13-amd64  Debian 13 (trixie), amd64: built in a Debian 13 build root with Debian's own
#                   swiftlang, linked against Debian's Swift runtime (Depends: libswiftlang).
#   debian13-arm64  Debian 13, arm64 (Raspberry Pi OS and other trixie boxes): cross-compiled in
#                   the same build root by the same amd64 compiler, against the arm64 C libraries
#                   installed beside the amd64 ones (multiarch) and Debian's arm64 Swift runtime
#                   and modules (scripts/targets/build-root.sh).
#
# The host's own target is what `make deb` builds when DEB_TARGET is not given.
DEB_TARGETS="debian12-amd64 debian13-amd64 debian13-arm64"

# is_target NAME: NAME is one of DEB_TARGETS.
is_target() { case " $DEB_TARGETS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# target_release TARGET: debian12 or debian13.
target_release() { echo "${1%-*}"; }
# target_suite TARGET: the Debian suite (codename) of TARGET's release.
target_suite() {
  case $1 in
    debian12-*) echo bookworm ;;
    debian13-*) echo trixie ;;
  esac
}
# target_arch TARGET: Debian's name of TARGET's architecture.
target_arch() { echo "${1##*-}"; }
# target_triple TARGET: the compiler's name of TARGET's machine.
target_triple() {
  case $(target_arch "$1") in
    amd64) echo x86_64-unknown-linux-gnu ;;
    arm64) echo aarch64-unknown-linux-gnu ;;
  esac
}
# target_multiarch TARGET: the directory name of TARGET's libraries (/usr/lib/NAME).
target_multiarch() {
  case $(target_arch "$1") in
    amd64) echo x86_64-linux-gnu ;;
    arm64) echo aarch64-linux-gnu ;;
  esac
}
# host_target: the target of this machine (from /etc/os-release and dpkg), e.g. debian12-amd64.
host_target() {
  local version_id
  version_id=$(. /etc/os-release && echo "${VERSION_ID%%.*}")
  echo "debian$version_id-$(dpkg --print-architecture)"
}
