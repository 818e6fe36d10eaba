# DashPilot for Linux. `make demo` runs the main job; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: all deps build test bench demo clean install system-test fuzz format lint

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

# Static binaries (no Swift runtime needed on the box), the unit, sysusers and tmpfiles
# entries and the documented configuration (never overwriting an edited one).
# DESTDIR stages into another root; PREFIX moves binaries and systemd entries.
BINDIR ?= $(PREFIX)/bin
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
CONFDIR ?= /etc/dashpilot

install: deps
	$(SWIFT) build -c release --static-swift-stdlib --product dashpilotd
	$(SWIFT) build -c release --static-swift-stdlib --product dashpilotctl
	install -D -m 0755 -s "$$($(SWIFT) build -c release --show-bin-path)/dashpilotd" "$(DESTDIR)$(BINDIR)/dashpilotd"
	install -D -m 0755 -s "$$($(SWIFT) build -c release --show-bin-path)/dashpilotctl" "$(DESTDIR)$(BINDIR)/dashpilotctl"
	install -d "$(DESTDIR)$(SYSTEMDDIR)"
	sed 's|^ExecStart=/usr/local/bin/dashpilotd|ExecStart=$(BINDIR)/dashpilotd|' systemd/dashpilotd.service > "$(DESTDIR)$(SYSTEMDDIR)/dashpilotd.service"
	chmod 0644 "$(DESTDIR)$(SYSTEMDDIR)/dashpilotd.service"
	install -D -m 0644 systemd/dashpilot.sysusers "$(DESTDIR)$(SYSUSERSDIR)/dashpilot.conf"
	install -D -m 0644 systemd/dashpilot.tmpfiles "$(DESTDIR)$(TMPFILESDIR)/dashpilot.conf"
	test -e "$(DESTDIR)$(CONFDIR)/dashpilot.conf" || install -D -m 0644 config/dashpilot.conf "$(DESTDIR)$(CONFDIR)/dashpilot.conf"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemd-sysusers && systemd-tmpfiles --create "$(TMPFILESDIR)/dashpilot.conf" && systemctl daemon-reload; \
	  echo "installed; start it with: sudo systemctl enable --now dashpilotd"; fi

# Boots a Debian 12 root under systemd-nspawn, installs the static binaries and unit in
# it, and checks start, status, journal, restart and stop against a real systemd.
system-test: deps
	scripts/system-test/run.sh

clean:
	rm -rf .build
