# DashPilot for Linux. `make demo` runs the main job; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: all deps build test bench demo clean install deb debs man system-test gpsd-test fuzz format lint

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Every product in release, linked as `make install` links them (static Swift runtime), so
# the daemon figures (start-up, resident memory, CPU per hour) are those of the installed
# binary. `.build/release/dashpilot-bench AREA...` reruns one area.
bench: deps
	$(SWIFT) build -c release --static-swift-stdlib
	.build/release/dashpilot-bench

# libFuzzer on the control request parser for FUZZ_SECONDS (default 60); see scripts/fuzz.
FUZZ_SECONDS ?= 60
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz/run.sh $(FUZZ_SECONDS)

demo:
	scripts/demo.sh

# The toolchain's swift-format with the project's .swift-format (2-space indent, 120
# columns); `make lint` is what CI checks, `make format` rewrites in place.
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift

# For development (a box gets the package, `make deb`): static binaries (no Swift runtime
# needed on the box), the unit, sysusers and tmpfiles entries, the manual pages, the bash
# completion and the documented configuration (never overwriting an edited one).
# dashpilot-route-reader goes beside dashpilotd, where the daemon looks for it first: a
# link to dashpilotctl, which is the reader when called by that name (as in the package).
# DESTDIR stages into another root; PREFIX moves binaries, systemd entries and pages.
BINDIR ?= $(PREFIX)/bin
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
MANDIR ?= $(PREFIX)/share/man
COMPLETIONSDIR ?= $(PREFIX)/share/bash-completion/completions
CONFDIR ?= /etc/dashpilot

install: deps
	$(SWIFT) build -c release --static-swift-stdlib --product dashpilotd
	$(SWIFT) build -c release --static-swift-stdlib --product dashpilotctl
	install -D -m 0755 -s "$$($(SWIFT) build -c release --show-bin-path)/dashpilotd" "$(DESTDIR)$(BINDIR)/dashpilotd"
	install -D -m 0755 -s "$$($(SWIFT) build -c release --show-bin-path)/dashpilotctl" "$(DESTDIR)$(BINDIR)/dashpilotctl"
	ln -sf dashpilotctl "$(DESTDIR)$(BINDIR)/dashpilot-route-reader"
	install -d "$(DESTDIR)$(SYSTEMDDIR)"
	sed 's|^ExecStart=/usr/local/bin/dashpilotd|ExecStart=$(BINDIR)/dashpilotd|' systemd/dashpilotd.service > "$(DESTDIR)$(SYSTEMDDIR)/dashpilotd.service"
	chmod 0644 "$(DESTDIR)$(SYSTEMDDIR)/dashpilotd.service"
	install -D -m 0644 systemd/dashpilot.sysusers "$(DESTDIR)$(SYSUSERSDIR)/dashpilot.conf"
	install -D -m 0644 systemd/dashpilot.tmpfiles "$(DESTDIR)$(TMPFILESDIR)/dashpilot.conf"
	python3 scripts/man/build.py .build/man >/dev/null
	for page in dashpilotd.8 dashpilotctl.1 dashpilot.conf.5; do \
	  install -D -m 0644 ".build/man/$$page" "$(DESTDIR)$(MANDIR)/man$${page##*.}/$$page" && \
	  gzip -9nf "$(DESTDIR)$(MANDIR)/man$${page##*.}/$$page" || exit 1; done
	install -D -m 0644 scripts/completion/dashpilotctl "$(DESTDIR)$(COMPLETIONSDIR)/dashpilotctl"
	test -e "$(DESTDIR)$(CONFDIR)/dashpilot.conf" || install -D -m 0644 config/dashpilot.conf "$(DESTDIR)$(CONFDIR)/dashpilot.conf"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemd-sysusers && systemd-tmpfiles --create "$(TMPFILESDIR)/dashpilot.conf" && systemctl daemon-reload; \
	  echo "installed; start it with: sudo systemctl enable --now dashpilotd"; fi

# The Debian package of one box, .build/deb/dashpilot_VERSION+debNN_ARCH.deb (its path is the
# last line printed): DEB_TARGET=debian12-amd64, debian13-amd64 or debian13-arm64, by default
# this machine's (scripts/targets/targets.sh). The Debian 13 ones are built in a Debian 13
# build root that the build makes and caches under .build/roots (scripts/targets). VERSION
# is Sources/DashPilotCore/Version.swift; DEB_VERSION=VERSION+debNN+SUFFIX builds a higher
# package version from the same tree. `make debs` builds all three, their paths last.
DEB_TARGETS ?= debian12-amd64 debian13-amd64 debian13-arm64
deb: deps
	SWIFT=$(SWIFT) DEB_TARGET=$(DEB_TARGET) DEB_VERSION=$(DEB_VERSION) scripts/deb/build.sh

debs: deps
	@set -e; for target in $(DEB_TARGETS); do \
	  SWIFT=$(SWIFT) DEB_TARGET=$$target scripts/deb/build.sh | tee .build/deb-$$target.log; done; \
	  for target in $(DEB_TARGETS); do tail -1 .build/deb-$$target.log; done

# The office's Debian package (dashpilot-officed), for this machine's architecture:
# .build/deb/dashpilot-office_VERSION_ARCH.deb, its path the last line printed.
.PHONY: deb-office
deb-office: deps
	SWIFT=$(SWIFT) DEB_VERSION=$(DEB_VERSION) scripts/deb/office/build.sh

# The manual pages, rendered into .build/man (make deb installs them compressed).
man:
	python3 scripts/man/build.py .build/man

# Boots a Debian 12 root under systemd-nspawn, installs the static binaries and unit in
# it, and checks start, status, journal, restart and stop against a real systemd; then
# the package's whole life for each of DEB_TARGETS in a booted root of its release and
# architecture (scripts/system-test/package.sh; arm64 through qemu-user): install with
# its dependencies from Debian, a recorded drive, upgrade, remove, purge.
# Then the office's package in a booted Debian 12 with PostgreSQL and mosquitto
# (scripts/system-test/office-package.sh).
# Every part runs even when one fails; any failing fails the target.
system-test: deps
	@status=0; scripts/system-test/run.sh || status=1; \
	  for target in $(DEB_TARGETS); do \
	    SWIFT=$(SWIFT) DEB_TARGET=$$target scripts/system-test/package.sh || status=1; done; \
	  SWIFT=$(SWIFT) scripts/system-test/office-package.sh || status=1; exit $$status

# The gpsd suites against Debian 13's gpsd 3.25 and libgps (API 14), built by Debian 13's
# Swift in the build root (`make test` runs them against this machine's gpsd).
gpsd-test: deps
	scripts/targets/gpsd-test.sh

clean:
	rm -rf .build
