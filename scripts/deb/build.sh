#!/usr/bin/env bash
# `make deb`: the Debian package of dashpilotd and dashpilotctl (which is also the route
# reader dashpilotd runs, under that name), for the architecture of the machine that
# builds it (dpkg --print-architecture), written to .build/deb/dashpilot_VERSION_ARCH.deb;
# the path is the last line printed.
#
#   VERSION      Sources/DashPilotCore/Version.swift, what `dashpilotd --version` prints;
#                scripts/deb/changelog's newest entry must say the same.
#   DEB_VERSION  another package version built from the same tree, VERSION plus a suffix
#                (0.2.0+test1): the system test's upgrade builds one higher than VERSION.
#   DEB_XZ_LEVEL xz's level for the package's data (default 6, dpkg's own: 18.5 MB in
#                about 50 s on a loaded 2-core machine; 1 gives 21.6 MB in 12 s).
#
# The binaries are built as `make install` builds them (release, static Swift runtime), so
# the box needs no Swift. Depends is computed by dpkg-shlibdeps from what they load at
# start, plus libcurl, which the routing client loads on its first request
# (Sources/CCurl/CurlLoader.c): a stub linked against exactly the functions the loader
# looks up lets dpkg-shlibdeps compute that dependency too. The maintainer scripts follow
# debhelper's (see scripts/deb/postinst); the package is assembled with dpkg-gencontrol and
# dpkg-deb. No debian/ directory at the top: scripts/deb/ holds the packaging.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
SWIFT=${SWIFT:-swift}
die() { echo "make deb: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps dpkg-gencontrol dpkg-parsechangelog gcc python3 gzip strip; do
  command -v "$tool" >/dev/null || die "$tool is missing (make deps installs scripts/deps/package.txt)"
done

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' Sources/DashPilotCore/Version.swift)
[ -n "$version" ] || die "no version in Sources/DashPilotCore/Version.swift"
changelog_version=$(dpkg-parsechangelog -l scripts/deb/changelog -S Version)
[ "$changelog_version" = "$version" ] ||
  die "scripts/deb/changelog's newest entry is $changelog_version but the code says $version: add an entry for $version"
deb_version=${DEB_VERSION:-$version}
case $deb_version in
  "$version" | "$version"+*) ;;
  *) die "DEB_VERSION=$deb_version is not $version or $version+SUFFIX: a package must carry the code's version" ;;
esac
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l scripts/deb/changelog -S Timestamp)}

echo "building dashpilotd and dashpilotctl $version (release, static Swift runtime) for $arch"
$SWIFT build -c release --static-swift-stdlib --product dashpilotd
$SWIFT build -c release --static-swift-stdlib --product dashpilotctl
bin=$($SWIFT build -c release --static-swift-stdlib --show-bin-path)
# The version the daemon reports is the one being packaged.
reported=$("$bin/dashpilotd" --version)
[ "$reported" = "dashpilotd $version" ] || die "$bin/dashpilotd --version says \"$reported\", not dashpilotd $version"

out=$repo/.build/deb
stage=$out/stage-$deb_version
# A source package's layout, as dpkg-shlibdeps and dpkg-gencontrol expect it.
root=$stage/src/debian/dashpilot
rm -rf "$stage"
mkdir -p "$root/DEBIAN" "$stage/src/debian/curl-stub"

# --- Files ----------------------------------------------------------------------------
# Stripped as dh_strip strips executables.
install -D -m 0755 "$bin/dashpilotd" "$root/usr/sbin/dashpilotd"
install -D -m 0755 "$bin/dashpilotctl" "$root/usr/bin/dashpilotctl"
strip --remove-section=.comment --remove-section=.note "$root/usr/sbin/dashpilotd" "$root/usr/bin/dashpilotctl"
# The route reader dashpilotd runs for a route sent inline (found at ../libexec/dashpilot
# from /usr/sbin) is dashpilotctl called by that name: each static executable carries the
# Swift runtime (about 12 MB), so a link instead of a third executable keeps one copy.
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
gcc -o "$stub" "$stage/curl-stub.c" -lcurl
objdump -p "$stub" | grep -q "NEEDED *$soname\$" || die "the libcurl stub does not need $soname"

cp scripts/deb/control "$stage/src/debian/control"
cp scripts/deb/changelog "$stage/src/debian/changelog"
(
  cd "$stage/src"
  dpkg-shlibdeps -Tdebian/substvars debian/dashpilot/usr/sbin/dashpilotd debian/dashpilot/usr/bin/dashpilotctl
  # (--warnings=6: the stub is in no package directory, as it is in no package.)
  dpkg-shlibdeps -Tdebian/substvars -pcurl -xlibc6 --warnings=6 debian/curl-stub/curl-stub
  # What dh_installsysusers adds: the postinst runs systemd-sysusers.
  echo "misc:Depends=systemd | systemd-standalone-sysusers | systemd-sysusers" >>debian/substvars
  dpkg-gencontrol -pdashpilot -v"$deb_version" -Tdebian/substvars -fdebian/files -Pdebian/dashpilot
)
grep -q '^Depends: .*libcurl4' "$root/DEBIAN/control" || die "no libcurl dependency was computed"

(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"

package=$out/dashpilot_${deb_version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz -z"${DEB_XZ_LEVEL:-6}" --build "$root" "$package" >/dev/null
echo "$(grep '^Depends:' "$root/DEBIAN/control")"
echo "$(du -k "$package" | cut -f1) KiB, installed $(sed -n 's/^Installed-Size: //p' "$root/DEBIAN/control") KiB"
echo "$package"
