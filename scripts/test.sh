#!/usr/bin/env bash
# The test command (what CI runs): installs what is missing (apt-get, idempotent), then runs five stages
# in four build trees (asan and fuzz share one):
#   main  Release build of everything (build/); every ctest test: unit, integration (in-process server,
#         a real Prometheus scraping it, the CLI, the HTTP front), python (the Python package against
#         qs_server), browser (the playground in Debian's chromium), docs (the examples of the README
#         and the docs tests/docs/run_doc_examples.py lists, against live servers), deploy (alert
#         rules, Kubernetes manifests)
#   asan  clang-14 ASan + UBSan build (build-asan/) of everything and of the libFuzzer targets; every C++
#         test, unit and integration, and the Python package's tests against the ASan server; memory
#         errors, undefined behaviour and leaks fail the test (the docs' examples run in main only)
#   tsan  TSan build (build-tsan/) of the integration tests of the server's concurrency, without the ones
#         that run qsolve, the D-Wave emulator or a puzzle family end to end; the suppressions of
#         tests/tsan.supp cover the uninstrumented Debian libraries
#   fuzz  the libFuzzer targets of build-asan/ (built there if the asan stage did not run); about 60 s of
#         fuzzing in all
#   container  deploy/container-test.sh: the image built with podman from a debootstrapped base around
#         the main stage's qs_server and qsolve (the Dockerfile's prebuilt target), run, solved through,
#         drained; deploy/compose.yaml with a real Prometheus scraping it (about 2 min)
# QS_TEST_STAGES picks stages ("main tsan"). Extra arguments go to ctest and, unless QS_TEST_STAGES
# says otherwise, run the main stage only: scripts/test.sh -L unit, scripts/test.sh -R Sudoku.
# BUILD_DIR overrides build/ for the main stage; JOBS the build parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

