#!/usr/bin/env bash
# The package's system test: the box's whole life with the Debian package of one target
# (DEB_TARGET, scripts/targets/targets.sh; by default this machine's), in a root of that
# target's release and architecture (an arm64 one booted through qemu-user).
#
# 1. `make deb DEB_TARGET=...`, and a second package with a higher version from the same
#    tree (DEB_VERSION=VERSION+debNN+systemtest1); the first checked: file name and fields
#    (Installed-Size under 40 MB with the Swift runtime linked in, Debian 12; under 15 MB
#    with Debian's, Debian 13), Depends against what the binaries really load (readelf,
#    the loader's directories, dpkg -S: scripts/system-test/expected-depends.sh, where the
#    target's libraries are installed) plus libcurl, the conffile, the file list and modes,
#    the maintainer scripts against debhelper's own autoscripts, the manual pages with
#    man -l, the release's own lintian.
# 2. In a chroot of a plain root of the release (not booted: no systemd running), apt-get
#    install of the package, its dependencies from Debian's archive: nothing fails, the
#    user, the directories and the enablement are made, nothing is started, both binaries
#    run (this machine's architecture only: the booted root installs the arm64 one).
# 3. In a booted root (systemd-nspawn): apt-get install, the service enabled, running and
#    ready; dashpilotctl status as a member of the group; man dashpilotctl; a recorded
#    drive (the first part of a real 137 km one, ../shared/real-logs) fed to the root's
#    gpsd by gpsfake during shift 1, whose figure (`shift show --json`) is the one replay
#    gives of what that gpsd reported, and, for arm64, the one the amd64 build gives of
#    amd64's gpsd; for arm64, `dashpilotctl replay --json` of every truth fixture
#    byte-identical to the amd64 build's (Debian 13's, run in the build root); a shift
#    recorded through gpsd (gpsfake); an upgrade to the higher version keeps the rows, the open shift (a new
#    capture session and a gap) and an edited configuration, without a conffile
#    question; apt-get remove stops the service and keeps data and configuration;
#    apt-get purge removes the configuration, says what it leaves, keeps the database;
#    the journal has every start and stop; then a box holding a file 0.1.0 made (4 KiB
#    pages): the package installed over it converts it while recording, and the
#    upgrade's restart puts the copy in place with every shift and sample.
# Ends with "package-test: N passed, M failed" and a non-zero status on failure. Needs
# root, debootstrap, systemd-nspawn, nsenter and lintian: under CI (CI=true) a missing
# one is a failure, elsewhere a skip that names it. The roots are cached as run.sh's.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
SWIFT=${SWIFT:-swift}
. "$repo/scripts/targets/targets.sh"
target=${DEB_TARGET:-$(host_target)}
is_target "$target" || { echo "package-test: DEB_TARGET=$target is not one of: $DEB_TARGETS" >&2; exit 2; }
test_name=package-test-$target
release=$(target_release "$target")
suite=$(target_suite "$target")
root_arch=$(target_arch "$target")
shared=${DASHPILOT_SHARED:-$repo/../shared}

missing=()
[ "$(id -u)" -eq 0 ] || missing+=("root")
for tool in debootstrap systemd-nspawn nsenter lintian dpkg-deb readelf; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -d "$shared/real-logs" ] || missing+=("$shared/real-logs (the recorded drive; DASHPILOT_SHARED)")
if [ "$root_arch" != "$(dpkg --print-architecture)" ] && ! emulation=$("$repo/scripts/targets/emulation.sh" "$root_arch"); then
  missing+=("${emulation#emulation: }")
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "package-test: FAILED: needs ${missing[*]} (make deps installs scripts/deps/*.txt)" >&2
    exit 1
  fi
  echo "package-test: SKIPPED: needs ${missing[*]} (make deps installs scripts/deps/*.txt)"
  exit 0
fi
[ -x /usr/bin/gpsfake ] || { echo "package-test: the host has no /usr/bin/gpsfake (gpsd-clients)" >&2; exit 1; }

# shellcheck source=scripts/system-test/lib.sh
. "$repo/scripts/system-test/lib.sh"
# shellcheck source=scripts/system-test/deb-checks.sh
. "$repo/scripts/system-test/deb-checks.sh"

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$repo/Sources/DashPilotCore/Version.swift")
arch=$root_arch
deb_version=$version+deb${release#debian}
upgrade_version=$deb_version+systemtest1
# python3-gps (and on Debian 12 python3-distutils) for gpsfake (copied from this machine for
# Debian 12, from the build root for 13: a Python program of the release's gpsd-clients,
# whose GTK dependencies debootstrap cannot configure); man-db and bash-completion for what a
# person uses. Nothing the package depends on: apt fetches it.
# ca-certificates, which a box has anyway, is there before the package: its trigger takes
# minutes under emulation. Under emulation man-db is left out (its trigger rebuilds the
# index at every install and removal): the pages are the same on every architecture, and
# the amd64 roots check them.
emulated=false
[ "$root_arch" = "$(dpkg --print-architecture)" ] || emulated=true
case $release in
  debian12) packages="systemd,dbus,python3-gps,python3-distutils,man-db,bash-completion" ;;
  *) packages="systemd,systemd-sysv,dbus,python3-gps,bash-completion,ca-certificates"
    $emulated || packages="$packages,man-db" ;;
