// libFuzzer target of the proto -> compile path (docs/architecture.md §5 steps
// 4-5): random well-formed PuzzleSpecs of every family (built by reflection
// from the bytes, tests/fuzz/proto_filler.h), with random compile options,
// solve parameters and a random board, through SolveEngine::CheckSolveRequest,
// Compile and Validate. See tests/fuzz/fuzz_engine.h for what counts as a
// failure and tests/fuzz/README.md for how to run it longer.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>

#include "google/protobuf/stubs/logging.h"
#include "tests/fuzz/fuzz_engine.h"
#include "tests/fuzz/proto_filler.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  qs::fuzz::Engine();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  qs::fuzz::ProtoFiller filler(input);
  qs::v1::PuzzleSpec puzzle;
  filler.Fill(puzzle);
  qs::v1::CompileOptions options;
  filler.Fill(options);
  qs::v1::SolveParams params;
  filler.Fill(params);
  qs::v1::PuzzleSolution solution;
  filler.Fill(solution);
  qs::fuzz::CheckEnginePath(puzzle, options, params, solution);
  return 0;
}
