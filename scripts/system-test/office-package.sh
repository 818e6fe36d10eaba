#!/usr/bin/env bash
# The office's package (dashpilot-office) in its own system test.
#
# 1. `make deb-office`, checked on the host: file name and fields, Depends against what
#    the binary really loads (readelf, ldd, dpkg -S), the conffile, the file list and
#    modes, the maintainer scripts against debhelper's own autoscripts, the manual page
#    with man -l, lintian.
# 2. In a booted Debian 12 (systemd-nspawn) with a local PostgreSQL 15 + PostGIS and a
#    mosquitto, on ports of the test's own (the container shares the host's loopback):
#    apt-get install with the dependencies from Debian; the unit enabled, running, ready,
#    and waiting for a database not set up yet (saying so); then the role, the database
#    and PostGIS made as dashpilot-officed(8) says, and it ingests what a box publishes
#    (mosquitto_pub of the contract page's payloads): samples, a shift, a refusal kept in
#    `rejected`; `status` as the service's user; a restart; remove stops it, purge removes
#    the configuration and says the database stays.
# Ends with "office-package-test: N passed, M failed" and a non-zero status on failure.
# Needs root, debootstrap, systemd-nspawn, nsenter and lintian: under CI (CI=true) a
# missing one is a failure, elsewhere a skip that names it. The root is cached as
# run.sh's are.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
test_name=office-package-test
SWIFT=${SWIFT:-swift}

missing=()
[ "$(id -u)" -eq 0 ] || missing+=("root")
for tool in debootstrap systemd-nspawn nsenter lintian dpkg-deb readelf; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "office-package-test: FAILED: needs ${missing[*]} (make deps installs scripts/deps/*.txt)" >&2
    exit 1
  fi
  echo "office-package-test: SKIPPED: needs ${missing[*]} (make deps installs scripts/deps/*.txt)"
  exit 0
fi

# shellcheck source=scripts/system-test/lib.sh
. "$repo/scripts/system-test/lib.sh"
# shellcheck source=scripts/system-test/deb-checks.sh
. "$repo/scripts/system-test/deb-checks.sh"

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$repo/Sources/DashPilotCore/Version.swift")
arch=$(dpkg --print-architecture)
# PostgreSQL 15 with PostGIS and mosquitto as an office runs them; man-db for the page.
packages="systemd,dbus,postgresql-15,postgresql-15-postgis-3,mosquitto,mosquitto-clients,man-db"

# --- 1. Build, and check the package itself -------------------------------------------
if [ -n "${DASHPILOT_OFFICE_DEB:-}" ]; then
  deb=$(readlink -f "$DASHPILOT_OFFICE_DEB")
else
  log "make deb-office"
  make -C "$repo" --no-print-directory deb-office SWIFT="$SWIFT" >"$work/deb.log" 2>&1 ||
    { cat "$work/deb.log"; die "make deb-office failed"; }
  deb=$(tail -1 "$work/deb.log")
fi
log "built $deb ($(du -k "$deb" | cut -f1) KiB)"
check "make deb-office's last line is .build/deb/dashpilot-office_${version}_$arch.deb" \
  test "$deb" = "$repo/.build/deb/dashpilot-office_${version}_$arch.deb" -a -f "$deb"
check "Package, Version, Architecture" expect_equal "dashpilot-office $version $arch" \
  bash -c "echo \$(dpkg-deb -f '$deb' Package Version Architecture | cut -d' ' -f2)"
check "Recommends: PostGIS for PostgreSQL 15" expect_equal "postgresql-15-postgis-3 | postgresql-postgis" \
  dpkg-deb -f "$deb" Recommends
mkdir -p "$work/extracted"
dpkg-deb -x "$deb" "$work/extracted"
check "Depends is exactly the packages of what the binary loads and systemd-sysusers" deb_depends_check "$deb" \
  "systemd | systemd-standalone-sysusers | systemd-sysusers" "$work/extracted/usr/sbin/dashpilot-officed"
log "$(dpkg-deb -f "$deb" Depends | sed 's/^/Depends: /')"
check "libpq5 is among them" expect_output 'libpq5' dpkg-deb -f "$deb" Depends
check "the conffile is /etc/dashpilot/officed.conf" expect_equal "/etc/dashpilot/officed.conf" \
  bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./conffiles"
