// The puzzle of a subcommand from --kind and --input / --input-file (and
// --board): the server parses the text (Solver.Parse), so that qsolve carries
// no puzzle family's format and offers whatever kinds the server lists. The
// raw model files (formats::kQuboModelKind), whose --format, --sense and
// --instance a server's parser does not take, are read here.
#ifndef QS_CLIENTS_CLI_PUZZLE_INPUT_H_
#define QS_CLIENTS_CLI_PUZZLE_INPUT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/solver_service.grpc.pb.h"

namespace qs::cli {

// The names a refusal of Parse gives the request's fields: the flags of a
// single puzzle by default; empty drops the field's name (a batch line names
// its line instead).
struct ParseFieldNames {
  std::string kind = "--kind";
  std::string text = "--input";
  std::string board = "--board";
};

// --kind, or when it is empty the first text kind the server lists (`qsolve
// families`), with `generating` the first that Generate makes.
absl::StatusOr<std::string> KindFromFlags(v1::Solver::Stub& stub,
                                          bool generating = false);

// True for the kind whose text qsolve reads itself: raw model files.
bool ReadsLocally(absl::string_view kind);
// Reads a text (and board) of such a kind with --format, --sense and
// --instance; errors as ParsePuzzle's.
absl::StatusOr<v1::ParseResponse> ReadLocally(
    absl::string_view kind, absl::string_view text,
    absl::string_view board = "", const ParseFieldNames& names = {});

// `text`, and `board` when it is not empty, of a puzzle of `kind`: parsed by
// the server, or here for raw model files. A text or board the server refuses
// is INVALID_ARGUMENT naming the field as `names` say; a failed call keeps
// its own status.
absl::StatusOr<v1::ParseResponse> ParsePuzzle(
    v1::Solver::Stub& stub, absl::string_view kind, absl::string_view text,
    absl::string_view board = "", const ParseFieldNames& names = {});

// The puzzle of --kind and --input / --input-file, and with `with_board` the
// board of --board (required then).
absl::StatusOr<v1::ParseResponse> PuzzleFromFlags(v1::Solver::Stub& stub,
                                                  bool with_board = false);

// Prints the status and returns the exit code of a puzzle that could not be
// read: 2 for input the client or the server refused (INVALID_ARGUMENT,
// NOT_FOUND), 1 for a failed call.
int ReportInputError(const absl::Status& status);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_PUZZLE_INPUT_H_
