#!/usr/bin/env bash
# expected-depends.sh MULTIARCH CURL_SONAME BINARY...: the Debian packages that ship what the
# binaries load at start (each ELF NEEDED, found as the loader finds it: the binary's
# RUNPATH, then the system's library directories of MULTIARCH) and the package of the libcurl
# the routing client opens on its first request, one a line (dpkg -S). Run where the
# package's libraries are installed (this machine for Debian 12, the build root for 13): it
# reads ELF headers only, so it judges arm64 programs on an amd64 machine too. package.sh
# compares it with the Depends that dpkg-shlibdeps computed.
set -euo pipefail
multiarch=$1 curl=$2
shift 2
system=("/lib/$multiarch" "/usr/lib/$multiarch" /lib /usr/lib)
owner_of() {  # owner_of PATH: the package that ships the file at PATH, without :arch
  local candidate owner
  for candidate in "$1" "$(readlink -f "$1")" "$(readlink -f "$1" | sed 's|^/usr/lib/|/lib/|')"; do
    owner=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && { echo "$owner"; return 0; }
  done
  echo "no package ships $1" >&2
  return 1
}
find_library() {  # find_library SONAME DIRECTORY...: the first DIRECTORY/SONAME there is
  local soname=$1 directory
  shift
  for directory; do [ -e "$directory/$soname" ] && { echo "$directory/$soname"; return 0; }; done
  echo "the loader cannot find $soname (looked in $*)" >&2
  return 1
}
for binary; do
  read -r -a runpath < <(readelf -d "$binary" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p' | tr ':' ' ')
  while read -r soname; do
    owner_of "$(find_library "$soname" "${runpath[@]}" "${system[@]}")"
  done < <(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done
owner_of "$(find_library "$curl" "${system[@]}")"
