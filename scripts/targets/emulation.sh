#!/usr/bin/env bash
# emulation.sh ARCH: makes this machine run ARCH programs (an arm64 root, debootstrapped and
# booted on an amd64 machine): Debian 13's qemu-user (10.0, from the Debian 13 build root,
# scripts/targets/build-root.sh) registered with binfmt_misc as dashpilot-qemu-aarch64, with
# the F flag (the kernel opens the interpreter at registration, so it runs inside chroots and
# containers) and O and C (it is handed the program already open, as systemd executes it).
# Debian 12's qemu-user-static (7.2), when registered, is disabled: it does not translate
# clone3, with which Debian 13's systemd starts every service, so no service could start in
# the root. Needs root; mounts binfmt_misc when it is not. When it cannot do it, it prints one
# line naming what is missing and fails.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
arch=${1:?usage: emulation.sh ARCH}
[ "$arch" = "$(dpkg --print-architecture)" ] && exit 0
missing() { echo "emulation: cannot run $arch programs here: $*"; exit 1; }
[ "$arch" = arm64 ] || missing "only arm64 is emulated"
[ "$(id -u)" -eq 0 ] || missing "registering an interpreter with binfmt_misc needs root"
binfmt=/proc/sys/fs/binfmt_misc
if ! mountpoint -q "$binfmt"; then
  mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null ||
    missing "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc binfmt_misc $binfmt)"
fi
name=dashpilot-qemu-aarch64
if [ ! -e "$binfmt/$name" ]; then
  root=$("$repo/scripts/targets/build-root.sh" debian13) || missing "no Debian 13 build root (scripts/targets/build-root.sh debian13)"
  qemu=$root/usr/bin/qemu-aarch64
  [ -x "$qemu" ] || missing "the build root has no $qemu (Debian 13's qemu-user)"
  magic='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
  mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
  printf ':%s:M:0:%s:%s:%s:POCF\n' "$name" "$magic" "$mask" "$qemu" >"$binfmt/register" 2>/dev/null ||
    missing "binfmt_misc refused to register $qemu"
fi
grep -qx enabled "$binfmt/$name" || echo 1 >"$binfmt/$name"
[ -e "$binfmt/qemu-aarch64" ] && ! grep -q "^interpreter .*/usr/bin/qemu-aarch64$" "$binfmt/qemu-aarch64" &&
  echo 0 >"$binfmt/qemu-aarch64"
grep -qx enabled "$binfmt/$name" || missing "$name is registered but disabled"
grep -q '^flags: .*F' "$binfmt/$name" || missing "$name is registered without the F flag"
