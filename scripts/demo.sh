#!/usr/bin/env bash
# `make demo`: a live shift on this machine in about a minute, nothing installed system-wide
# but the Debian packages the project lists (scripts/install-deps.sh).
#
# It builds dashpilotd and dashpilotctl, starts a private gpsd fed by gpsfake with a
# recorded drive (Fixtures/drives/city-drive.nmea, its times moved to today so the shift's
# window and the drive agree), runs dashpilotd unprivileged with every path in a temporary
# directory with `[Shift] Start=movement` (as a box ships), follows a route when this build
# can load one, and shows `dashpilotctl status` every 2 s until the drive ends. Nobody
# starts a shift: it opens by itself when the car drives off. Once the drive is over the
# demo ends that shift (on a box it would end by itself 45 min after the last move), prints
# what `shift show` says of it and writes its picture (`dashpilotctl report`, with the route
# when one was loaded) where it outlives the demo, and says where. Every process it started
# is stopped on exit, however it exits.
#
#   DASHPILOT_DEMO_DRIVE   the drive to play (default Fixtures/drives/city-drive.nmea)
#   DASHPILOT_DEMO_CYCLE   gpsfake's seconds per sentence (default 0.006: about 55 s)
#   DASHPILOT_DEMO_REPORT  where the shift's report goes (default .build/demo/shift-ID.svg)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
drive=${DASHPILOT_DEMO_DRIVE:-$repo/Fixtures/drives/city-drive.nmea}
cycle=${DASHPILOT_DEMO_CYCLE:-0.006}
say() { printf '\n== %s\n' "$*"; }

say "installing what the demo needs (only packages that are missing)"
"$repo/scripts/install-deps.sh"
say "building dashpilotd and dashpilotctl"
(cd "$repo" && swift build --product dashpilotd >/dev/null && swift build --product dashpilotctl >/dev/null)
bin=$(cd "$repo" && swift build --show-bin-path)

work=$(mktemp -d /tmp/dashpilot-demo.XXXXXX)
chmod 0755 "$work"
daemon_pid=""
gpsfake_pid=""
cleanup() {
  set +e
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  # gpsfake and the gpsd it started are a process group of their own (setsid).
  [ -n "$gpsfake_pid" ] && kill -KILL -- "-$gpsfake_pid" 2>/dev/null && wait "$gpsfake_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The drive with its times moved so that it starts now, after two seconds (of playing) of
# "no fix yet" (gpsd settles on a new device meanwhile, and the daemon connects).
python3 - "$drive" "$work/drive.nmea" "$cycle" <<'PY'
import datetime, sys
source, target, cycle = sys.argv[1], sys.argv[2], float(sys.argv[3])
lines = [l.strip() for l in open(source) if l.startswith("$")]
def when(fields, date=None):
    t = fields[1]
    d = date or "010100"
    return datetime.datetime.strptime(d + t[:6], "%d%m%y%H%M%S")
first_date = next(l.split(",")[9] for l in lines if l[3:6] == "RMC")
first = when(lines[0].split(","), first_date)
padding = int(2.0 / cycle / 3)
start = datetime.datetime.utcnow().replace(microsecond=0)
offset = start - first
def checksum(body):
    c = 0
    for ch in body: c ^= ord(ch)
    return "$%s*%02X" % (body, c)
def shifted(line, date):
    body = line[1:line.index("*")]
    f = body.split(",")
    kind = f[0][2:]
    if kind in ("RMC", "GGA", "GST") and f[1]:
        t = when(f, date) + offset
        f[1] = t.strftime("%H%M%S") + f[1][6:]
        if kind == "RMC":
            f[9] = t.strftime("%d%m%y")
    return checksum(",".join(f))
out = []
for second in range(padding, 0, -1):
    t = start - datetime.timedelta(seconds=second)
    hms, dmy = t.strftime("%H%M%S") + ".00", t.strftime("%d%m%y")
    out += [checksum("GPRMC,%s,V,,,,,,,%s,,,N" % (hms, dmy)), checksum("GPGGA,%s,,,,,0,00,99.9,,,,,," % hms),
            checksum("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9")]
date = first_date
for line in lines:
    f = line.split(",")
    if f[0].endswith("RMC"): date = f[9]
    out.append(shifted(line, date))
open(target, "w").write("\r\n".join(out) + "\r\n")
PY

# A route along the drive, for builds that can follow one.
python3 - "${drive%.nmea}.json" "$work/route.geojson" <<'PY'
import json, sys
points = []
for line in open(sys.argv[1]):
    try: o = json.loads(line)
    except ValueError: continue
    if o.get("class") == "TPV" and "lat" in o:
        points.append([round(o["lon"], 6), round(o["lat"], 6)])
route = {"type": "Feature", "properties": {"name": "demo route"},
         "geometry": {"type": "LineString", "coordinates": points[::10] + points[-1:]}}
json.dump(route, open(sys.argv[2], "w"))
PY

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/dashpilot.conf" <<CONF
# The demo's configuration: every path in $work.
[GPSD]
Address=127.0.0.1:$port
[Store]
Database=$work/dashpilot.sqlite
[Control]
Socket=$work/control.sock
[Shift]
Start=movement
CONF

run_as=()
if [ "$(id -u)" -eq 0 ]; then
  # Unprivileged even when the demo is run as root.
  chown nobody "$work"
  run_as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --inh-caps=-all)