esac
# in_target COMMAND...: COMMAND where the target's packages and tools are installed (this
# machine for Debian 12, the build root for Debian 13).
if [ "$release" = debian12 ]; then
  in_target() { "$@"; }
else
  build_root=$("$repo/scripts/targets/build-root.sh" "$release") || die "no build root for $release"
  # (This test's work directory is seen there at its own path.)
  in_target() { "$repo/scripts/targets/in-root.sh" --bind "$work:$work" "$build_root" "$@"; }
fi
# --roots: only make the roots this target's test builds and boots in (CI makes them while
# `make test` runs).
if [ "${1:-}" = --roots ]; then
  cached_root "$packages"
  log "the roots of $target are ready"
  exit 0
fi

# --- 1. Build, and check the package itself -------------------------------------------
# DASHPILOT_DEB and DASHPILOT_UPGRADE_DEB test packages already built (both, or neither).
if [ -n "${DASHPILOT_DEB:-}" ]; then
  deb=$(readlink -f "$DASHPILOT_DEB")
  upgrade_deb=$(readlink -f "${DASHPILOT_UPGRADE_DEB:?DASHPILOT_DEB needs DASHPILOT_UPGRADE_DEB too}")
else
  log "make deb DEB_TARGET=$target"
  deb_started=$SECONDS
  make -C "$repo" --no-print-directory deb SWIFT="$SWIFT" DEB_TARGET="$target" >"$work/deb.log" 2>&1 ||
    { cat "$work/deb.log"; die "make deb failed"; }
  deb=$(tail -1 "$work/deb.log")
  log "make deb took $((SECONDS - deb_started)) s"
  log "make deb DEB_TARGET=$target DEB_VERSION=$upgrade_version"
  # Only the test installs it, so it is compressed fast (DEB_XZ_LEVEL=1).
  DEB_XZ_LEVEL=1 make -C "$repo" --no-print-directory deb SWIFT="$SWIFT" DEB_TARGET="$target" \
    DEB_VERSION="$upgrade_version" >"$work/deb-upgrade.log" 2>&1 ||
    { cat "$work/deb-upgrade.log"; die "make deb DEB_VERSION=$upgrade_version failed"; }
  upgrade_deb=$(tail -1 "$work/deb-upgrade.log")
fi
log "built $deb ($(du -k "$deb" | cut -f1) KiB) and $(basename "$upgrade_deb")"

check "make deb's last line is .build/deb/dashpilot_${deb_version}_$arch.deb" \
  test "$deb" = "$repo/.build/deb/dashpilot_${deb_version}_$arch.deb" -a -f "$deb"
check "the upgrade package is dashpilot_${upgrade_version}_$arch.deb" \
  test "$upgrade_deb" = "$repo/.build/deb/dashpilot_${upgrade_version}_$arch.deb" -a -f "$upgrade_deb"
field() { dpkg-deb -f "$1" "$2"; }
check "Package, Version, Architecture" expect_equal "dashpilot $deb_version $arch" \
  bash -c "echo \$(dpkg-deb -f '$deb' Package Version Architecture | cut -d' ' -f2)"
check "dpkg orders the upgrade above the release" dpkg --compare-versions "$upgrade_version" gt "$deb_version"
check "dpkg orders Debian 13's package above Debian 12's, and 12's above the last release (0.2.0)" bash -c "
  dpkg --compare-versions '$version+deb13' gt '$version+deb12' && dpkg --compare-versions '$version+deb12' gt 0.2.0"
# Every executable links FoundationEssentials alone (no Foundation, no ICU data): 60 MB
# each for dashpilotctl and the route reader when they linked all of Foundation. Debian 13's
# link Debian's runtime (libswiftlang) instead of carrying it.
if [ "$release" = debian12 ]; then
  check "Installed-Size is under 40 MB" test "$(field "$deb" Installed-Size)" -lt 40960
else
  check "Installed-Size is under 15 MB" test "$(field "$deb" Installed-Size)" -lt 15360
fi
log "the package: $(du -k "$deb" | cut -f1) KiB, installed $(field "$deb" Installed-Size) KiB"
check "Recommends: gpsd" expect_equal "gpsd" field "$deb" Recommends
check "Suggests: espeak-ng, mosquitto-clients" expect_equal "espeak-ng, mosquitto-clients" field "$deb" Suggests

