#!/usr/bin/env bash
# `make deb-office`: the Debian package of dashpilot-officed, the office, for the
# architecture of the machine that builds it (dpkg --print-architecture), written to
# .build/deb/dashpilot-office_VERSION_ARCH.deb; the path is the last line printed.
#
#   VERSION      Sources/DashPilotCore/Version.swift, what `dashpilot-officed --version`
#                prints; scripts/deb/office/changelog's newest entry must say the same.
#   DEB_VERSION  another package version built from the same tree, VERSION plus a suffix.
#   DEB_XZ_LEVEL xz's level for the package's data (default 6, dpkg's own).
#
# Built as the box's package is (scripts/deb/build.sh): release, static Swift runtime, so
# the office machine needs no Swift; Depends computed by dpkg-shlibdeps from what the
# binary loads (libpq, libsystemd, inih); maintainer scripts carrying debhelper's blocks;
# assembled with dpkg-gencontrol and dpkg-deb. Checked by scripts/system-test/office-package.sh.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"
here=scripts/deb/office
SWIFT=${SWIFT:-swift}
die() { echo "make deb-office: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps dpkg-gencontrol dpkg-parsechangelog python3 gzip strip; do
  command -v "$tool" >/dev/null || die "$tool is missing (make deps installs scripts/deps/package.txt)"
done

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' Sources/DashPilotCore/Version.swift)
[ -n "$version" ] || die "no version in Sources/DashPilotCore/Version.swift"
changelog_version=$(dpkg-parsechangelog -l $here/changelog -S Version)
[ "$changelog_version" = "$version" ] ||
  die "$here/changelog's newest entry is $changelog_version but the code says $version: add an entry for $version"
deb_version=${DEB_VERSION:-$version}
case $deb_version in
  "$version" | "$version"+*) ;;
  *) die "DEB_VERSION=$deb_version is not $version or $version+SUFFIX: a package must carry the code's version" ;;
esac
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l $here/changelog -S Timestamp)}

echo "building dashpilot-officed $version (release, static Swift runtime) for $arch"
$SWIFT build -c release --static-swift-stdlib --product dashpilot-officed
bin=$($SWIFT build -c release --static-swift-stdlib --show-bin-path)
reported=$("$bin/dashpilot-officed" --version)
[ "$reported" = "dashpilot-officed $version" ] ||
  die "$bin/dashpilot-officed --version says \"$reported\", not dashpilot-officed $version"

out=$repo/.build/deb
stage=$out/office-stage-$deb_version
root=$stage/src/debian/dashpilot-office
rm -rf "$stage"
mkdir -p "$root/DEBIAN"

# --- Files ----------------------------------------------------------------------------
install -D -m 0755 "$bin/dashpilot-officed" "$root/usr/sbin/dashpilot-officed"
strip --remove-section=.comment --remove-section=.note "$root/usr/sbin/dashpilot-officed"
install -D -m 0644 systemd/dashpilot-officed.service "$root/usr/lib/systemd/system/dashpilot-officed.service"
install -D -m 0644 systemd/dashpilot-office.sysusers "$root/usr/lib/sysusers.d/dashpilot-office.conf"
install -D -m 0644 config/officed.conf "$root/etc/dashpilot/officed.conf"

python3 scripts/man/build.py "$stage/man" >/dev/null
install -D -m 0644 "$stage/man/dashpilot-officed.8" "$root/usr/share/man/man8/dashpilot-officed.8"
gzip -9n "$root/usr/share/man/man8/dashpilot-officed.8"

doc=$root/usr/share/doc/dashpilot-office
install -D -m 0644 $here/copyright "$doc/copyright"
install -D -m 0644 $here/changelog "$doc/changelog"
gzip -9n "$doc/changelog"
install -D -m 0644 docs/office.md "$doc/office.md"
gzip -9n "$doc/office.md"
install -D -m 0644 docs/office/dashpilot-office.qgs "$doc/dashpilot-office.qgs"

# --- Control --------------------------------------------------------------------------
install -m 0644 $here/conffiles "$root/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "$here/$script" "$root/DEBIAN/$script"; done

cp $here/control "$stage/src/debian/control"
cp $here/changelog "$stage/src/debian/changelog"
(
  cd "$stage/src"
  dpkg-shlibdeps -Tdebian/substvars debian/dashpilot-office/usr/sbin/dashpilot-officed
  # What dh_installsysusers adds: the postinst runs systemd-sysusers.
  echo "misc:Depends=systemd | systemd-standalone-sysusers | systemd-sysusers" >>debian/substvars
  dpkg-gencontrol -pdashpilot-office -v"$deb_version" -Tdebian/substvars -fdebian/files -Pdebian/dashpilot-office
)
grep -q '^Depends: .*libpq5' "$root/DEBIAN/control" || die "no libpq dependency was computed"

(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"

package=$out/dashpilot-office_${deb_version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz -z"${DEB_XZ_LEVEL:-6}" --build "$root" "$package" >/dev/null
echo "$(grep '^Depends:' "$root/DEBIAN/control")"
echo "$(du -k "$package" | cut -f1) KiB, installed $(sed -n 's/^Installed-Size: //p' "$root/DEBIAN/control") KiB"
echo "$package"
