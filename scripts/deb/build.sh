#!/usr/bin/env bash
# `make deb`: the Debian package of dashpilotd and dashpilotctl (which is also the route
# reader dashpilotd runs, under that name) for one box (scripts/targets/targets.sh), written
# to .build/deb/dashpilot_VERSION+debNN_ARCH.deb; the path is the last line printed.
#
#   DEB_TARGET   debian12-amd64, debian13-amd64 or debian13-arm64; by default this machine's
#                own (`make deb` on a Debian 12 amd64 machine builds debian12-amd64).
#   VERSION      Sources/DashPilotCore/Version.swift, what `dashpilotd --version` prints;
#                scripts/deb/changelog's newest entry must say the same. The package's
#                version is VERSION+debNN (0.3.0+deb13), so that each release's package has
#                a version of its own and a box upgraded from Debian 12 to 13 takes the
#                Debian 13 package as an upgrade.
#   DEB_VERSION  another package version built from the same tree, VERSION+debNN plus a
#                suffix (0.3.0+deb13+test1): the system test's upgrade builds one higher.
#   DEB_XZ_LEVEL xz's level for the package's data (default 6, dpkg's own; 1 is fast).
#
# debian12-amd64 is built on this machine (a Debian 12 amd64 one) as `make install` builds
# (release, the Swift runtime linked in: Debian 12 has none), and packaged with its tools.
# The Debian 13 targets are built, and packaged, in the Debian 13 build root with Debian's
# own compiler and tools, and link Debian's Swift runtime (Depends: libswiftlang).
#
# Depends is computed by dpkg-shlibdeps from what the binaries load at start, plus libcurl,
# which the routing client loads on its first request (Sources/CCurl/CurlLoader.c): a stub
# linked against exactly the functions the loader looks up lets dpkg-shlibdeps compute that
# too. Debian's libswiftlang ships no shlibs or symbols file (its libraries' sonames carry no
# version), so the runtime's libraries are staged beside the package, as the package they
# come from, with a symbols file written here that names the runtime release they need. The
# maintainer scripts follow debhelper's (see scripts/deb/postinst); the package is assembled
# with dpkg-gencontrol and dpkg-deb. No debian/ directory at the top: scripts/deb/ holds the
# packaging.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. scripts/targets/targets.sh
SWIFT=${SWIFT:-swift}
die() { echo "make deb: $*" >&2; exit 1; }
target=${DEB_TARGET:-$(host_target)}
is_target "$target" || die "DEB_TARGET=$target is not one of: $DEB_TARGETS"
release=$(target_release "$target")
arch=$(target_arch "$target")
for tool in python3 gzip; do
  command -v "$tool" >/dev/null || die "$tool is missing (make deps installs scripts/deps/package.txt)"
done

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' Sources/DashPilotCore/Version.swift)
[ -n "$version" ] || die "no version in Sources/DashPilotCore/Version.swift"
command -v dpkg-parsechangelog >/dev/null || die "dpkg-parsechangelog is missing (make deps installs dpkg-dev)"
changelog_version=$(dpkg-parsechangelog -l scripts/deb/changelog -S Version)
[ "$changelog_version" = "$version" ] ||
  die "scripts/deb/changelog's newest entry is $changelog_version but the code says $version: add an entry for $version"
release_version=$version+deb${release#debian}
deb_version=${DEB_VERSION:-$release_version}
case $deb_version in
  "$release_version" | "$release_version"+*) ;;
  *) die "DEB_VERSION=$deb_version is not $release_version or $release_version+SUFFIX: a package carries the code's version and its release" ;;
esac
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l scripts/deb/changelog -S Timestamp)}

# --- Where it is built and packaged ----------------------------------------------------
# in_target COMMAND...: COMMAND with the target's packaging tools (this machine's for
# debian12-amd64, the build root's for Debian 13), the target's architecture in dpkg's
# environment (dpkg-architecture: dpkg-shlibdeps then reads arm64 programs and libraries).
if [ "$release" = debian12 ]; then
  for tool in dpkg-deb dpkg-shlibdeps dpkg-gencontrol gcc strip; do
    command -v "$tool" >/dev/null || die "$tool is missing (make deps installs scripts/deps/package.txt)"
  done
  in_target() { "$@"; }
  cc=(gcc)
  strip=strip
  runtime_dir=""
else
  build_root=$(scripts/targets/build-root.sh "$release")
  # (dpkg-architecture's variables set as -s prints them: -c would warn that the C compiler
  # builds for amd64, which no step here asks it to.)
  in_target() {
    scripts/targets/in-root.sh "$build_root" sh -c 'eval "$(dpkg-architecture -a"$0" -s 2>/dev/null)"; exec "$@"' "$arch" "$@"
  }
  if [ "$arch" = arm64 ]; then
    # The toolchain's clang and lld link for any machine; the C runtime is the arm64 one.
    cc=(/usr/libexec/swift/bin/clang --target=aarch64-linux-gnu -fuse-ld=lld)
    strip=aarch64-linux-gnu-strip
    runtime_dir=/opt/swift-arm64/usr/libexec/swift/lib/swift/linux
    runtime_files=/opt/swift-arm64/libswiftlang.list
  else
    cc=(gcc)
    strip=strip
    runtime_dir=/usr/libexec/swift/lib/swift/linux
    runtime_files=/var/lib/dpkg/info/libswiftlang.list
  fi