fi
say "starting dashpilotd ${run_as:+as nobody }(configuration $work/dashpilot.conf)"
"${run_as[@]}" "$bin/dashpilotd" --config "$work/dashpilot.conf" 2>"$work/dashpilotd.log" &
daemon_pid=$!
ctl() { "$bin/dashpilotctl" --socket "$work/control.sock" "$@"; }
for _ in $(seq 1 100); do [ -S "$work/control.sock" ] && break; sleep 0.1; done
[ -S "$work/control.sock" ] || { cat "$work/dashpilotd.log"; echo "dashpilotd did not start"; exit 1; }

say "no shift yet: it starts when the car drives off"
ctl status
say "dashpilotctl route load (a route along the drive)"
route_loaded=0
if ! route_output=$(ctl route load "$work/route.geojson" --mode driving 2>&1); then
  echo "skipped: $route_output"
else
  echo "$route_output"
  route_loaded=1
fi

say "gpsfake plays $(basename "$drive") into gpsd on port $port"
setsid gpsfake -1 -q -P "$port" -c "$cycle" "$work/drive.nmea" >"$work/gpsfake.log" 2>&1 &
gpsfake_pid=$!

# status --json's capture session, gpsd device and open shift, as "SESSION DEVICE SHIFT"
# ("-" for none).
capture_state() {
  ctl status --json 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)
print((s["capture"].get("session") or "-"), (s["gpsd"].get("device") or "-"), ((s.get("shift") or {}).get("id") or "-"))' 2>/dev/null || echo "- - -"
}
seen_session=0
shift_id=
deadline=$((SECONDS + 240))
while [ $SECONDS -lt $deadline ]; do
  if [ -t 1 ]; then printf '\033[H\033[2J'; else printf '\n---- %s\n' "$(date +%H:%M:%S)"; fi
  ctl status || true
  read -r session device open_shift <<<"$(capture_state)"
  [ "$session" != "-" ] && seen_session=1
  [ -z "$shift_id" ] && [ "$open_shift" != "-" ] && shift_id=$open_shift
  # The drive has ended once gpsd has let the receiver go and the session with it.
  if [ $seen_session -eq 1 ] && [ "$session" = "-" ] && [ "$device" = "-" ]; then break; fi
  kill -0 "$daemon_pid" 2>/dev/null || { cat "$work/dashpilotd.log"; echo "dashpilotd stopped"; exit 1; }
  sleep 2
done

[ -n "$shift_id" ] || { cat "$work/dashpilotd.log"; echo "no shift opened when the car drove off"; exit 1; }
say "the car drove off and shift $shift_id opened by itself:"
grep -F "shift $shift_id started on movement" "$work/dashpilotd.log" || true
say "dashpilotctl shift end (the drive is over; on a box the shift ends 45 min after its last move)"
ctl shift end
say "dashpilotctl shift show $shift_id"
ctl shift show "$shift_id"
say "what dashpilotd wrote to its log (progress along the route left out)"
grep -v ' m along the route, ' "$work/dashpilotd.log" || true

# The picture of the shift, outside $work so that it outlives the demo.
report=${DASHPILOT_DEMO_REPORT:-$repo/.build/demo/shift-$shift_id.svg}
mkdir -p "$(dirname "$report")"
route_args=()
[ $route_loaded -eq 1 ] && route_args=(--route "$work/route.geojson" --mode driving)
say "dashpilotctl report $shift_id -o $report${route_args:+ --route route.geojson}"
ctl report "$shift_id" -o "$report" "${route_args[@]}"
echo "The shift's report is $report: open it in any browser."
