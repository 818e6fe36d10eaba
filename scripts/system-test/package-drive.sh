# The package test's recorded drive and replays; sourced by package.sh in the booted root,
# after the configuration points dashpilotd at gpsd on $port and before shift 2.
#
# 1. A recorded drive: the first 6,000 lines of a real 137 km car drive (../shared/real-logs,
#    a fix every 2 s; its first 6,000 lines are about 20 minutes of it), after 20 s of
#    sentences without a fix, so that dashpilotd is connected and gpsd has opened the
#    receiver before the first fix (gpsd discards what arrives while it opens a device).
#    dashpilotd retries gpsd 1 s doubling to 30 s apart: gpsd on $port appears with gpsfake,
#    about 11 s after the restart that pointed dashpilotd at it, so the retry that finds it
#    comes about 4 s into the play, later on a loaded machine (3 s were once too few). The driver starts shift 1, gpsfake
#    feeds the drive to the root's gpsd, the shift ends when the receiver is gone, and its
#    figure (`shift show 1 --json`) must be the one `dashpilotctl replay` gives of what that
#    gpsd reports for the drive (gpsfake -1 -p): capture through gpsd and replay are one
#    implementation. On Debian 13 it must also be the one the debian13-amd64 build gives
#    of amd64's gpsd (in the build root): the arm64 box measures what the amd64 one does.
# 2. Debian 13: `dashpilotctl replay --json` of every truth fixture (Fixtures/truth) by the
#    installed dashpilotctl is byte-identical to the debian13-amd64 build's, run in the build
#    root.
# Each figure is written to .build/system-test/TARGET/ for the next reader.

drive_dir=$repo/.build/system-test/$target
rm -rf "$drive_dir"
mkdir -p "$drive_dir"
recorded=$shared/real-logs/dotmorten_garmin_car_reno_tahoe.nmea
python3 - "$recorded" "$drive_dir/recorded.nmea" <<'PY'
import sys
def sentence(body):
    c = 0
    for ch in body: c ^= ord(ch)
    return "$%s*%02X" % (body, c)
lines = open(sys.argv[1], encoding="ascii", errors="replace").read().splitlines()[:6000]
# 5,000 sentences without a fix (20 s at gpsfake's 0.004 s a sentence), dated before the drive.
warm = [sentence("GPRMC,2330%02d,V,,,,,,,250905,,,N" % (k % 60)) for k in range(5000)]
open(sys.argv[2], "w").write("\r\n".join(warm + lines) + "\r\n")
PY
install -D -m 0644 "$drive_dir/recorded.nmea" "$root/opt/dashpilot/recorded.nmea"
metres_of() {  # metres_of: the figure in metres of a replay's or a shift's JSON on stdin
  python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d["shift"]["distance"] if "shift" in d else d["distance"]
print("%.1f %d %d" % (d["metres"], d["segments"], d["gaps"]))'
}
# What the root's gpsd makes of the drive, replayed by the installed dashpilotctl.
in_container sh -c 'gpsfake -1 -p -q -c 0.001 /opt/dashpilot/recorded.nmea 2>/dev/null | grep "^{" >/opt/dashpilot/recorded.json'
cp "$root/opt/dashpilot/recorded.json" "$drive_dir/recorded.json"
replayed=$(as_driver dashpilotctl replay /opt/dashpilot/recorded.json --json | metres_of || true)
log "replay of the root's gpsd's JSON of the recorded drive: metres, stretches, gaps: $replayed"
echo "$replayed" >"$drive_dir/replay-figure"
check "the driver starts shift 1" expect_output '^Shift #1 started at ' as_driver dashpilotctl shift start
check "gpsfake feeds the recorded drive to gpsd on port $port" run_unit dashpilot-recorded \
  /usr/local/bin/gpsfake -1 -q -P "$port" -c 0.004 /opt/dashpilot/recorded.nmea
