// Shared pieces of the qsolve subcommands: channel set-up, building request
// messages from flags (the puzzle itself: puzzle_input.h), and the exit
// convention (0 when the RPC succeeded; otherwise the gRPC status name and
// message on stderr and a non-zero exit).
#ifndef QS_CLIENTS_CLI_CLI_COMMON_H_
#define QS_CLIENTS_CLI_CLI_COMMON_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "formats/qubo_formats.h"
#include "google/protobuf/struct.pb.h"
#include "grpcpp/grpcpp.h"
#include "qs/v1/solve.pb.h"

namespace qs::cli {

inline constexpr int kExitRpcError = 1;
inline constexpr int kExitUsage = 2;

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address);
// The same with extra channel arguments (load balancing, reconnect backoff).
std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address,
                                           grpc::ChannelArguments args);

// The bearer token from --token_file or QS_AUTH_TOKEN; empty when none.
std::string AuthToken();

// Sets the call deadline from --deadline (seconds; 0: none) and the bearer
// token from --token_file or the QS_AUTH_TOKEN environment variable.
void PrepareContext(grpc::ClientContext& context);

// How raw model files are read: --format, --sense and --instance.
absl::StatusOr<formats::QuboReadOptions> QuboReadOptionsFromFlags();

// The energy at which a raw model's own objective equals `objective`:
// -objective for a maximised one (a graph's cut, a model read with sense
// MAXIMIZE), objective itself for a minimised one; INVALID_ARGUMENT for
// puzzles (formats/objective_sense.h).
absl::StatusOr<double> EnergyForObjective(const v1::PuzzleSpec& puzzle,
                                          double objective);
// --target_objective as params.target_energy (EnergyForObjective), so that
// the server stops the solve when a read reaches it.
absl::Status ApplyTargetObjective(const v1::PuzzleSpec& puzzle,
                                  v1::SolveParams& params);

// Compile options from --reduction (none|clues|full; default: the family's
// strongest), --encoding, --preprocess (none|roof|qpro) and --export.
absl::StatusOr<v1::CompileOptions> CompileOptionsFromFlags();
// --encoding: one_hot (or empty, the default) or binary.
absl::StatusOr<v1::Encoding> EncodingFromFlags();

// Solve parameters from --backend, --reads, --sweeps, --seed, --time_limit,
// --stop_at_first_valid ...
absl::StatusOr<v1::SolveParams> SolveParamsFromFlags();

// Prints "CODE: message" to stderr and returns the exit code for a failed RPC
// or bad local input.
int ReportRpcError(const grpc::Status& status);
int ReportLocalError(const absl::Status& status);
// After an UNAVAILABLE that says no connection was made (no server listens at
// --addr, or its name does not resolve), a line on stderr saying how to start
// one or where to point --addr: the status alone names no way out.
void PrintUnreachableHint(absl::StatusCode code, absl::string_view message);
// The line itself, for a caller that knows no server answered (a batch whose
// every item gave up waiting for one).
void PrintNoServerHint();

// Protobuf JSON (field names as in the proto, all fields) of a message on one
// line.
std::string ToJson(const google::protobuf::Message& message);
// The message as a JSON object (its ToJson form).
google::protobuf::Struct MessageStruct(
    const google::protobuf::Message& message);
// A constrained model's compile report for people: sizes, then one line per
// penalty weight.
std::string ModelReportText(const v1::ModelReport& report);

// JSON values for the hand-built objects of --json output.
google::protobuf::Value JsonNumber(double x);
google::protobuf::Value JsonBool(bool b);
google::protobuf::Value JsonString(const std::string& s);
google::protobuf::Value JsonNull();
google::protobuf::Value JsonStrings(const std::vector<std::string>& items);

// "location: message" of a rule violation.
std::string ViolationText(const v1::Violation& violation);

// A constrained model's answer in the model's terms (the scripting contract
// of docs/model.md): feasible, assignment (name -> value), violations (the
// broken constraints' names) and violation_amounts (name -> amount).
void AddModelAnswerJson(const v1::SolveSummary& summary,
                        google::protobuf::Struct& out);

// The result object of one solve (the last line of `solve --json`, and the
// solve fields of a `batch` line): valid, energy, ground_energy, board,
// violations, objective (null where the family has none), termination,
// reads, num_valid, success_fraction, seed, backend,
// variables, variables_total, attempts_per_second, timings, request_id.
google::protobuf::Struct SolveResultJson(const v1::CompileStats& stats,
                                         const v1::SolveSummary& summary);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_CLI_COMMON_H_