fi

echo "building dashpilotd and dashpilotctl $version for $target"
bin=$(SWIFT=$SWIFT scripts/targets/build.sh "$target" dashpilotd dashpilotctl | tail -1)
# The version the daemon reports is the one being packaged (where this machine runs it).
if reported=$("$bin/dashpilotd" --version 2>/dev/null); then
  [ "$reported" = "dashpilotd $version" ] || die "$bin/dashpilotd --version says \"$reported\", not dashpilotd $version"
fi

out=$repo/.build/deb
stage=$out/stage-$target-$deb_version
# A source package's layout, as dpkg-shlibdeps and dpkg-gencontrol expect it.
root=$stage/src/debian/dashpilot
rm -rf "$stage"
mkdir -p "$root/DEBIAN" "$stage/src/debian/curl-stub"

# --- Files ----------------------------------------------------------------------------
install -D -m 0755 "$bin/dashpilotd" "$root/usr/sbin/dashpilotd"
install -D -m 0755 "$bin/dashpilotctl" "$root/usr/bin/dashpilotctl"
# Stripped as dh_strip strips executables.
in_target "$strip" --remove-section=.comment --remove-section=.note "$root/usr/sbin/dashpilotd" "$root/usr/bin/dashpilotctl"
# The route reader dashpilotd runs for a route sent inline (found at ../libexec/dashpilot
# from /usr/sbin) is dashpilotctl called by that name: a link instead of a third executable
# keeps one copy of the program (and on Debian 12, of the Swift runtime linked into it).
install -d -m 0755 "$root/usr/libexec/dashpilot"
ln -s ../../bin/dashpilotctl "$root/usr/libexec/dashpilot/dashpilot-route-reader"
install -d -m 0755 "$root/usr/lib/systemd/system"
sed 's|^ExecStart=/usr/local/bin/dashpilotd|ExecStart=/usr/sbin/dashpilotd|' systemd/dashpilotd.service \
  >"$root/usr/lib/systemd/system/dashpilotd.service"
chmod 0644 "$root/usr/lib/systemd/system/dashpilotd.service"
grep -q '^ExecStart=/usr/sbin/dashpilotd ' "$root/usr/lib/systemd/system/dashpilotd.service" ||
  die "systemd/dashpilotd.service has no ExecStart=/usr/local/bin/dashpilotd line to point at /usr/sbin"
install -D -m 0644 systemd/dashpilot.sysusers "$root/usr/lib/sysusers.d/dashpilot.conf"
install -D -m 0644 systemd/dashpilot.tmpfiles "$root/usr/lib/tmpfiles.d/dashpilot.conf"
install -D -m 0644 config/dashpilot.conf "$root/etc/dashpilot/dashpilot.conf"
install -D -m 0644 scripts/completion/dashpilotctl "$root/usr/share/bash-completion/completions/dashpilotctl"

