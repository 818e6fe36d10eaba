#!/usr/bin/env bash
# The system test: boots a minimal Debian 12 under systemd-nspawn, installs dashpilotd's
# static binaries, unit, sysusers, tmpfiles and configuration into it with
# `make install DESTDIR=...`, starts gpsd fed by gpsfake on a private port, and checks
# the daemon against a real systemd: start (READY=1), dashpilotctl status, the journal,
# a shift recorded through gpsfake (a capture session, its journal lines, a new session
# after a restart), restart, a clean stop; then a start on a year of shifts (250 working
# days of 8 h at 1 Hz, scripts/history), which must reach active within the unit's
# TimeoutStartSec. Ends with "N passed, M failed" and a non-zero status on failure.
#
# The Debian root is debootstrapped once and cached outside the repository, keyed by
# its package list (DASHPILOT_SYSTEMTEST_CACHE, default /var/cache/dashpilot-systemtest);
# each run boots a throwaway overlay (or copy) of it, so runs never see each other.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=${DASHPILOT_SHARED:-$repo/../shared}
test_name=system-test
# shellcheck source=scripts/system-test/lib.sh
. "$repo/scripts/system-test/lib.sh"
# gpsfake itself comes from the host's gpsd-clients (whose GTK dependencies do not
# configure under debootstrap); python3-gps and python3-distutils are what it imports.
# libcurl4 (dashpilotd's routing client), libmosquitto1 (its fleet uplink) and libxml2
# (the GPX reader of dashpilotctl, also dashpilot-route-reader) are what the static
# binaries still load from the box. man-db lets
# systemd-analyze verify find the manual pages the unit's Documentation= names.
packages="systemd,dbus,gpsd,python3-gps,python3-distutils,libinih1,libsqlite3-0,libstdc++6,libcurl4,libxml2,libmosquitto1,man-db"
fixture=${DASHPILOT_SYSTEMTEST_LOG:-$shared/gpsd-logs/bu303-moving.log}
version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$repo/Sources/DashPilotCore/Version.swift")
version_pattern=${version//./\\.}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, systemd-nspawn, nsenter)"
for tool in debootstrap systemd-nspawn nsenter; do
  command -v "$tool" >/dev/null || die "$tool is missing (make deps installs systemd-container and debootstrap)"
done
[ -r "$fixture" ] || die "the gpsd log $fixture is not there (set DASHPILOT_SHARED)"
[ -x /usr/bin/gpsfake ] || die "the host has no /usr/bin/gpsfake (gpsd-clients)"

# --- The cached Debian root, and a throwaway overlay of it for this run -----------------
cached_root "$packages"
root=$work/root
overlay_root "$root"

# --- Install into it, as a packager would -----------------------------------------------
log "make install DESTDIR=$root"
make -C "$repo" --no-print-directory install DESTDIR="$root" PREFIX=/usr/local >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; die "make install failed"; }
port=$(( 40000 + RANDOM % 20000 ))
# Shifts by hand: this test follows one shift's life through systemd (hands-free shifts,
# the shipped Start=movement, have end-to-end tests of their own: DaemonHandsFreeShiftTests).
sed -i "s|^#Address=localhost:2947|Address=127.0.0.1:$port|; s|^Start=movement|Start=manual|" "$root/etc/dashpilot/dashpilot.conf"
grep -q "^Address=127.0.0.1:$port" "$root/etc/dashpilot/dashpilot.conf" || die "could not point the configuration at gpsd"
prepare_for_boot "$root"
# A year of 1 Hz shifts for the start-up check at the end (250 working days of 8 h, written
# through the store's own code by scripts/history), made outside the container once and
# cached beside the Debian root. DASHPILOT_SYSTEMTEST_HISTORY gives make-history.sh other
# options (the issue's longer histories: "--shifts 375" for 18 months, "--rate 2").
history_options=${DASHPILOT_SYSTEMTEST_HISTORY:---rate 1 --shifts 250 --hours 8 --seed 1}
history=${DASHPILOT_SYSTEMTEST_HISTORY:+the history of shifts}
history=${history:-a year of shifts}
log "a history of shifts ($history_options; scripts/history/make-history.sh, cached in $cache)"
# shellcheck disable=SC2086 # the options are words
DASHPILOT_HISTORY_CACHE=$cache "$repo/scripts/history/make-history.sh" --file "$work/year.sqlite" \
  $history_options --json >"$work/history.json" 2>"$work/history.log" \
  || { cat "$work/history.log" "$work/history.json"; die "could not write the history of shifts"; }
history_fact() { python3 -c "import json, sys; h = json.load(open(sys.argv[1])); print($1)" "$work/history.json"; }
newest_shift=$(history_fact 'h["counts"]["lastShiftID"]')
log "the history: $(history_fact '"%d shifts, %d samples, %d MB, written in %.1f s on %s" % (h["counts"]["shifts"],
  h["counts"]["samples"], h["bytes"] / 1e6, h["seconds"], h["generatedOn"])')"
install -D -m 0755 /usr/bin/gpsfake "$root/usr/local/bin/gpsfake"
install -D -m 0644 "$fixture" "$root/opt/dashpilot/fixture.log"

