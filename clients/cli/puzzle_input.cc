// Puzzles from the flags through the server's Parse; see puzzle_input.h.
#include "clients/cli/puzzle_input.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "clients/cli/cli_common.h"
#include "formats/model_text.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_formats.h"

ABSL_DECLARE_FLAG(std::string, kind);
ABSL_DECLARE_FLAG(std::string, input);
ABSL_DECLARE_FLAG(std::string, input_file);
ABSL_DECLARE_FLAG(std::string, board);
ABSL_DECLARE_FLAG(std::string, format);

namespace qs::cli {
namespace {

absl::StatusOr<std::string> InputTextFromFlags() {
  std::string text = absl::GetFlag(FLAGS_input);
  const std::string file = absl::GetFlag(FLAGS_input_file);
  if (!file.empty()) {
    if (!text.empty())
      return absl::InvalidArgumentError(
          "give --input or --input-file, not both");
    std::ifstream in(file);
    if (!in)
      return absl::NotFoundError(
          absl::StrCat("--input-file: cannot open ", file));
    std::stringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  if (absl::StripAsciiWhitespace(text).empty()) {
    return absl::InvalidArgumentError(
        "--input or --input-file: no puzzle given");
  }
  return text;
}

// "NAME: message" for `name`; the message alone when `name` is empty.
std::string Named(absl::string_view name, absl::string_view message) {
  return name.empty() ? std::string(message)
                      : absl::StrCat(name, ": ", message);
}

// The server's refusal names the request's field first ("text: ..."); the
// user knows that field by another name.
absl::Status Renamed(const grpc::Status& status, const ParseFieldNames& names) {
  const std::string text = status.error_message();  // a copy, not a view
  absl::string_view message = text;
  if (status.error_code() == grpc::StatusCode::INVALID_ARGUMENT) {
    for (const auto& [field, name] :
         {std::pair<absl::string_view, absl::string_view>{"kind: ", names.kind},
          {"text: ", names.text},
          {"board: ", names.board}}) {
      if (absl::ConsumePrefix(&message, field))
        return absl::InvalidArgumentError(Named(name, message));
    }
  }
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      message);
}

}  // namespace

absl::StatusOr<std::string> KindFromFlags(v1::Solver::Stub& stub,
                                          bool generating) {
  const std::string kind = absl::GetFlag(FLAGS_kind);
  if (!kind.empty()) return kind;
  grpc::ClientContext context;
  PrepareContext(context);
  v1::ListFamiliesResponse response;
  const grpc::Status status =
      stub.ListFamilies(&context, v1::ListFamiliesRequest(), &response);
  if (!status.ok())
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        status.error_message());
  for (const v1::FamilyDescription& family : response.families()) {
    if (!generating || family.generate()) return family.kind();
  }
  return absl::InvalidArgumentError(
      generating ? "--kind: the server generates no puzzles"
                 : "--kind: the server lists no puzzle kinds");
}

bool ReadsLocally(absl::string_view kind) {
  return kind == formats::kQuboModelKind || kind == formats::kModelKind;
}