JOBS=${JOBS:-$(nproc)}
if (($# > 0)); then
  STAGES=${QS_TEST_STAGES:-main}
else
  STAGES=${QS_TEST_STAGES:-main asan tsan fuzz container}
fi
MAIN_DIR=${BUILD_DIR:-build}
passed=0
failed=0
skipped=0
timings=()

# Runs ctest, echoing its output, and adds its counts to the totals: passed, failed and skipped apart
# (ctest counts a skipped test, GTEST_SKIP's "[  SKIPPED ]", as passed in its summary line and lists it
# under "The following tests did not run"). --no-tests=error: a selection that matches nothing (a
# label no test carries, a tree without its tests) fails instead of passing having run nothing. A
# test without a TIMEOUT of its own fails after 900 s (the slowest C++ test takes about 90 s under
# ASan), so that a hang shows as one failure instead of using up the CI's time.
run_ctest() {
  local log
  log=$(mktemp)
  local status=0
  local pytest_skips
  pytest_skips=$(test_dir "$@")/Testing/pytest-skipped.txt
  rm -f "$pytest_skips"
  ctest --output-on-failure --no-tests=error --timeout 900 -j"$JOBS" "$@" 2>&1 | tee "$log" || status=$?
  local line not_run
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1 || true)
  not_run=$(sed -n '/^The following tests did not run:/,/^$/p' "$log" |
    grep -cE '^[[:space:]]+[0-9]+ - .* \((Skipped|Disabled)\)$' || true)
  rm -f "$log"
  if [[ $line =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
    failed=$((failed + BASH_REMATCH[1]))
    skipped=$((skipped + not_run))
    passed=$((passed + BASH_REMATCH[2] - BASH_REMATCH[1] - not_run))
    ((not_run == 0)) || print_skip_reasons "$@"
    count_pytest_skips "$pytest_skips"
  else
    # No summary: ctest found no test to run, or did not get as far.
    echo "run_ctest: no test ran (ctest $*)" >&2
    failed=$((failed + 1))
    ((status != 0)) || status=1
  fi
  return "$status"
}

# The tree of ctest's arguments ("--test-dir DIR"; . without it).
test_dir() {
  local dir=.
  while (($# > 0)); do
    if [[ $1 == --test-dir ]]; then dir=$2; fi
    shift
  done
  echo "$dir"
}

# pytest's skipped test cases: ctest counts the python test as one passed test whatever pytest skipped
# inside it, so its wrapper (tests/clients/python/run_pytest.sh) writes pytest's -rs lines to
# Testing/pytest-skipped.txt of its tree, one "SKIPPED [N] file:line: reason" line per reason, N test
# cases. Each of them counts as skipped, and the lines are printed as ctest's skips are.
count_pytest_skips() {
  local file=$1
  [[ -s $file ]] || return 0
  local n
  n=$(sed -nE 's/^SKIPPED \[([0-9]+)\] .*/\1/p' "$file" | awk '{ s += $1 } END { print s + 0 }')
  skipped=$((skipped + n))
  echo "Skipped pytest cases and their reasons:"
  sed -E 's/^SKIPPED \[([0-9]+)\] (.*)$/  python_client: \2 (\1 case(s))/' "$file"
}

# The skipped tests of the last ctest run in the tree of "--test-dir DIR" with the reason each gave
# (GTEST_SKIP's message, from ctest's LastTest.log).
print_skip_reasons() {
  local dir
  dir=$(test_dir "$@")
  local last=$dir/Testing/Temporary/LastTest.log
  [[ -f $last ]] || return 0
  echo "Skipped tests and their reasons:"
  awk '
    /^[0-9]+\/[0-9]+ Test: / { name = $3; reason = ""; in_skip = 0; next }
    / Skipped$/ { in_skip = 1; next }
    in_skip && /^\[  SKIPPED \]/ { printf "  %s: %s\n", name, (reason == "" ? "(no reason given)" : reason); in_skip = 0; next }
    in_skip && NF > 0 { reason = (reason == "" ? $0 : reason " " $0) }
  ' "$last"
}

# Names of the test binaries under tests/<dir>/ (one per *_test.cc).
test_targets() {
  local f
  for f in "$@"; do basename "$f" .cc; done
}

stage() {
  local name=$1
  local start=$SECONDS
  echo
  echo "=== stage $name"
  "stage_$name" "${EXTRA[@]}"
  timings+=("$name $((SECONDS - start))s")
}

stage_main() {
  BUILD_DIR=$MAIN_DIR JOBS=$JOBS scripts/build.sh
  run_ctest --test-dir "$MAIN_DIR" "$@"
}

# The ASan + UBSan tree of the asan and fuzz stages: clang-14, so that the libFuzzer targets build in
# it too (the core is compiled once for both).
configure_asan() {
  cmake -S . -B build-asan -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DQS_SANITIZE=address,undefined -DQS_FUZZ=ON -DQS_BUILD_BENCHMARKS=OFF -DQS_BUILD_TOOLS=OFF >/dev/null
}

stage_asan() {
  configure_asan
  # Every C++ test (unit and integration: the server, the CLI, the D-Wave emulator, a real Prometheus,
  # the HTTP front); the deploy tests check files, not code, and the browser test checks the page's
  # script in chromium, which no sanitizer looks into (the HTTP API it calls runs here in
  # http_api_test). The docs' examples check the docs; the code they reach is tested here by the C++
  # and Python tests. The fuzz targets are built here and run in the fuzz stage.
  cmake --build build-asan -j"$JOBS"
  ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_ctest --test-dir build-asan -LE 'deploy|browser|fuzz|docs' -E "$ASAN_SKIPPED" "$@"
}

# The test cases the asan stage leaves to the main stage: each spends one to three minutes under ASan
# repeating on a large input what a sibling of it runs there on the same code (the NYT Sudoku's
# minor-embedding beside the 8x8 Queens' through the same D-Wave path, a stalled reader's thousands of
# dropped samples beside the byte-bounded stalled reader of a large model, the Chess and Tents models'
# exhaustive checks beside their energy tests).
ASAN_SKIPPED='NytSudokuOverGrpc|NytSudokuSolvesWithAValidBoard|NytSudokuEmbedsOnPegasus16'
ASAN_SKIPPED+='|AStalledReaderGetsADroppedCount|DefaultLambdaNeverPrefersAThreatening'
ASAN_SKIPPED+='|TentsCompilerTest.ExactGroundStatesAreTheBoardsOfTheRules'


# The integration test binaries that the TSan stage leaves out: those that only run the qsolve or
# qs_loadgen binary (a TSan-built qsolve crashes inside the inline code of Debian's uninstrumented
# protobuf Map) or --help,
# the D-Wave emulator's (minor-embedding, no server concurrency, too slow under TSan for their waits),
# and the puzzle families' and the constrained models' end-to-end tests and the Parse and Draw tests, which go through the same Solve,
# Compile and unary calls as solve_service_test (the main and asan stages run them all).
TSAN_SKIPPED='^(backend_params|binary_encoding_cli|cli_batch|cli_families|cli_formats|cli_help|cli|dwave_http|dwave'
TSAN_SKIPPED+='|draw_service|exact_cli|loadgen|model_service|parse_service|patches_service|replicas|preprocess'
TSAN_SKIPPED+='|queens_server'
TSAN_SKIPPED+='|takuzu_solve|tents_chess_service)_test$'

stage_tsan() {
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQS_SANITIZE=thread \
    -DQS_BUILD_BENCHMARKS=OFF -DQS_BUILD_TOOLS=OFF >/dev/null
  # Only the integration tests it runs (and what they depend on); the binaries not built have no
  # label, so -L integration passes them by.
  local targets
  targets=$(test_targets tests/integration/*_test.cc | grep -vE "$TSAN_SKIPPED")
  # shellcheck disable=SC2086
  cmake --build build-tsan -j"$JOBS" --target $targets
  # Within the binaries built, the tests that run qsolve carry Cli (followed by a capital: CliTest,
  # CliExportsQasm...) or Qsolve in their names; a plain 'Cli' would also drop the client tests
  # (ClientCancelStopsTheAnneal, DisconnectingClientCancelsItsSolve, ClientsThatNeverRead...), which
  # are server concurrency, and a plain 'Dwave' the silent-SAPI batch test, which runs no emulator.
  # LargeSamplesAreBoundedInBytes (a 300,000-spin model's samples, 140 s under TSan) is a memory bound,
  # which the main and asan stages check; its concurrency is the stalled reader's case beside it.
  run_ctest --test-dir build-tsan -L integration \
    -E 'Cli[A-Z]|Qsolve|^Replicas|^Dwave|LargeSamplesAreBoundedInBytes' "$@"
}

stage_fuzz() {
  configure_asan
  # Built by the asan stage already when it ran.
  cmake --build build-asan -j"$JOBS" --target fuzzers
  run_ctest --test-dir build-asan -L fuzz "$@"
}

stage_container() {
  local status=0
  # The image around the main stage's qs_server and qsolve (the Dockerfile's prebuilt target): the
  # compile of the default `podman build .` is the main stage's Release build again.
  BUILD_DIR=$MAIN_DIR PREBUILT=1 deploy/container-test.sh || status=$?
  if ((status == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  return "$status"
}

EXTRA=("$@")
total_start=$SECONDS
for s in $STAGES; do
  stage "$s"
done
echo
echo "stage times: ${timings[*]}; total $((SECONDS - total_start))s"
echo "$passed passed, $failed failed, $skipped skipped"
