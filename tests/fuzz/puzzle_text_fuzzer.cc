// libFuzzer target of one text puzzle format of formats (the kind is
// QS_FUZZ_KIND, one target per kind, listed in tests/fuzz/CMakeLists.txt). The
// bytes are a puzzle text, optionally followed by a NUL and a board text.
// Parsers must return a spec or INVALID_ARGUMENT, never crash; what they
// return must serialize, parse back equal, and go through the core path
// (CheckSolveRequest, Compile, Validate with the parsed board) like a real
// request (tests/fuzz/fuzz_engine.h). See tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "formats/puzzle_text.h"
#include "tests/fuzz/fuzz_engine.h"

#ifndef QS_FUZZ_KIND
#error "QS_FUZZ_KIND (the puzzle kind to fuzz) must be defined"
#endif

namespace {

void ExpectParseError(const absl::Status& status,
                      const google::protobuf::Message& context) {
  if (status.code() != absl::StatusCode::kInvalidArgument)
    qs::fuzz::CheckCallerError("parser status", status, context);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  qs::fuzz::Initialize();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const qs::fuzz::TextInput input = qs::fuzz::SplitTextInput(data, size);
  auto spec = qs::formats::ParsePuzzleText(QS_FUZZ_KIND, input.text);
  if (!spec.ok()) {
    ExpectParseError(spec.status(), qs::v1::PuzzleSpec());
    return 0;
  }
  qs::fuzz::CheckSerializes(*spec);
  qs::v1::PuzzleSolution board;
  if (input.has_board) {
    auto parsed = qs::formats::ParseBoardText(QS_FUZZ_KIND, *spec, input.board);
    if (parsed.ok()) {
      board = *std::move(parsed);
    } else {
      ExpectParseError(parsed.status(), *spec);
    }
  }
  qs::fuzz::CheckEnginePath(*spec, qs::v1::CompileOptions(),
                            qs::v1::SolveParams(), board);
  return 0;
}