# --- Boot ---------------------------------------------------------------------------
boot "$root"

# --- Checks ---------------------------------------------------------------------------
main_pid() { in_container systemctl show -p MainPID --value dashpilotd; }
# The capture session status reports (empty while there is none).
capture_session() {
  in_container dashpilotctl status --json 2>/dev/null | python3 -c '
import json, sys
print((json.load(sys.stdin).get("capture") or {}).get("session") or "")' 2>/dev/null || true
}
# wait_for_session [NOT]: waits up to 30 s for a capture session other than NOT; prints it.
wait_for_session() {
  local session=""
  for _ in $(seq 1 150); do
    session=$(capture_session)
    [ -n "$session" ] && [ "$session" != "${1:-}" ] && { echo "$session"; return 0; }
    sleep 0.2
  done
  return 1
}

check "the boot reaches running" bash -c "[ '$state' = running ] || { nsenter -t $container_pid -a systemctl --failed --no-pager; exit 1; }"
check "sysusers made the dashpilot user" expect_output '^dashpilot:' in_container getent passwd dashpilot
check "systemd-analyze verify is clean" expect_output '^$' in_container systemd-analyze verify /usr/local/lib/systemd/system/dashpilotd.service
check "gpsfake starts gpsd on port $port" in_container systemd-run --quiet --unit=dashpilot-gpsfake \
  /usr/local/bin/gpsfake -q -P "$port" -c 0.5 /opt/dashpilot/fixture.log
check "gpsd answers on port $port" in_container timeout 20 bash -c \
  "until (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do sleep 0.2; done"

check "systemctl start dashpilotd returns once READY=1" in_container timeout 40 systemctl start dashpilotd
check "dashpilotd is active" expect_output '^active$' in_container systemctl is-active dashpilotd
check "its STATUS= line says where it answers" expect_output '^StatusText=Answering on /run/dashpilot/control.sock' \
  in_container systemctl show -p StatusText dashpilotd
check "the socket is 0660 dashpilot:dashpilot" expect_output '^660 dashpilot dashpilot socket$' \
  in_container stat -c '%a %U %G %F' /run/dashpilot/control.sock
check "dashpilotctl status answers" expect_output "^dashpilotd +$version_pattern · running" in_container dashpilotctl status
first_pid=$(main_pid)
check "status --json reports the unit's MainPID" expect_output "\"pid\" : $first_pid," in_container dashpilotctl status --json
check "status --json reads gpsd from the configuration" expect_output "\"address\" : \"127.0.0.1:$port\"" \
  in_container dashpilotctl status --json
check "dashpilotctl shift start opens shift 1" expect_output '^Shift #1 started at ' in_container dashpilotctl shift start
first_session=$(wait_for_session || true)
check "status shows a capture session once gpsfake's fixes flow" test -n "$first_session"
# The live figure is measured from stored rows: a kept fix shows once its batch is written.
check "status shows the open shift's live figure from stored rows" eventually 20 expect_output '"usable_positions" : [1-9]' \
  in_container dashpilotctl status --json
check "the journal has the shift start line" journal_has '"DASHPILOT_SHIFT":"1".*"MESSAGE":"shift 1 started; capture is on"|"MESSAGE":"shift 1 started; capture is on".*"DASHPILOT_SHIFT":"1"'
check "the journal has the session start line with its session field" \
  journal_has "\"MESSAGE\":\"capture session $first_session started for shift 1: fixes started flowing[^\"]*\".*\"DASHPILOT_SESSION\":\"$first_session\"|\"DASHPILOT_SESSION\":\"$first_session\".*\"MESSAGE\":\"capture session $first_session started for shift 1"
check "the journal has the gpsd connection line" journal_has "\"MESSAGE\":\"connected to gpsd at 127.0.0.1:$port\""
check "a user outside the group is told which group to join (exit 3)" bash -c "
  out=\$(nsenter -t $container_pid -a runuser -u nobody -- dashpilotctl status 2>&1); rc=\$?
  echo \"\$out\"; [ \$rc -eq 3 ] && grep -q 'join the group dashpilot' <<<\"\$out\""
check "the journal has the start line with its priority" journal_has "\"MESSAGE\":\"dashpilotd $version_pattern starting[^\"]*configuration /etc/dashpilot/dashpilot\\.conf"
check "the journal has the ready line from sd_journal_sendv" journal_has '"PRIORITY":"5".*"MESSAGE":"ready: answering on /run/dashpilot/control.sock|"MESSAGE":"ready: answering on /run/dashpilot/control.sock.*"PRIORITY":"5"'