# Depends, judged independently of dpkg-shlibdeps: the package of every library the two
# binaries need at start (ELF NEEDED, found as the loader finds them, owned per dpkg -S),
# libcurl's for the library the routing client dlopens, and the sysusers provider.
mkdir -p "$work/extracted"
dpkg-deb -x "$deb" "$work/extracted"
depends_check() {
  local curl_soname want got
  curl_soname=$(sed -n 's/.*dlopen("\(libcurl\.so\.[0-9]*\)".*/\1/p' "$repo/Sources/CCurl/CurlLoader.c")
  want=$({ in_target "$repo/scripts/system-test/expected-depends.sh" "$(target_multiarch "$target")" "$curl_soname" \
    "$work/extracted/usr/sbin/dashpilotd" "$work/extracted/usr/bin/dashpilotctl" || echo "(expected-depends.sh failed)"
    echo "systemd | systemd-standalone-sysusers | systemd-sysusers"; } | sort -u)
  got=$(dpkg-deb -f "$deb" Depends | sed 's/ *([^)]*)//g' | tr ',' '\n' | sed 's/^ *//; s/ *$//' | sort -u)
  [ "$want" = "$got" ] || { printf 'Depends should name exactly:\n%s\nit names:\n%s\n' "$want" "$got"; return 1; }
}
check "Depends is exactly the packages of what the binaries load, libcurl4 and systemd-sysusers" depends_check
log "$(dpkg-deb -f "$deb" Depends | sed 's/^/Depends: /')"
check "the conffile is /etc/dashpilot/dashpilot.conf" expect_equal "/etc/dashpilot/dashpilot.conf" \
  bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./conffiles"
expected_files="-rw-r--r-- root/root ./etc/dashpilot/dashpilot.conf
-rwxr-xr-x root/root ./usr/bin/dashpilotctl
-rw-r--r-- root/root ./usr/lib/systemd/system/dashpilotd.service
-rw-r--r-- root/root ./usr/lib/sysusers.d/dashpilot.conf
-rw-r--r-- root/root ./usr/lib/tmpfiles.d/dashpilot.conf
lrwxrwxrwx root/root ./usr/libexec/dashpilot/dashpilot-route-reader
-rwxr-xr-x root/root ./usr/sbin/dashpilotd
-rw-r--r-- root/root ./usr/share/bash-completion/completions/dashpilotctl
-rw-r--r-- root/root ./usr/share/doc/dashpilot/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/dashpilot/copyright
$(cd "$repo/scripts/deb/examples" && for f in *; do echo "-rw-r--r-- root/root ./usr/share/doc/dashpilot/examples/$f"; done)
-rw-r--r-- root/root ./usr/share/doc/dashpilot/uplink-messages.md.gz
$([ "$release" = debian12 ] || echo "-rw-r--r-- root/root ./usr/share/lintian/overrides/dashpilot")
-rw-r--r-- root/root ./usr/share/man/man1/dashpilotctl.1.gz
-rw-r--r-- root/root ./usr/share/man/man5/dashpilot.conf.5.gz
-rw-r--r-- root/root ./usr/share/man/man8/dashpilotd.8.gz"
expected_files=$(sed '/^$/d' <<<"$expected_files")
check "the files, their modes and owners" expect_equal "$expected_files" \
  bash -c "dpkg-deb -c '$deb' | grep -v '^d' | awk '{ print \$1, \$2, \$6 }' | sort -k3"
check "the route reader is dashpilotctl under its name (one copy of the Swift runtime)" \
  expect_equal "../../bin/dashpilotctl" readlink "$work/extracted/usr/libexec/dashpilot/dashpilot-route-reader"
check "the unit starts /usr/sbin/dashpilotd" expect_output '^ExecStart=/usr/sbin/dashpilotd --config /etc/dashpilot/dashpilot.conf$' \
  cat "$work/extracted/usr/lib/systemd/system/dashpilotd.service"
man_check() {
  local page out
  for page in "$work"/extracted/usr/share/man/man*/*.gz; do
    out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 "$page" 2>&1 >/dev/null)
    [ -z "$out" ] || { echo "$page: $out"; return 1; }
  done
}
check "man -l renders every page without a warning" man_check
# Our maintainer scripts carry debhelper's blocks verbatim, as dh would write them.
autoscripts_check() {
  deb_autoscripts_check "$deb" dashpilotd.service dashpilot.conf \
    postinst:postinst-sysusers postinst:postinst-init-tmpfiles postinst:postinst-systemd-enable \
    postinst:postinst-systemd-restart prerm:prerm-systemd-restart postrm:postrm-systemd postrm:postrm-systemd-reload-only
}
if [ -d /usr/share/debhelper/autoscripts ]; then
  check "the maintainer scripts carry debhelper 13's sysusers, tmpfiles and systemd blocks" autoscripts_check
elif [ "${CI:-}" = true ]; then
  check "debhelper is installed (for its autoscripts)" false
else
  log "SKIP - the maintainer scripts against debhelper's autoscripts: needs debhelper"
fi
lintian_check() {
  local out accepted unexpected
  out=$(in_target lintian -I --pedantic "$deb" 2>&1 | grep -v '^running with root privileges' || true)
  printf '%s\n' "$out" >"$work/lintian.txt"
  # The tags accepted on every release, and those accepted on this one.
  accepted=$(sed 's/#.*//' "$repo/scripts/deb/lintian-accepted" | awk -v r="$release" 'NF == 1 || (NF > 1 && index(" " $0 " ", " " r " ")) { print $1 }')
  if grep -E '^[EW]: ' <<<"$out"; then echo "lintian reports errors or warnings"; return 1; fi
  unexpected=$(grep -E '^[IPX]: ' <<<"$out" | awk '{ print $3 }' | sort -u | grep -vxF -f <(printf '%s\n' "$accepted") || true)
  [ -z "$unexpected" ] || { printf 'tags not in scripts/deb/lintian-accepted:\n%s\n' "$unexpected"; return 1; }
}
check "lintian ($release's): no error, no warning, only the tags scripts/deb/lintian-accepted explains" lintian_check
log "lintian -I --pedantic says: $(grep -cE '^[EWIPX]: ' "$work/lintian.txt" || true) tags; E/W: $(grep -cE '^[EW]: ' "$work/lintian.txt" || true)"

