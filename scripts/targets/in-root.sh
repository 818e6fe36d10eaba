#!/usr/bin/env bash
# in-root.sh [--bind SOURCE:TARGET]... ROOT COMMAND...: runs COMMAND inside the Debian root
# ROOT (chroot), with /proc, /dev, a fresh /tmp and this repository at its own path (and
# ../shared beside it, when there is one), in a mount namespace of its own, so nothing stays
# mounted when it ends, however it ends. --bind shows SOURCE (a file or directory of this
# machine) at TARGET inside, in that view only. Needs root.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
binds=()
while [ "${1:-}" = --bind ]; do binds+=("$2"); shift 2; done
root=$(cd "${1:?usage: in-root.sh [--bind SOURCE:TARGET]... ROOT COMMAND...}" && pwd)
shift
shared=$(cd "$repo/.." && pwd)/shared
mkdir -p "$root$repo"
[ -d "$shared" ] && { mkdir -p "$root$shared"; binds=("$shared:$shared" "${binds[@]}"); }
exec unshare --mount --propagation private -- /bin/sh -ec '
  root=$1 repo=$2 here=$3; shift 3
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount -t tmpfs tmpfs "$root/tmp"
  mount --bind "$repo" "$root$repo"
  while [ "$1" != -- ]; do
    [ -d "${1%%:*}" ] && mkdir -p "$root${1#*:}"
    mount --bind "${1%%:*}" "$root${1#*:}"
    shift
  done
  shift
  case $here in "$repo"*) ;; *) here=$repo ;; esac
  exec chroot "$root" /usr/bin/env HOME=/tmp LC_ALL=C.UTF-8 /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$here" "$@"
' sh "$root" "$repo" "$PWD" "${binds[@]}" -- "$@"