python3 scripts/man/build.py "$stage/man" >/dev/null
for page in dashpilotd.8 dashpilotctl.1 dashpilot.conf.5; do
  section=${page##*.}
  install -D -m 0644 "$stage/man/$page" "$root/usr/share/man/man$section/$page"
  gzip -9n "$root/usr/share/man/man$section/$page"
done

doc=$root/usr/share/doc/dashpilot
install -D -m 0644 scripts/deb/copyright "$doc/copyright"
install -D -m 0644 scripts/deb/changelog "$doc/changelog"
gzip -9n "$doc/changelog"
install -D -m 0644 docs/uplink-messages.md "$doc/uplink-messages.md"
gzip -9n "$doc/uplink-messages.md"
# How a box is set up (README "On the box"): examples a person copies into place.
for example in scripts/deb/examples/*; do
  install -D -m 0644 "$example" "$doc/examples/$(basename "$example")"
done

# What lintian is told of the package for its release (scripts/deb/RELEASE/).
if [ -f "scripts/deb/$release/lintian-overrides" ]; then
  install -D -m 0644 "scripts/deb/$release/lintian-overrides" "$root/usr/share/lintian/overrides/dashpilot"
fi

# --- Control --------------------------------------------------------------------------
install -m 0644 scripts/deb/conffiles "$root/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "scripts/deb/$script" "$root/DEBIAN/$script"; done

# The libcurl functions the loader looks up, linked for real in a stub that is not shipped.
soname=$(sed -n 's/.*dlopen("\(libcurl\.so\.[0-9]*\)".*/\1/p' Sources/CCurl/CurlLoader.c)
mapfile -t curl_functions < <(sed -n 's/^ *DP_CURL_SYMBOL([a-z_]*, "\(curl_[a-z_]*\)").*/\1/p' Sources/CCurl/CurlLoader.c)
[ -n "$soname" ] && [ ${#curl_functions[@]} -gt 0 ] || die "cannot read what Sources/CCurl/CurlLoader.c loads"
{
  echo "/* The libcurl functions Sources/CCurl/CurlLoader.c looks up with dlsym. */"
  for f in "${curl_functions[@]}"; do echo "extern char $f[];"; done
  echo "void *volatile dashpilot_curl_functions[] = {"
  for f in "${curl_functions[@]}"; do echo "  $f,"; done
  echo "};"
  echo "int main(void) { return dashpilot_curl_functions[0] == 0; }"
} >"$stage/curl-stub.c"
stub=$stage/src/debian/curl-stub/curl-stub
in_target "${cc[@]}" -o "$stub" "$stage/curl-stub.c" -lcurl
in_target readelf -d "$stub" | grep -q "(NEEDED).*\\[$soname\\]" || die "the libcurl stub does not need $soname"

cp scripts/deb/control "$stage/src/debian/control"
cp scripts/deb/changelog "$stage/src/debian/changelog"
shlibdeps_runtime=()
if [ -n "$runtime_dir" ]; then
  # Debian's Swift runtime for the target's architecture, staged as the package it comes
  # from, with the symbols file Debian's package does not ship.
  runtime=$stage/src/debian/libswiftlang
  mkdir -p "$runtime/DEBIAN" "$runtime/usr/libexec/swift/lib/swift/linux"
  runtime_version=$(in_target dpkg-query -W -f '${Version}' libswiftlang)
  upstream=${runtime_version%-*}
  next=$(echo "$upstream" | awk -F. '{ printf "%d.%d.%d", $1, $2, $3 + 1 }')
  # At the path the binaries' RUNPATH names, which is where the box has it.
  # Its libraries alone (the compiler's package puts others beside them).
  in_target sh -ec 'for library in $(grep "/linux/[^/]*\.so$" "$2"); do cp "$0/${library##*/}" "$1"; done' \
    "$runtime_dir" "$runtime/usr/libexec/swift/lib/swift/linux" "$runtime_files"
  # Its symbols file, as dpkg-gensymbols writes one: every symbol of every library at this
  # release. Swift has no stable ABI on Linux, so a program runs on the runtime of the
  # compiler that built it: the package needs that upstream release (any Debian revision).
  in_target sh -ec 'cd "$1"
    dpkg-gensymbols -q -plibswiftlang -Pdebian/libswiftlang -v"$2" -Odebian/libswiftlang/DEBIAN/symbols \
      -e"debian/libswiftlang/usr/libexec/swift/lib/swift/linux/*.so" >/dev/null' sh "$stage/src" "$upstream"
  sed -i "s/ libswiftlang #MINVER#\$/ libswiftlang #MINVER#, libswiftlang (<< $next~)/" "$runtime/DEBIAN/symbols"
  shlibdeps_runtime=(-S"$runtime")
fi
in_target sh -ec '
  cd "$1"; shift
  dpkg-shlibdeps -Tdebian/substvars "$@" debian/dashpilot/usr/sbin/dashpilotd debian/dashpilot/usr/bin/dashpilotctl
  # (--warnings=6: the stub is in no package directory, as it is in no package.)
  dpkg-shlibdeps -Tdebian/substvars -pcurl -xlibc6 --warnings=6 debian/curl-stub/curl-stub
' sh "$stage/src" "${shlibdeps_runtime[@]}"
# What dh_installsysusers adds: the postinst runs systemd-sysusers.
echo "misc:Depends=systemd | systemd-standalone-sysusers | systemd-sysusers" >>"$stage/src/debian/substvars"
in_target sh -ec 'cd "$1" && dpkg-gencontrol -pdashpilot -v"$2" -Tdebian/substvars -fdebian/files -Pdebian/dashpilot' \
  sh "$stage/src" "$deb_version"
grep -q '^Depends: .*libcurl4' "$root/DEBIAN/control" || die "no libcurl dependency was computed"
if [ -n "$runtime_dir" ]; then
  grep -q '^Depends: .*libswiftlang (>= ' "$root/DEBIAN/control" || die "no libswiftlang dependency was computed"
fi

(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"

package=$out/dashpilot_${deb_version}_${arch}.deb
in_target dpkg-deb --root-owner-group -Zxz -z"${DEB_XZ_LEVEL:-6}" --build "$root" "$package" >/dev/null
echo "$(grep '^Depends:' "$root/DEBIAN/control")"
echo "$(du -k "$package" | cut -f1) KiB, installed $(sed -n 's/^Installed-Size: //p' "$root/DEBIAN/control") KiB"
echo "$package"