expected_files="-rw-r--r-- root/root ./etc/dashpilot/officed.conf
-rw-r--r-- root/root ./usr/lib/systemd/system/dashpilot-officed.service
-rw-r--r-- root/root ./usr/lib/sysusers.d/dashpilot-office.conf
-rwxr-xr-x root/root ./usr/sbin/dashpilot-officed
-rw-r--r-- root/root ./usr/share/doc/dashpilot-office/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/dashpilot-office/copyright
-rw-r--r-- root/root ./usr/share/doc/dashpilot-office/dashpilot-office.qgs
-rw-r--r-- root/root ./usr/share/doc/dashpilot-office/office.md.gz
-rw-r--r-- root/root ./usr/share/man/man8/dashpilot-officed.8.gz"
check "the files, their modes and owners" expect_equal "$expected_files" \
  bash -c "dpkg-deb -c '$deb' | grep -v '^d' | awk '{ print \$1, \$2, \$6 }' | sort -k3"
check "man -l renders the page without a warning" bash -c "
  out=\$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 '$work/extracted/usr/share/man/man8/dashpilot-officed.8.gz' 2>&1 >/dev/null)
  [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
if [ -d /usr/share/debhelper/autoscripts ]; then
  check "the maintainer scripts carry debhelper 13's sysusers and systemd blocks" deb_autoscripts_check "$deb" \
    dashpilot-officed.service dashpilot-office.conf postinst:postinst-sysusers postinst:postinst-systemd-enable \
    postinst:postinst-systemd-restart prerm:prerm-systemd-restart postrm:postrm-systemd postrm:postrm-systemd-reload-only
elif [ "${CI:-}" = true ]; then
  check "debhelper is installed (for its autoscripts)" false
else
  log "SKIP - the maintainer scripts against debhelper's autoscripts: needs debhelper"
fi
check "lintian: no error, no warning, only the tags scripts/deb/office/lintian-accepted explains" \
  deb_lintian_check "$deb" "$repo/scripts/deb/office/lintian-accepted"

cached_root "$packages"

# --- 2. A booted Debian 12 with PostgreSQL and mosquitto ---------------------------------
root=$work/boot
overlay_root "$root"
prepare_for_boot "$root"
pg_port=$(( 40000 + RANDOM % 10000 ))
mqtt_port=$(( 50000 + RANDOM % 10000 ))
sed -i "s/^port = .*/port = $pg_port/" "$root"/etc/postgresql/15/main/postgresql.conf
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n' "$mqtt_port" \
  >"$root/etc/mosquitto/conf.d/office.conf"
install -D -m 0644 "$deb" "$root/opt/dashpilot/$(basename "$deb")"
boot "$root"
check "the boot reaches running" bash -c "[ '$state' = running ] || { nsenter -t $container_pid -a systemctl --failed --no-pager; exit 1; }"
check "PostgreSQL is up on port $pg_port" eventually 30 in_container runuser -u postgres -- psql -p "$pg_port" -Atc 'SELECT 1'
check "mosquitto is up on port $mqtt_port" eventually 30 in_container timeout 5 mosquitto_sub -p "$mqtt_port" -t probe -W 1 -C 1 -E

log "apt-get update in the container"
in_container apt-get update -qq >"$work/update.log" 2>&1 || { cat "$work/update.log"; die "apt-get update failed"; }
check "apt-get install ./$(basename "$deb") (dependencies from Debian)" bash -c "
  nsenter -t $container_pid -a sh -c 'cd /opt/dashpilot && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./$(basename "$deb")' </dev/null >'$work/install.log' 2>&1 ||
    { tail -30 '$work/install.log'; exit 1; }"
check "the dashpilot-office user, made by systemd-sysusers" \
  expect_output '^dashpilot-office:x:[0-9]+:[0-9]+:DashPilot office:/:/usr/sbin/nologin$' in_container getent passwd dashpilot-office
check "the service is enabled" expect_equal "enabled" in_container systemctl is-enabled dashpilot-officed
check "systemd-analyze verify of the installed unit is clean" expect_equal "" \
  in_container systemd-analyze verify /usr/lib/systemd/system/dashpilot-officed.service
check "before its database exists it runs and says it waits for it" eventually 30 expect_output \
  '^StatusText=waiting for PostgreSQL: ' in_container systemctl show -p StatusText dashpilot-officed
check "and it is active" expect_equal "active" in_container systemctl is-active dashpilot-officed
check "man dashpilot-officed finds the installed page" expect_equal "/usr/share/man/man8/dashpilot-officed.8.gz" \
  in_container man -w dashpilot-officed

# The database as dashpilot-officed(8) sets it up; the configuration edited for the ports.
psql_admin() { in_container runuser -u postgres -- psql -p "$pg_port" -v ON_ERROR_STOP=1 -Atq "$@"; }
check "createuser, createdb and PostGIS as the page says" bash -c "
  nsenter -t $container_pid -a runuser -u postgres -- createuser -p $pg_port dashpilot-office &&
  nsenter -t $container_pid -a runuser -u postgres -- createdb -p $pg_port -O dashpilot-office dashpilot &&
  nsenter -t $container_pid -a runuser -u postgres -- psql -p $pg_port -d dashpilot -c 'CREATE EXTENSION postgis' >/dev/null"
conf=$root/etc/dashpilot/officed.conf
sed -i "s|^#Port=1883|Port=$mqtt_port|; s|^#Connection=dbname=dashpilot|Connection=dbname=dashpilot port=$pg_port|" "$conf"
check "the configuration is edited (two keys)" expect_equal "2" \
  bash -c "grep -cE '^(Port=$mqtt_port|Connection=dbname=dashpilot port=$pg_port)$' '$conf'"
check "systemctl restart dashpilot-officed applies it" in_container timeout 60 systemctl restart dashpilot-officed
check "its two workers are connected (journal)" eventually 60 bash -c "
  [ \$(nsenter -t $container_pid -a journalctl -u dashpilot-officed -o cat --no-pager | grep -c 'info: connected to the broker') -ge 2 ]"
check "and it says it stores" eventually 30 expect_output '^StatusText=2 workers storing into PostgreSQL' \
  in_container systemctl show -p StatusText dashpilot-officed
check "the schema was made: version 1" expect_equal "1" psql_admin -d dashpilot -c 'SELECT max(version) FROM office_schema'

# A box's messages, as the contract page shows them.
payload() { python3 - "$repo/docs/uplink-messages.md" "$1" <<'PY'
import sys
schema = '"schema":"%s"' % sys.argv[2]
block = False
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("```"):
        block = line == "```json"
    elif block and schema in line:
        print(line)
        break
PY
}
check "a box publishes samples, its shift and garbage" bash -c "
  nsenter -t $container_pid -a mosquitto_pub -p $mqtt_port -q 1 -t dashpilot/van-7/samples -m '$(payload dashpilot.samples/1)' &&
  nsenter -t $container_pid -a mosquitto_pub -p $mqtt_port -q 1 -t dashpilot/van-7/shift -m '$(payload dashpilot.shift/1)' &&
  nsenter -t $container_pid -a mosquitto_pub -p $mqtt_port -q 1 -t dashpilot/van-7/samples -m 'not json'"
check "the samples are stored, once each" eventually 30 expect_equal "2" psql_admin -d dashpilot -c 'SELECT count(*) FROM samples'
check "the shift with the box's figure" eventually 30 expect_equal "42|19956.3|12.4 mi recorded · partial route" \
  psql_admin -d dashpilot -c 'SELECT shift, metres, summary FROM shifts'
check "the garbage kept in rejected, with its reason" eventually 30 expect_equal "not_json|the payload is not JSON" \
  psql_admin -d dashpilot -c 'SELECT code, reason FROM rejected'
check "the same samples again change nothing" bash -c "
  nsenter -t $container_pid -a mosquitto_pub -p $mqtt_port -q 1 -t dashpilot/van-7/samples -m '$(payload dashpilot.samples/1)' && sleep 2 &&
  [ \$(nsenter -t $container_pid -a runuser -u postgres -- psql -p $pg_port -d dashpilot -Atc 'SELECT count(*) FROM ledger') = 2 ]"
check "status as the service's user" expect_output '^rejected: 1 \(not_json 1\)' \
  in_container runuser -u dashpilot-office -- dashpilot-officed status --config /etc/dashpilot/officed.conf
check "the journal logged the refusal" bash -c "
  nsenter -t $container_pid -a journalctl -u dashpilot-officed -o cat --no-pager | grep -q 'warning: rejected 1 message (not_json 1)'"

# --- Remove and purge ---
check "apt-get remove dashpilot-office" bash -c "
  nsenter -t $container_pid -a env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q dashpilot-office </dev/null >'$work/remove.log' 2>&1 ||
    { tail -30 '$work/remove.log'; exit 1; }"
check "the service is stopped" expect_equal "inactive" bash -c "nsenter -t $container_pid -a systemctl is-active dashpilot-officed || true"
check "its journal ends with a clean stop" bash -c "
  nsenter -t $container_pid -a journalctl -u dashpilot-officed -o cat --no-pager | grep -q 'dashpilot-officed: info: stopped'"
check "the database is kept" expect_equal "2" psql_admin -d dashpilot -c 'SELECT count(*) FROM samples'
check "apt-get purge dashpilot-office" bash -c "
  nsenter -t $container_pid -a env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q dashpilot-office </dev/null >'$work/purge.log' 2>&1 ||
    { tail -30 '$work/purge.log'; exit 1; }"
check "purge says the database stays" bash -c "tr -d '\r' <'$work/purge.log' | grep -qF \"dashpilot-office: configuration removed; the office's database in PostgreSQL is kept\""
check "the configuration is gone" in_container test ! -e /etc/dashpilot/officed.conf
power_off
finish
