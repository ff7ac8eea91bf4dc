// libFuzzer target of one text format of the model kind (LP, OPB or QPLIB:
// QS_FUZZ_MODEL_FORMAT, one target per format, listed in
// tests/fuzz/CMakeLists.txt). The model kind's puzzle text tells the format
// from the text first, so a mutated input would mostly stop there; these
// targets hand the bytes to the format's reader directly. The bytes are a
// model text, optionally followed by a NUL and a board "name=value ...".
// Readers and writers must return a result or a caller error such as
// INVALID_ARGUMENT, never crash; a model read must serialize and parse back
// equal; and the text goes through the core path (CheckSolveRequest, Compile,
// Validate with the parsed board) as qsolve sends it: the text and its
// format, which the server reads again (tests/fuzz/fuzz_engine.h). See
// tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "formats/model_text.h"
#include "formats/puzzle_text.h"
#include "tests/fuzz/fuzz_engine.h"

#ifndef QS_FUZZ_MODEL_FORMAT
#error "QS_FUZZ_MODEL_FORMAT (lp, opb or qplib) must be defined"
#endif

namespace {

qs::v1::ModelFormat FuzzedFormat() {
  const absl::string_view name = QS_FUZZ_MODEL_FORMAT;
  if (name == "lp") return qs::v1::MODEL_FORMAT_LP;
  if (name == "opb") return qs::v1::MODEL_FORMAT_OPB;
  if (name == "qplib") return qs::v1::MODEL_FORMAT_QPLIB;
  std::fprintf(stderr, "QS_FUZZ_MODEL_FORMAT: lp, opb or qplib, got %s\n",
               QS_FUZZ_MODEL_FORMAT);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  qs::fuzz::Initialize();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const qs::v1::ModelFormat format = FuzzedFormat();
  const qs::fuzz::TextInput input = qs::fuzz::SplitTextInput(data, size);
  const absl::string_view model_text = input.text;

  // Telling the format is the first step of a text without one.
  qs::fuzz::CheckCallerError(
      "DetectModelFormat", qs::formats::DetectModelFormat(model_text).status(),
      qs::v1::ConstrainedModel());
  auto model = qs::formats::ParseModelText(model_text, format);
  if (!model.ok()) {
    qs::fuzz::CheckCallerError("ParseModelText", model.status(),
                               qs::v1::ConstrainedModel());
    return 0;
  }
  qs::fuzz::CheckSerializes(*model);
  // The writers refuse what their format cannot hold; they never fail
  // otherwise.
  qs::fuzz::CheckCallerError(
      "WriteModelLp", qs::formats::WriteModelLp(*model).status(), *model);
  qs::fuzz::CheckCallerError(
      "WriteModelOpb", qs::formats::WriteModelOpb(*model).status(), *model);
  qs::fuzz::CheckCallerError("WriteLinearizedMilp",
                             qs::formats::WriteLinearizedMilp(*model).status(),
                             *model);

  qs::v1::PuzzleSpec structured;
  *structured.mutable_model() = *model;
  qs::v1::PuzzleSolution board;
  if (input.has_board) {
    auto parsed = qs::formats::ParseBoardText(qs::formats::kModelKind,
                                              structured, input.board);
    if (parsed.ok()) {
      board = *std::move(parsed);
    } else {
      qs::fuzz::CheckCallerError("ParseBoardText", parsed.status(), structured);
    }
  }
  qs::v1::PuzzleSpec sent;
  sent.mutable_model()->set_text(std::string(model_text));
  sent.mutable_model()->set_format(format);
  qs::fuzz::CheckEnginePath(sent, qs::v1::CompileOptions(),
                            qs::v1::SolveParams(), board);
  return 0;
}
