// libFuzzer target of one text puzzle format of formats (the kind is
// QS_FUZZ_KIND, one target per kind, listed in tests/fuzz/CMakeLists.txt). The
// bytes are a puzzle text, optionally followed by a NUL and a board text.
// Parsers must return a spec or INVALID_ARGUMENT, never crash; what they
// return must serialize, parse back equal, and go through the core path
// (CheckSolveRequest, Compile, Validate with the parsed board) like a real
// request (tests/fuzz/fuzz_engine.h). See tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/util/message_differencer.h"
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
  google::protobuf::SetLogHandler(nullptr);
  qs::fuzz::Engine();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const absl::string_view puzzle_text = input.substr(0, nul);
  const absl::string_view board_text = nul == absl::string_view::npos
                                           ? absl::string_view()
                                           : input.substr(nul + 1);

  auto spec = qs::formats::ParsePuzzleText(QS_FUZZ_KIND, puzzle_text);
  if (!spec.ok()) {
    ExpectParseError(spec.status(), qs::v1::PuzzleSpec());
    return 0;
  }
  // What the CLI sends is what the server reads.
  qs::v1::PuzzleSpec back;
  if (!back.ParseFromString(spec->SerializeAsString()) ||
      !google::protobuf::util::MessageDifferencer::Equals(back, *spec)) {
    std::fprintf(stderr, "spec does not survive serialization\n");
    std::abort();
  }
  qs::v1::PuzzleSolution board;
  if (nul != absl::string_view::npos) {
    auto parsed = qs::formats::ParseBoardText(QS_FUZZ_KIND, *spec, board_text);
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