check "the unit arms a 30 s watchdog" expect_output '^WatchdogUSec=30s$' in_container systemctl show -p WatchdogUSec dashpilotd
# A 2 s watchdog for the rest of the run: the daemon must keep feeding it.
mkdir -p "$root/etc/systemd/system/dashpilotd.service.d"
printf '[Service]\nWatchdogSec=2s\n' >"$root/etc/systemd/system/dashpilotd.service.d/50-system-test-watchdog.conf"
in_container systemctl daemon-reload
check "systemctl restart dashpilotd" in_container timeout 40 systemctl restart dashpilotd
second_pid=$(main_pid)
sleep 5
check "a 2 s watchdog was fed for 5 s: same process, still active" bash -c "
  [ \"\$(nsenter -t $container_pid -a systemctl show -p MainPID --value dashpilotd)\" = '$second_pid' ] &&
  [ \"\$(nsenter -t $container_pid -a systemctl is-active dashpilotd)\" = active ]"
check "the restart made a new process" test "$second_pid" != "$first_pid" -a "$second_pid" != 0
check "status answers after the restart" expect_output "\"pid\" : $second_pid," in_container dashpilotctl status --json
second_session=$(wait_for_session "$first_session" || true)
check "the restart gives a new capture session" test -n "$second_session" -a "$second_session" != "$first_session"
check "the journal ends the first session: daemon stopping" \
  journal_has "\"MESSAGE\":\"capture session $first_session of shift 1 ended: capture stopped: daemon stopping\""
check "the journal says capture resumes for the open shift" \
  journal_has '"MESSAGE":"shift 1 is still open: capture resumes in a new session"'
check "the journal has the new session's start line" \
  journal_has "\"MESSAGE\":\"capture session $second_session started for shift 1"
check "the watchdog is armed at 2 s by the drop-in" expect_output '^WatchdogUSec=2s$' \
  in_container systemctl show -p WatchdogUSec dashpilotd
check "systemd never had to restart it" expect_output '^NRestarts=0$' in_container systemctl show -p NRestarts dashpilotd

check "systemctl stop dashpilotd" in_container timeout 30 systemctl stop dashpilotd
check "it stopped with status 0" expect_output '^ExecMainStatus=0$' in_container systemctl show -p ExecMainStatus dashpilotd
check "its result is success" expect_output '^Result=success$' in_container systemctl show -p Result dashpilotd
check "the journal has the SIGTERM line with its reason field" journal_has '"DASHPILOT_REASON":"sigterm"'
check "the journal has the clean stop line" journal_has '"MESSAGE":"stopped cleanly"'
check "the stop ended the second session" \
  journal_has "\"MESSAGE\":\"capture session $second_session of shift 1 ended: capture stopped: daemon stopping\""
check "the socket was removed" in_container test ! -e /run/dashpilot/control.sock
check "dashpilotctl now says how to start it (exit 3)" bash -c "
  out=\$(nsenter -t $container_pid -a dashpilotctl status 2>&1); rc=\$?
  echo \"\$out\"; [ \$rc -eq 3 ] && grep -q 'sudo systemctl start dashpilotd' <<<\"\$out\""

# --- A year on the box ------------------------------------------------------------------
# The unit on a file holding a year of shifts, as the unit ships (the 2 s watchdog drop-in
# removed): it must reach active within its own start limit, or systemd kills the start
# and the box never records again. The file is owned by the service user and its pages are
# dropped from the page cache first (a per-file cold cache: the start reads it from the disk).
rm -f "$root/etc/systemd/system/dashpilotd.service.d/50-system-test-watchdog.conf"
in_container systemctl daemon-reload
start_limit=$(in_container systemctl show -p TimeoutStartUSec --value dashpilotd)
rm -f "$root/var/lib/dashpilot/dashpilot.sqlite" "$root/var/lib/dashpilot/dashpilot.sqlite-wal" \
  "$root/var/lib/dashpilot/dashpilot.sqlite-shm"
cp "$work/year.sqlite" "$root/var/lib/dashpilot/dashpilot.sqlite"
in_container chown dashpilot:dashpilot /var/lib/dashpilot/dashpilot.sqlite
in_container chmod 0640 /var/lib/dashpilot/dashpilot.sqlite
sync
python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' \
  "$root/var/lib/dashpilot/dashpilot.sqlite"
log "its file: $(du -m "$root/var/lib/dashpilot/dashpilot.sqlite" | cut -f1) MB, \
$(fincore --noheadings --output RES "$root/var/lib/dashpilot/dashpilot.sqlite" 2>/dev/null || echo '?') of it in the page cache"
year_started=$(date +%s%N)
check "on $history, systemctl start returns once READY=1 (TimeoutStartSec=$start_limit)" \
  in_container timeout 120 systemctl start dashpilotd
year_ms=$(( ($(date +%s%N) - year_started) / 1000000 ))
log "systemctl start dashpilotd on $history took $((year_ms / 1000)).$(printf '%03d' $((year_ms % 1000))) s (TimeoutStartSec=$start_limit)"
check "dashpilotd is active on $history" expect_output '^active$' in_container systemctl is-active dashpilotd
check "systemd did not time its start out (Result=success)" expect_output '^Result=success$' \
  in_container systemctl show -p Result dashpilotd
check "dashpilotctl shifts lists its newest shift" expect_output "^ *#$newest_shift " \
  in_container dashpilotctl shifts --limit 1
check "systemctl stop dashpilotd on $history" in_container timeout 30 systemctl stop dashpilotd

power_off
finish