cached_root "$packages"
if [ "$root_arch" != "$(dpkg --print-architecture)" ]; then
  check "the $root_arch root runs $root_arch programs (qemu-user)" expect_equal "aarch64" chroot "$base" uname -m
fi

# --- 2. A chroot: a system not booted with systemd --------------------------------------
chroot_root=$work/chroot
if [ "$root_arch" = "$(dpkg --print-architecture)" ]; then
overlay_root "$chroot_root"
mount -t proc proc "$chroot_root/proc"
mount --rbind /dev "$chroot_root/dev"
mount --make-rslave "$chroot_root/dev"
cp /etc/resolv.conf "$chroot_root/etc/resolv.conf"
install -D -m 0644 "$deb" "$chroot_root/opt/dashpilot/$(basename "$deb")"
in_chroot() { chroot "$chroot_root" "$@"; }
log "apt-get update in the chroot"
in_chroot apt-get update -qq >"$work/chroot-update.log" 2>&1 || { cat "$work/chroot-update.log"; die "apt-get update failed"; }
check "apt-get install in a chroot (no systemd running) succeeds" bash -c "
  chroot '$chroot_root' env DEBIAN_FRONTEND=noninteractive apt-get install -y -q '/opt/dashpilot/$(basename "$deb")' </dev/null >'$work/chroot-install.log' 2>&1 ||
    { tail -30 '$work/chroot-install.log'; exit 1; }"
check "the chroot's dpkg has it installed" expect_equal "install ok installed" \
  in_chroot dpkg-query -W -f '${Status}' dashpilot
check "the chroot has the dashpilot user, made by systemd-sysusers" \
  expect_output '^dashpilot:x:[0-9]+:[0-9]+:DashPilot GPS capture daemon:/var/lib/dashpilot:/usr/sbin/nologin$' in_chroot getent passwd dashpilot
check "the chroot has /var/lib/dashpilot 0750 dashpilot:dashpilot, made by systemd-tmpfiles" \
  expect_equal "750 dashpilot dashpilot" in_chroot stat -c '%a %U %G' /var/lib/dashpilot
# deb-systemd-helper links /lib/systemd/system/..., which is /usr/lib/... on a merged /usr.
check "the service is enabled for the next boot" expect_equal "/usr/lib/systemd/system/dashpilotd.service" \
  in_chroot readlink -f /etc/systemd/system/multi-user.target.wants/dashpilotd.service
no_daemon_in_chroot() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = dashpilotd ] && [ "$(readlink "$p/root" 2>/dev/null)" = "$chroot_root" ] &&
      { echo "dashpilotd runs in the chroot: ${p#/proc/}"; return 1; }
  done
  return 0
}
check "nothing was started in the chroot" no_daemon_in_chroot
check "dashpilotd runs with the libraries the package depends on" expect_equal "dashpilotd $version" in_chroot dashpilotd --version
check "dashpilotctl runs with them too" expect_equal "dashpilotctl $version" in_chroot dashpilotctl --version
check "the route reader dashpilotd runs reads a route" expect_equal '[{"lat":1.0,"lon":2.0},{"lat":1.01,"lon":2.0}]' \
  bash -c "printf '%s' '<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"1.01\" lon=\"2\"/></rte></gpx>' |
    chroot '$chroot_root' /usr/libexec/dashpilot/dashpilot-route-reader gpx args.gpx"
check "the dependencies came from Debian's archive" expect_output '^Get:[0-9]+ .*(libinih1|libmosquitto1)' cat "$work/chroot-install.log"
umount -R "$chroot_root/dev" "$chroot_root/proc" 2>/dev/null || true
else
  log "the chroot install is checked on this machine's architecture; the booted $root_arch root installs the package below"
fi

# --- 3. A booted root of the release -------------------------------------------------------
root=$work/boot
overlay_root "$root"
prepare_for_boot "$root"
# What the chroot downloaded, so the archive is asked once per run.
if [ -d "$chroot_root/var/lib/apt/lists" ]; then
  cp -a "$chroot_root/var/lib/apt/lists/." "$root/var/lib/apt/lists/"
  cp "$chroot_root"/var/cache/apt/archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