namespace {

// A constrained model's format: --format, else the --input-file's extension,
// else none (the reader tells it from the text).
absl::StatusOr<v1::ModelFormat> ModelFormatFromFlags() {
  std::string name = absl::GetFlag(FLAGS_format);
  if (name == "auto") {
    const std::string file = absl::GetFlag(FLAGS_input_file);
    const size_t dot = file.rfind('.');
    name = dot == std::string::npos
               ? ""
               : absl::AsciiStrToLower(file.substr(dot + 1));
    if (name != "lp" && name != "opb" && name != "qplib") name = "";
  }
  if (name.empty()) return v1::MODEL_FORMAT_UNSPECIFIED;
  if (name == "lp") return v1::MODEL_FORMAT_LP;
  if (name == "opb") return v1::MODEL_FORMAT_OPB;
  if (name == "qplib") return v1::MODEL_FORMAT_QPLIB;
  return absl::InvalidArgumentError(absl::StrCat(
      "--format: lp, opb, qplib or auto for --kind model, got '", name, "'"));
}

// The model goes to the server as its text, so that the server reports the
// format it read; it is read here too, so that a malformed file is refused
// before any call, naming its line, and a board is read against its names.
absl::StatusOr<v1::ParseResponse> ReadModelLocally(
    absl::string_view text, absl::string_view board,
    const ParseFieldNames& names) {
  absl::StatusOr<v1::ModelFormat> format = ModelFormatFromFlags();
  if (!format.ok()) return format.status();
  absl::StatusOr<v1::ConstrainedModel> model =
      formats::ParseModelText(text, *format);
  if (!model.ok())
    return absl::InvalidArgumentError(
        Named(names.text, model.status().message()));
  v1::ParseResponse response;
  v1::ConstrainedModel* sent = response.mutable_puzzle()->mutable_model();
  sent->set_text(std::string(text));
  sent->set_format(*format);
  if (!board.empty()) {
    v1::PuzzleSpec structured;
    *structured.mutable_model() = *std::move(model);
    auto cells =
        formats::ParseBoardText(formats::kModelKind, structured, board);
    if (!cells.ok())
      return absl::InvalidArgumentError(
          Named(names.board, cells.status().message()));
    *response.mutable_board() = *std::move(cells);
  }
  return response;
}

}  // namespace

absl::StatusOr<v1::ParseResponse> ReadLocally(absl::string_view kind,
                                              absl::string_view text,
                                              absl::string_view board,
                                              const ParseFieldNames& names) {
  if (kind == formats::kModelKind) return ReadModelLocally(text, board, names);
  auto options = QuboReadOptionsFromFlags();
  if (!options.ok()) return options.status();
  v1::ParseResponse response;
  auto puzzle = formats::ParseQuboPuzzleText(text, *options);
  if (!puzzle.ok())
    return absl::InvalidArgumentError(
        Named(names.text, puzzle.status().message()));
  *response.mutable_puzzle() = *std::move(puzzle);
  if (!board.empty()) {
    auto cells = formats::ParseBoardText(kind, response.puzzle(), board);
    if (!cells.ok())
      return absl::InvalidArgumentError(
          Named(names.board, cells.status().message()));
    *response.mutable_board() = *std::move(cells);
  }
  return response;
}

absl::StatusOr<v1::ParseResponse> ParsePuzzle(v1::Solver::Stub& stub,
                                              absl::string_view kind,
                                              absl::string_view text,
                                              absl::string_view board,
                                              const ParseFieldNames& names) {
  if (ReadsLocally(kind)) return ReadLocally(kind, text, board, names);
  v1::ParseRequest request;
  request.set_kind(std::string(kind));
  request.set_text(std::string(text));
  request.set_board(std::string(board));
  grpc::ClientContext context;
  PrepareContext(context);
  v1::ParseResponse response;
  const grpc::Status status = stub.Parse(&context, request, &response);
  if (!status.ok()) return Renamed(status, names);
  return response;
}

absl::StatusOr<v1::ParseResponse> PuzzleFromFlags(v1::Solver::Stub& stub,
                                                  bool with_board) {
  absl::StatusOr<std::string> text = InputTextFromFlags();
  if (!text.ok()) return text.status();
  const std::string board = with_board ? absl::GetFlag(FLAGS_board) : "";
  if (with_board && board.empty())
    return absl::InvalidArgumentError("--board: no board given");
  absl::StatusOr<std::string> kind = KindFromFlags(stub);
  if (!kind.ok()) return kind.status();
  ParseFieldNames names;
  if (!absl::GetFlag(FLAGS_input_file).empty()) names.text = "--input-file";
  return ParsePuzzle(stub, *kind, *text, board, names);
}

int ReportInputError(const absl::Status& status) {
  if (status.code() == absl::StatusCode::kInvalidArgument ||
      status.code() == absl::StatusCode::kNotFound)
    return ReportLocalError(status);
  std::fprintf(stderr, "%s: %s\n",
               absl::StatusCodeToString(status.code()).c_str(),
               std::string(status.message()).c_str());
  PrintUnreachableHint(status.code(), status.message());
  return kExitRpcError;
}

}  // namespace qs::cli