drive_started=$SECONDS
pass_ended() {  # gpsfake ended its single pass, and capture has no session (the receiver went away)
  [ "$(in_container systemctl is-active dashpilot-recorded 2>/dev/null)" != active ] &&
    [ "$(json_value '(s["capture"] or {}).get("session") or ""')" = "" ]
}
check "the drive is played to its end (gpsfake's single pass, the capture session ended)" eventually 400 pass_ended
log "the recorded drive played in $((SECONDS - drive_started)) s"
check "the driver ends shift 1" expect_output '^Shift #1 ended: ' as_driver dashpilotctl shift end
figure=$(as_driver dashpilotctl shift show 1 --json | metres_of || true)
echo "$figure" >"$drive_dir/figure"
log "shift 1's figure (metres, stretches, gaps): $figure"
check "shift 1 records the drive: more than 10 km" python3 -c "import sys; sys.exit(0 if float('${figure%% *}' or 0) > 10000 else 1)"
check "shift 1's figure is the one replay gives of what gpsd reported ($replayed)" expect_equal "$replayed" echo "$figure"

if [ "$release" != debian12 ]; then
  # The debian13-amd64 build (made by `make debs` or the debian13-amd64 package test, else now).
  amd64_bin=$("$repo/scripts/targets/build.sh" debian13-amd64 dashpilotctl 2>"$work/amd64-build.log" | tail -1)
  check "the debian13-amd64 build's dashpilotctl is there" test -x "$amd64_bin/dashpilotctl"
  in_target sh -c 'gpsfake -1 -p -q -c 0.001 "$1" 2>/dev/null | grep "^{" >"$2"' sh "$drive_dir/recorded.nmea" "$drive_dir/recorded-amd64.json"
  amd64_figure=$(in_target "$amd64_bin/dashpilotctl" replay "$drive_dir/recorded-amd64.json" --json | metres_of || true)
  same_fixes() {  # the two gpsds' TPV reports of the drive, but for the pseudo-terminals' names
    diff <(grep '"class":"TPV"' "$drive_dir/recorded.json" | sed 's|"device":"[^"]*",||') \
      <(grep '"class":"TPV"' "$drive_dir/recorded-amd64.json" | sed 's|"device":"[^"]*",||') | head -6
    [ "${PIPESTATUS[0]}" -eq 0 ]
  }
  check "amd64's gpsd reports the drive's fixes as this root's gpsd does (every TPV)" same_fixes
  check "shift 1's figure is the one the amd64 build gives ($amd64_figure)" expect_equal "$amd64_figure" echo "$figure"

  # Every truth fixture, replayed here and by the amd64 build in the build root.
  mkdir -p "$root/opt/dashpilot/truth" "$drive_dir/replay-$target" "$drive_dir/replay-amd64"
  mapfile -t fixtures < <(cd "$repo/Fixtures/truth" && ls -- *.json | grep -v '\.expected\.json$')
  cp "${fixtures[@]/#/$repo/Fixtures/truth/}" "$root/opt/dashpilot/truth/"
  replay_started=$SECONDS
  for fixture in "${fixtures[@]}"; do
    in_container dashpilotctl replay "/opt/dashpilot/truth/$fixture" --json >"$drive_dir/replay-$target/$fixture" 2>&1 || true
    in_target "$amd64_bin/dashpilotctl" replay "$repo/Fixtures/truth/$fixture" --json >"$drive_dir/replay-amd64/$fixture" 2>&1 || true
  done
  log "${#fixtures[@]} truth fixtures replayed here and by the amd64 build in $((SECONDS - replay_started)) s"
  replays_identical() {
    local fixture differ=0
    for fixture in "${fixtures[@]}"; do
      grep -q '"distance":' "$drive_dir/replay-amd64/$fixture" || { echo "$fixture: no figure from the amd64 build"; differ=1; }
      cmp -s "$drive_dir/replay-$target/$fixture" "$drive_dir/replay-amd64/$fixture" ||
        { echo "$fixture differs:"; diff "$drive_dir/replay-amd64/$fixture" "$drive_dir/replay-$target/$fixture" | head -4; differ=1; }
    done
    return $differ
  }
  check "replay --json of the ${#fixtures[@]} truth fixtures is byte-identical to the amd64 build's" replays_identical
fi
in_container systemctl stop dashpilot-recorded 2>/dev/null || true
