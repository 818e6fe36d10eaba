# Checks of a built .deb on the host, for the package system tests; sourced after lib.sh
# (they use its `log` and `work`). Each returns non-zero with what was wrong, for `check`.
# office-package.sh uses them; package.sh uses the autoscripts check (its Depends and
# lintian checks run in the target's build root, with that release's tools).

# deb_owner_of PATH: the package that ships the library at PATH (dpkg -S), without :arch.
deb_owner_of() {
  local candidate owner
  for candidate in "$1" "$(readlink -f "$1")" "$(readlink -f "$1" | sed 's|^/usr/lib/|/lib/|')"; do
    owner=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && { echo "$owner"; return 0; }
  done
  echo "no package ships $1" >&2; return 1
}

# deb_depends_check DEB EXTRA BINARY...: Depends names exactly the packages of every library
# the binaries need at start (ELF NEEDED, found as the loader finds them, owned per dpkg -S),
# plus EXTRA (one alternative list, such as debhelper's sysusers provider).
deb_depends_check() {
  local deb=$1 extra=$2 expected=() soname path binary want got
  shift 2
  for binary in "$@"; do
    while read -r soname; do
      path=$(ldd "$binary" | awk -v s="$soname" '$1 == s && $2 == "=>" { print $3; exit } $1 ~ ("/" s "$") { print $1; exit }')
      [ -n "$path" ] || { echo "the loader cannot find $soname for $binary"; return 1; }
      expected+=("$(deb_owner_of "$path")") || return 1
    done < <(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  done
  want=$(printf '%s\n' "${expected[@]}" "$extra" | sort -u)
  got=$(dpkg-deb -f "$deb" Depends | sed 's/ *([^)]*)//g' | tr ',' '\n' | sed 's/^ *//; s/ *$//' | sort -u)
  [ "$want" = "$got" ] || { printf 'Depends should name exactly:\n%s\nit names:\n%s\n' "$want" "$got"; return 1; }
}

# deb_autoscripts_check DEB UNIT CONF SCRIPT:BLOCK...: each maintainer script carries
# debhelper's autoscript BLOCK verbatim, filled in as dh would for UNIT (dashpilotd.service)
# and the sysusers/tmpfiles file name CONF (dashpilot.conf).
deb_autoscripts_check() {
  local deb=$1 unit=$2 conf=$3 dir=/usr/share/debhelper/autoscripts pair script block text
  shift 3
  mkdir -p "$work/control"
  dpkg-deb -e "$deb" "$work/control"
  for pair in "$@"; do
    script=${pair%%:*} block=${pair#*:}
    text=$(sed -e "s/#UNITFILE#/'$unit'/g; s/#UNITFILES#/'$unit'/g; s/#RESTART_ACTION#/restart/g" \
      -e "s/#CONFILE_BASENAME#/$conf/g; s/#TMPFILES#/$conf/g" "$dir/$block")
    python3 -c 'import sys; sys.exit(0 if sys.argv[1] in open(sys.argv[2]).read() else 1)' "$text" "$work/control/$script" ||
      { echo "$script does not carry debhelper's $block:"; echo "$text"; return 1; }
  done
}

# deb_lintian_check DEB ACCEPTED: lintian -I --pedantic reports no error or warning, and no
# tag that the file ACCEPTED does not list (with why it stays).
deb_lintian_check() {
  local deb=$1 accepted_file=$2 out accepted unexpected
  out=$(cd "$work" && lintian -I --pedantic "$deb" 2>&1 | grep -v '^running with root privileges' || true)
  printf '%s\n' "$out" >"$work/lintian.txt"
  accepted=$(sed 's/#.*//; /^ *$/d' "$accepted_file")
  if grep -E '^[EW]: ' <<<"$out"; then echo "lintian reports errors or warnings"; return 1; fi
  unexpected=$(grep -E '^[IPX]: ' <<<"$out" | awk '{ print $3 }' | sort -u | grep -vxF -f <(printf '%s\n' "$accepted") || true)
  [ -z "$unexpected" ] || { printf 'tags not in %s:\n%s\n' "$accepted_file" "$unexpected"; return 1; }
}
