# Shared by the system tests (run.sh, package.sh); sourced, not run. A cached Debian root
# per suite, architecture and package list, a throwaway overlay of it per run, a booted
# systemd in it under systemd-nspawn, and the checks: `check NAME COMMAND...` counts and
# prints ok / not ok.
#
#   suite, root_arch             set before sourcing: the Debian suite (default bookworm)
#                                and architecture (default this machine's; arm64 roots are
#                                made and booted through qemu-user, scripts/targets/emulation.sh)
#   DASHPILOT_SYSTEMTEST_CACHE   where the roots are cached (default /var/cache/dashpilot-systemtest)
#   DASHPILOT_DEBIAN_MIRROR      the Debian mirror (default http://deb.debian.org/debian)

started_ns=$(date +%s%N)
cache=${DASHPILOT_SYSTEMTEST_CACHE:-/var/cache/dashpilot-systemtest}
suite=${suite:-bookworm}
root_arch=${root_arch:-$(dpkg --print-architecture)}
mirror=${DASHPILOT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
test_name=${test_name:-system-test}

elapsed() { local ms=$(( ($(date +%s%N) - started_ns) / 1000000 )); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }
log() { printf '[%s %6ss] %s\n' "$test_name" "$(elapsed)" "$*"; }
die() { log "FATAL: $*"; exit 1; }

# cached_root PACKAGES: sets base to a debootstrapped root with PACKAGES (made once).
cached_root() {
  local packages=$1 key
  # (The key of a root of this machine's architecture is what it was before roots had one.)
  if [ "$root_arch" = "$(dpkg --print-architecture)" ]; then
    key=$(printf '%s %s' "$suite" "$packages" | sha256sum | cut -c1-16)
  else
    key=$(printf '%s %s %s' "$suite" "$root_arch" "$packages" | sha256sum | cut -c1-16)
  fi
  base=$cache/root-$key
  if [ ! -x "$base/lib/systemd/systemd" ]; then
    log "debootstrapping $suite $root_arch ($packages) into $base (once; cached afterwards)"
    mkdir -p "$cache"
    rm -rf "$base.partial"
    debootstrap --arch="$root_arch" --variant=minbase --include="$packages" "$suite" "$base.partial" "$mirror" \
      >"$cache/debootstrap-$key.log" 2>&1 || die "debootstrap failed; see $cache/debootstrap-$key.log"
    rm -f "$base.partial/etc/machine-id"
    mv "$base.partial" "$base"
  fi
  log "Debian root: $base"
}

work=$(mktemp -d /var/tmp/dashpilot-systemtest.XXXXXX)
nspawn_pid=""
container_pid=""
overlays=()
cleanup() {
  set +e
  if [ -n "$container_pid" ] && kill -0 "$container_pid" 2>/dev/null; then
    nsenter -t "$container_pid" -a systemctl poweroff >/dev/null 2>&1
  fi
  if [ -n "$nspawn_pid" ]; then
    for _ in $(seq 1 100); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$nspawn_pid" 2>/dev/null && kill "$nspawn_pid"
    wait "$nspawn_pid" 2>/dev/null
  fi
  local mounted busy=""
  for mounted in "${overlays[@]}"; do
    for _ in $(seq 1 3); do mountpoint -q "$mounted" || break; umount -R "$mounted" 2>/dev/null || sleep 0.5; done
    mountpoint -q "$mounted" && busy=$mounted
  done
  # Never delete through a root that is still mounted.
  if [ -n "$busy" ]; then log "$busy is still mounted; leaving $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# overlay_root DIRECTORY: DIRECTORY becomes a writable throwaway copy of $base.
overlay_root() {
  local target=$1 name
  name=$(basename "$target")
  mkdir -p "$target" "$work/$name-upper" "$work/$name-overlay-work"
  if mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/$name-upper,workdir=$work/$name-overlay-work" "$target" 2>/dev/null; then
    overlays+=("$target")
    log "an overlay of the cached root at $target"
  else
    log "overlayfs unavailable here; copying the cached root to $target"
    cp -a "$base/." "$target/"
  fi
}

# prepare_for_boot ROOT: what every booted root needs: its own gpsd kept off the host's
# port 2947 (the container shares the host's loopback), a machine id and hostname of its
# own, no first-boot questions.
prepare_for_boot() {
  local target=$1
  ln -sf /dev/null "$target/etc/systemd/system/gpsd.socket"
  ln -sf /dev/null "$target/etc/systemd/system/gpsd.service"
  echo "dashpilot-systemtest" >"$target/etc/hostname"
  systemd-machine-id-setup --root="$target" >/dev/null 2>&1 || true
  ln -sf /dev/null "$target/etc/systemd/system/systemd-firstboot.service"
}

# boot ROOT: boots it with systemd-nspawn; sets nspawn_pid, container_pid and state.
boot() {
  local target=$1
  log "booting $target with systemd-nspawn"
  # bpf and these capabilities let IPAddressDeny=/IPAddressAllow= be enforced inside.
  systemd-nspawn -D "$target" -b --register=no --keep-unit --console=pipe \
    --system-call-filter=bpf --capability=CAP_BPF,CAP_NET_ADMIN \
    >"$work/console.log" 2>&1 </dev/null &
  nspawn_pid=$!
  for _ in $(seq 1 100); do
    # The container's init is a descendant of nspawn named systemd (not nspawn's child).
    container_pid=$(ps -eo pid=,ppid=,comm= | awk -v parent="$nspawn_pid" '
      { pid[$1]=$2; name[$1]=$3 }
      END { for (p in pid) { q=p; while (q in pid && q!=parent) q=pid[q]; if (q==parent && name[p]=="systemd") print p } }' | head -1)
    [ -n "$container_pid" ] && break
    kill -0 "$nspawn_pid" 2>/dev/null || { cat "$work/console.log"; die "systemd-nspawn exited"; }
    sleep 0.1
  done
  [ -n "$container_pid" ] || die "no systemd inside the container"
  # Until its bus is up systemctl cannot even ask; then --wait waits for the boot to end.
  state=""
  for _ in $(seq 1 300); do
    state=$(in_container systemctl is-system-running --wait 2>/dev/null || true)
    case "$state" in running|degraded|maintenance|stopping) break ;; esac
    sleep 0.2
  done
  log "container systemd pid $container_pid is $state"
}

in_container() { nsenter -t "$container_pid" -a "$@"; }

# power_off: shuts the container down and waits for nspawn to exit (a check).
power_off() {
  log "powering the container off"
  in_container systemctl poweroff >/dev/null 2>&1 || true
  for _ in $(seq 1 150); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.1; done
  check "the container powered off" bash -c "! kill -0 $nspawn_pid 2>/dev/null"
  container_pid=""
}

# --- Checks ---------------------------------------------------------------------------
passed=0
failed=0
check() {
  local name=$1; shift
  if output=$("$@" 2>&1); then
    passed=$((passed + 1)); log "ok - $name"
  else
    failed=$((failed + 1)); log "not ok - $name"; printf '%s\n' "$output" | sed 's/^/    /' | head -40
  fi
}
expect_output() {  # expect_output PATTERN COMMAND...: the command succeeds and prints PATTERN
  local pattern=$1; shift
  local text
  text=$("$@" 2>&1) || { printf '%s\n' "$text"; return 1; }
  grep -qE -- "$pattern" <<<"$text" || { printf 'expected /%s/ in:\n%s\n' "$pattern" "$text"; return 1; }
}
expect_equal() {  # expect_equal EXPECTED COMMAND...: the command succeeds and prints exactly EXPECTED
  local expected=$1; shift
  local text
  text=$("$@" 2>&1) || { printf '%s\n' "$text"; return 1; }
  [ "$text" = "$expected" ] || { printf 'expected:\n%s\ngot:\n%s\n' "$expected" "$text"; return 1; }
}
journal_has() {  # journal_has PATTERN: a dashpilotd journal entry (JSON) matches PATTERN
  local text
  text=$(in_container journalctl -u dashpilotd -o json --no-pager 2>&1)
  grep -qE -- "$1" <<<"$text" || { printf 'no journal entry matches /%s/; the journal has:\n' "$1"; in_container journalctl -u dashpilotd --no-pager | tail -20; return 1; }
}
eventually() {  # eventually SECONDS COMMAND...: the command succeeds within SECONDS (output of the last try)
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds)) text
  until text=$("$@" 2>&1); do
    [ $SECONDS -lt $deadline ] || { printf '%s\n' "$text"; return 1; }
    sleep 0.5
  done
}
finish() {
  log "wall time $(elapsed) s"
  echo "$test_name: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