else
  cp /etc/resolv.conf "$root/etc/resolv.conf"
fi
# gpsfake of the release's gpsd-clients (a Python program): this machine's, or the build root's.
if [ "$release" = debian12 ]; then
  install -D -m 0755 /usr/bin/gpsfake "$root/usr/local/bin/gpsfake"
else
  install -D -m 0755 "$build_root/usr/bin/gpsfake" "$root/usr/local/bin/gpsfake"
fi
install -D -m 0644 "$deb" "$root/opt/dashpilot/$(basename "$deb")"
install -D -m 0644 "$upgrade_deb" "$root/opt/dashpilot/$(basename "$upgrade_deb")"
# A steady drive north at 10 m/s, a fix every 0.1 s of playing for 6 minutes: fixes keep
# coming through the upgrade, with times that only go forwards.
python3 - "$root/opt/dashpilot/drive.nmea" <<'PY'
import sys
def sentence(body):
    c = 0
    for ch in body: c ^= ord(ch)
    return "$%s*%02X" % (body, c)
lines = []
for k in range(3600):
    s = 10 * 3600 + k
    t = "%02d%02d%02d.00" % (s // 3600, s // 60 % 60, s % 60)
    lat = "51%08.5f" % (30.0 + k * 10.0 / 1852.0)
    lines += [sentence("GPRMC,%s,A,%s,N,00007.20000,W,19.44,0.0,010524,,,A" % (t, lat)),
              sentence("GPGGA,%s,%s,N,00007.20000,W,1,09,0.9,35.0,M,47.0,M,," % (t, lat)),
              sentence("GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1"),
              sentence("GPGST,%s,2.7,2.7,2.7,0.0,2.7,2.7,4.0" % t)]
open(sys.argv[1], "w").write("\r\n".join(lines) + "\r\n")
PY
if $emulated; then
  # What qemu-user cannot give a service, taken from every service of this root alone
  # (dashpilotd's, journald's, logind's ...): a mount namespace of its own, and credentials
  # (a file system systemd mounts for them). systemd builds both with the kernel's mount API
  # (open_tree, move_mount, mount_setattr), which qemu-user does not translate, so each of
  # these failed a service here however small (journald: 243/CREDENTIALS). The
  # seccomp-based sandbox (SystemCallFilter=, MemoryDenyWriteExecute=,
  # RestrictAddressFamilies=, SystemCallArchitectures=) stays. A real arm64 box runs the unit
  # as shipped.
  install -D -m 0644 /dev/stdin "$root/etc/systemd/system/service.d/qemu-user.conf" <<'UNIT'
[Service]
ProtectSystem=no
ProtectHome=no
PrivateTmp=no
PrivateDevices=no
PrivateUsers=no
ProtectKernelTunables=no
ProtectKernelModules=no
ProtectKernelLogs=no
ProtectControlGroups=no
ProtectProc=default
ProcSubset=all
ImportCredential=
LoadCredential=
UNIT
fi
boot "$root"
if $emulated; then
  # Under qemu-user some of systemd's own units still fail in a container (the mounts it
  # makes with the kernel's mount API, ldconfig): the boot ends degraded, and the service
  # is what is judged.
  check "the boot ends (running, or degraded under emulation)" bash -c "case '$state' in running|degraded) ;; *) exit 1 ;; esac"
  log "units that failed under emulation: $(in_container systemctl --failed --no-legend --plain 2>/dev/null | awk '{ print $1 }' | paste -sd' ')"
else
  check "the boot reaches running" bash -c "[ '$state' = running ] || { nsenter -t $container_pid -a systemctl --failed --no-pager; exit 1; }"
fi
if [ ! -d "$chroot_root/var/lib/apt/lists" ]; then
  in_container apt-get update -qq >"$work/update.log" 2>&1 || { cat "$work/update.log"; die "apt-get update failed in the booted root"; }
fi

check "before: none of the package's libraries is installed" bash -c "! nsenter -t $container_pid -a dpkg-query -W libinih1 libmosquitto1 >/dev/null 2>&1"
package_started=$(date +%s%N)
check "apt-get install ./$(basename "$deb") (dependencies from Debian)" bash -c "
  nsenter -t $container_pid -a sh -c 'cd /opt/dashpilot && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./$(basename "$deb")' </dev/null >'$work/install.log' 2>&1 ||
    { tail -30 '$work/install.log'; exit 1; }"
check "gpsd came with it (Recommends)" expect_equal "install ok installed" in_container dpkg-query -W -f '${Status}' gpsd
check "the service is enabled" expect_equal "enabled" in_container systemctl is-enabled dashpilotd
check "the service is running" expect_equal "active running" \
  bash -c "nsenter -t $container_pid -a systemctl show -p ActiveState -p SubState --value dashpilotd | paste -sd' '"
check "and ready: its STATUS= line says where it answers" expect_output '^StatusText=Answering on /run/dashpilot/control.sock' \
  in_container systemctl show -p StatusText dashpilotd
# (Without man-db under emulation, the pages the unit names are not looked up.)
check "systemd-analyze verify of the installed unit is clean" expect_equal "" \
  in_container systemd-analyze verify $($emulated && echo --man=no) /usr/lib/systemd/system/dashpilotd.service
check "the database directory is 0750 dashpilot:dashpilot" expect_equal "750 dashpilot dashpilot" \
  in_container stat -c '%a %U %G' /var/lib/dashpilot
in_container useradd --create-home --shell /bin/bash driver
in_container usermod -aG dashpilot driver
as_driver() { in_container runuser -u driver -- "$@"; }
check "dashpilotctl status as a member of the group dashpilot" \
  expect_output "^dashpilotd +${version//./\\.} · running" as_driver dashpilotctl status
if $emulated; then
  log "man: checked in the amd64 roots (no man-db under emulation)"
else
  check "man dashpilotctl" expect_output '^NAME' in_container env MANPAGER=cat MANWIDTH=80 man dashpilotctl
  check "man dashpilotctl finds the installed, compressed page" expect_equal "/usr/share/man/man1/dashpilotctl.1.gz" in_container man -w dashpilotctl
  check "man 5 dashpilot.conf, man 8 dashpilotd" expect_equal "/usr/share/man/man5/dashpilot.conf.5.gz /usr/share/man/man8/dashpilotd.8.gz" \
    bash -c "echo \$(nsenter -t $container_pid -a man -w 5 dashpilot.conf) \$(nsenter -t $container_pid -a man -w 8 dashpilotd)"
fi

# An edited configuration: gpsd on the test's port, kilometres, and shifts by hand (the
# driver starts shifts 1 and 2; hands-free shifts have end-to-end tests of their own).
port=$(( 40000 + RANDOM % 20000 ))
conf=$root/etc/dashpilot/dashpilot.conf
sed -i "s|^#Address=localhost:2947|Address=127.0.0.1:$port|; s|^#Units=miles|Units=kilometres|; s|^Start=movement|Start=manual|" "$conf"
edited_sum=$(md5sum <"$conf")
check "the configuration is edited (three keys)" expect_equal "3" bash -c "grep -cE '^(Address=127.0.0.1:$port|Units=kilometres|Start=manual)$' '$conf'"
check "systemctl restart dashpilotd applies it" in_container timeout 40 systemctl restart dashpilotd
status_json() { as_driver dashpilotctl status --json; }
json_value() {  # json_value EXPRESSION: over status --json as the driver ("s")
  status_json 2>/dev/null | python3 -c "import json, sys; s = json.load(sys.stdin); print($1)" 2>/dev/null || true
}
check "status reads the edited units" expect_equal "kilometres" json_value 's["daemon"]["units"]'
# run_unit NAME COMMAND...: COMMAND as the service NAME in the container, started by
# systemctl (through systemd's own socket: systemd-run needs D-Bus, which does not run under
# emulation).
run_unit() {
  local name=$1
  shift
  printf '[Service]\nExecStart=%s\n' "$*" >"$root/etc/systemd/system/$name.service"
  in_container systemctl daemon-reload && in_container systemctl start "$name.service"
}
# shellcheck source=scripts/system-test/package-drive.sh
. "$repo/scripts/system-test/package-drive.sh"
check "gpsfake starts gpsd on port $port" run_unit dashpilot-gpsfake \
  /usr/local/bin/gpsfake -1 -q -P "$port" -c 0.025 /opt/dashpilot/drive.nmea
check "gpsd answers on port $port" in_container timeout 20 bash -c \
  "until (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do sleep 0.2; done"
check "the driver starts shift 2" expect_output '^Shift #2 started at ' as_driver dashpilotctl shift start
rows() {  # rows [SQL]: what the database holds, read-only (python3's sqlite3)
  in_container python3 -c '
import sqlite3, sys
db = sqlite3.connect("file:/var/lib/dashpilot/dashpilot.sqlite?mode=ro", uri=True, timeout=10)
for row in db.execute(sys.argv[1]): print(*row)' "${1:-SELECT count(*) FROM samples WHERE shift_id = 2}"
}
wait_for_rows() {  # wait_for_rows N: shift 2 has more than N rows (within a minute: after the
  # recorded drive's gpsd went away, dashpilotd retries gpsd at most every 30 s)
  local n
  for _ in $(seq 1 300); do
    n=$(rows 2>/dev/null || echo 0)
    [ "${n:-0}" -gt "$1" ] && return 0
    sleep 0.2
  done
  echo "shift 2 has ${n:-no} rows, not more than $1"; return 1
}
check "the shift records rows through gpsd" wait_for_rows 20
session_before=$(json_value '(s["capture"] or {}).get("session") or ""')
check "a capture session is open" test -n "$session_before"
rows "SELECT id FROM samples WHERE shift_id = 2 ORDER BY id" >"$work/ids-before"
log "$(wc -l <"$work/ids-before") rows of shift 2 before the upgrade, session $session_before"
pid_before=$(in_container systemctl show -p MainPID --value dashpilotd)

# --- The upgrade ---
check "apt-get install ./$(basename "$upgrade_deb") (the upgrade)" bash -c "
  nsenter -t $container_pid -a sh -c 'cd /opt/dashpilot && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./$(basename "$upgrade_deb")' </dev/null >'$work/upgrade.log' 2>&1 ||
    { tail -30 '$work/upgrade.log'; exit 1; }"
check "the upgrade asked nothing about the configuration file" bash -c "! grep -n 'Configuration file\\|dashpilot.conf' '$work/upgrade.log'"
check "dpkg has the higher version" expect_equal "$upgrade_version" in_container dpkg-query -W -f '${Version}' dashpilot
check "the edited configuration is byte for byte what it was" expect_equal "$edited_sum" bash -c "md5sum <'$conf'"
check "no copy of the shipped file was left beside it" bash -c "! ls '$root/etc/dashpilot/' | grep -v '^dashpilot.conf$'"
check "the upgrade restarted the daemon" bash -c "
  pid=\$(nsenter -t $container_pid -a systemctl show -p MainPID --value dashpilotd); [ \"\$pid\" != 0 ] && [ \"\$pid\" != '$pid_before' ]"
check "status answers after the upgrade, with the edited units" expect_equal "kilometres" json_value 's["daemon"]["units"]'
check "shift 2 is still open" expect_equal "2 None" json_value '"%s %s" % (s["shift"]["id"], s["shift"]["ended_at"])'
new_session() {
  local session
  for _ in $(seq 1 150); do
    session=$(json_value '(s["capture"] or {}).get("session") or ""')
    [ -n "$session" ] && [ "$session" != "$session_before" ] && { echo "$session"; return 0; }
    sleep 0.2
  done
  echo "no capture session other than $session_before"; return 1
}
check "capture resumes in a new session" new_session
every_row_kept() {
  rows "SELECT id FROM samples WHERE shift_id = 2 ORDER BY id" >"$work/ids-after"
  local lost
  lost=$(comm -23 "$work/ids-before" "$work/ids-after" | wc -l)
  [ "$lost" -eq 0 ] || { echo "$lost rows of before the upgrade are gone"; return 1; }
}
check "every row of before the upgrade is still there" every_row_kept
check "and new rows come after it" wait_for_rows "$(wc -l <"$work/ids-before")"
check "the restart is one gap: two unbroken stretches, one gap" eventually 20 expect_equal "2 1" \
  bash -c "nsenter -t $container_pid -a runuser -u driver -- dashpilotctl shift show 2 --json | python3 -c '
import json, sys; d = json.load(sys.stdin)[\"shift\"][\"distance\"]; print(d[\"segments\"], d[\"gaps\"])'"
check "the journal: the first session ended as the daemon stopped for the upgrade" \
  journal_has "\"MESSAGE\":\"capture session $session_before of shift 2 ended: capture stopped: daemon stopping\""
check "the journal: shift 2 continues in a new session" journal_has '"MESSAGE":"shift 2 is still open: capture resumes in a new session"'

# --- Remove ---
rows "SELECT id FROM samples WHERE shift_id = 2 ORDER BY id" >"$work/ids-before"
check "apt-get remove dashpilot" bash -c "
  nsenter -t $container_pid -a env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q dashpilot </dev/null >'$work/remove.log' 2>&1 ||
    { tail -30 '$work/remove.log'; exit 1; }"
check "the service is stopped" expect_equal "inactive" bash -c "nsenter -t $container_pid -a systemctl is-active dashpilotd || true"
no_daemon() {
  local found
  found=$(in_container sh -c 'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = dashpilotd ] && echo ${p#/proc/}; done; true')
  [ -z "$found" ] || { echo "dashpilotd still runs: $found"; return 1; }
}
check "no dashpilotd process is left" no_daemon
check "dpkg keeps only its configuration files (rc)" expect_equal "rc " in_container dpkg-query -W -f '${db:Status-Abbrev}' dashpilot
check "the unit is gone" in_container test ! -e /usr/lib/systemd/system/dashpilotd.service
check "the edited configuration is kept" expect_equal "$edited_sum" bash -c "md5sum <'$conf'"
check "the database is kept, every row" every_row_kept
rows >"$work/count-after-remove"
log "$(cat "$work/count-after-remove") rows of shift 2 after the removal"
check "the dashpilot user is kept (it owns the database)" expect_output '^dashpilot:' in_container getent passwd dashpilot

# --- Purge ---
check "apt-get purge dashpilot" bash -c "
  nsenter -t $container_pid -a env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q dashpilot </dev/null >'$work/purge.log' 2>&1 ||
    { tail -30 '$work/purge.log'; exit 1; }"
has_line() {  # has_line FILE LINE: FILE has exactly LINE as one of its lines
  # (dpkg's lines reach the file ending in CR LF.)
  tr -d '\r' <"$1" | grep -qFx -- "$2" || { echo "no line \"$2\" in:"; cat -A "$1" | tail -8; return 1; }
}
check "purge says in a line what it leaves" has_line "$work/purge.log" \
  "dashpilot: configuration removed; the database of recorded shifts stays in /var/lib/dashpilot (owned by the system user dashpilot): delete it with 'rm -r /var/lib/dashpilot' if it is no longer wanted"
check "the configuration is gone, /etc/dashpilot with it" in_container test ! -e /etc/dashpilot
check "dpkg no longer knows the package" bash -c "
  s=\$(nsenter -t $container_pid -a dpkg-query -W -f '\${db:Status-Abbrev}' dashpilot 2>/dev/null || true); [ -z \"\$s\" ] || [ \"\$s\" = 'un ' ]"
check "the enablement is gone" bash -c "[ ! -e '$root/etc/systemd/system/multi-user.target.wants/dashpilotd.service' ] && [ ! -L '$root/etc/systemd/system/multi-user.target.wants/dashpilotd.service' ]"
check "the database stays, every row" expect_equal "$(cat "$work/count-after-remove")" rows
check "the rows of before the removal are among them" every_row_kept

# --- The journal: every start and stop ---
journal_count() {  # journal_count TEXT: dashpilotd journal messages containing TEXT
  in_container journalctl -u dashpilotd -o cat --no-pager | grep -cF -- "$1" || true
}
# Starts: the install, the restart that applied the edit, the upgrade. Stops: that
# restart, the upgrade, the removal.
check "the journal has three starts: install, restart, upgrade" expect_equal "3" journal_count "dashpilotd $version starting"
check "the journal has three clean stops: restart, upgrade, removal" expect_equal "3" journal_count "stopped cleanly"
check "systemd logged three starts" expect_equal "3" \
  bash -c "nsenter -t $container_pid -a journalctl -u dashpilotd -o cat --no-pager | grep -cE '^Started (dashpilotd\\.service - )?DashPilot GPS capture daemon' || true"
check "and three stops" expect_equal "3" \
  bash -c "nsenter -t $container_pid -a journalctl -u dashpilotd -o cat --no-pager | grep -cE '^Stopped (dashpilotd\\.service - )?DashPilot GPS capture daemon' || true"
log "package life (install to purge) $(( ($(date +%s%N) - package_started) / 1000000000 )) s"

# --- A box whose database 0.1.0 made (4 KiB pages, AUTOINCREMENT) ---
# The package installed again over such a file: the release converts it while it records,
# and the upgrade's restart puts the copy in its place, every row with it.
old_db=$repo/Fixtures/databases/dashpilot-0.1.0.sqlite
old_count() {  # old_count SQL: a number the 0.1.0 file holds, read on this machine
  python3 -c 'import sqlite3, sys; print(sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute(sys.argv[2]).fetchone()[0])' "$old_db" "$1"
}
old_samples=$(old_count "SELECT count(*) FROM samples")
old_shifts=$(old_count "SELECT count(*) FROM shifts")
check "the 0.1.0 file has 4 KiB pages" expect_equal "4096" old_count "PRAGMA page_size"
rm -f "$root/var/lib/dashpilot/dashpilot.sqlite" "$root/var/lib/dashpilot/dashpilot.sqlite-wal" "$root/var/lib/dashpilot/dashpilot.sqlite-shm"
install -m 0640 "$old_db" "$root/var/lib/dashpilot/dashpilot.sqlite"
in_container chown dashpilot:dashpilot /var/lib/dashpilot/dashpilot.sqlite
check "apt-get install ./$(basename "$deb") on a box holding a 0.1.0 file" bash -c "
  nsenter -t $container_pid -a sh -c 'cd /opt/dashpilot && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./$(basename "$deb")' </dev/null >'$work/install-010.log' 2>&1 ||
    { tail -30 '$work/install-010.log'; exit 1; }"
check "the service runs on it" eventually 30 expect_equal "active" in_container systemctl is-active dashpilotd
check "the release copies it into the current layout while it runs" \
  eventually 90 journal_has "the copy of /var/lib/dashpilot/dashpilot.sqlite holds all $old_samples samples"
check "apt-get install ./$(basename "$upgrade_deb") (the upgrade, over the 0.1.0 file)" bash -c "
  nsenter -t $container_pid -a sh -c 'cd /opt/dashpilot && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./$(basename "$upgrade_deb")' </dev/null >'$work/upgrade-010.log' 2>&1 ||
    { tail -30 '$work/upgrade-010.log'; exit 1; }"
check "the upgrade's restart put the copy in place" eventually 30 journal_has \
  "database /var/lib/dashpilot/dashpilot.sqlite now has the current layout \\(1 KiB pages, no AUTOINCREMENT\\): a copy of all $old_samples samples"
check "the service is running after it" eventually 30 expect_equal "active" in_container systemctl is-active dashpilotd
check "the file has 1 KiB pages" expect_equal "1024" rows "PRAGMA page_size"
check "every shift and sample of the 0.1.0 file is in it" expect_equal "$old_shifts $old_samples" \
  rows "SELECT (SELECT count(*) FROM shifts), (SELECT count(*) FROM samples)"

power_off
finish
