#!/usr/bin/env bash
# `make fuzz`: libFuzzer on the control protocol's request parser for a bounded time.
# Every input must parse to a request that survives its own wire form, or to a typed error;
# a trap, a timeout (an input taking over 5 s) or a memory blow-up fails the run and leaves
# the input in .build/fuzz/findings/. The seeds in scripts/fuzz/corpus stay untouched: the
# fuzzer grows a copy of them in .build/fuzz/corpus, kept between runs.
#
#   scripts/fuzz/run.sh [SECONDS]     (default 60; FUZZ_SECONDS works too)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-${FUZZ_SECONDS:-60}}"
swift="${SWIFT:-swift}"
# A scratch path of its own: the sanitizer flags must not touch the release build `make
# bench` uses.
scratch=.build/fuzz
"$swift" build -c release --scratch-path "$scratch" --product dashpilot-fuzz-request \
  -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DFUZZING
binary="$("$swift" build -c release --scratch-path "$scratch" --show-bin-path)/dashpilot-fuzz-request"
mkdir -p "$scratch/corpus" "$scratch/findings"
echo "fuzzing the request parser for ${seconds} s"
"$binary" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -max_len=8192 \
  -dict=scripts/fuzz/request.dict -artifact_prefix="$scratch/findings/" -print_final_stats=1 \
  "$scratch/corpus" scripts/fuzz/corpus
