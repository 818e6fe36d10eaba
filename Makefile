# DashPilot for Linux. `make demo` runs the main job; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: all deps build test bench demo clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release --product dashpilot-bench
	.build/release/dashpilot-bench

demo: deps
	$(SWIFT) build --product dashpilotctl
	scripts/demo.sh

clean:
	rm -rf .build
