// Flags shared by the qsolve subcommands and the helpers that read them.
#include "clients/cli/cli_common.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "clients/cli/backend_details.h"
#include "clients/cli/dwave_flags.h"
#include "clients/cli/param_flags.h"
#include "clients/cli/qaoa_flags.h"
#include "formats/objective_sense.h"
#include "formats/qubo_formats.h"
#include "google/protobuf/util/json_util.h"

ABSL_FLAG(std::string, addr, "127.0.0.1:50051",
          "Server address host:port (or a gRPC target such as ipv4:a,b)");
ABSL_FLAG(std::string, kind, "",
          "Text kind of the puzzle, one the server lists (`qsolve "
          "families`); default: the first it lists");
ABSL_FLAG(std::string, input, "",
          "Puzzle text in the format of --kind (the server parses it)");
ABSL_FLAG(std::string, input_file, "", "File holding the puzzle text");
ABSL_FLAG(std::string, format, "auto",
          "--kind qubo: the file format (auto, text, qbsolv, orlib, coo, "
          "ising); --kind model: lp, opb or qplib (auto: the --input-file's "
          "extension, else told from the text)");
ABSL_FLAG(std::string, sense, "",
          "--kind qubo: min or max, the direction of the file's objective "
          "(default: max for orlib, min for the others)");
ABSL_FLAG(int64_t, instance, 1,
          "--kind qubo --format orlib: which instance of the file (1-based)");
ABSL_FLAG(std::string, target_objective, "",
          "solve: stop when a raw model's own objective reaches this value "
          "(a graph's cut weight; a --sense max model's maximised value), or "
          "a constrained model's objective as its file writes it, at a "
          "feasible answer");
ABSL_FLAG(double, deadline, 0, "Call deadline in seconds; 0: none");
ABSL_FLAG(std::string, reduction, "",
          "none, clues or full (default: the family's strongest)");
ABSL_FLAG(std::string, encoding, "",
          "compile, solve, count: one_hot (default) or binary (a family's "
          "higher-order model where it has one, docs/binary-encoding.md)");
ABSL_FLAG(std::string, preprocess, "",
          "Preprocessing of the reduced QUBO: none, roof (roof duality) or "
          "qpro (roof duality, then the QPRO+ rules); default none");
ABSL_FLAG(std::string, backend, "",
          "Backend (see `qsolve backends`); default: the server's (auto, "
          "which picks and races the others)");
ABSL_FLAG(std::string, auto_exact, "",
          "Backend auto: race (default: sat races beside the samplers), "
          "proof (exact engines only prove infeasibility or optimality) or "
          "off (QUBO samplers only)");
ABSL_FLAG(std::string, group_moves, "",
          "Backends auto, cpu-sa, tabu and pa: on (moves that keep the "
          "problem's one-hot groups where it has them; auto's default, the "
          "samplers' on constrained models) or off (single flips of the bare "
          "QUBO)");
ABSL_FLAG(int64_t, reads, -1, "Number of reads; default: the server's (100)");
// A string so that `qsolve bench --sweeps 100,1000,10000` can take a list.
ABSL_FLAG(std::string, sweeps, "",
          "Sweeps per read; default: the server's (1000). bench: a "
          "comma-separated list of budgets");
ABSL_FLAG(
    int64_t, seed, -1,
    "Random seed (same seed, same samples); default: the server draws one");
ABSL_FLAG(double, time_limit, 0,
          "Time budget in seconds (solve: the sampling; count, generate: the "
          "whole call); 0: none");
ABSL_FLAG(bool, stop_at_first_valid, false,
          "Stop as soon as one read decodes to a valid board");
ABSL_FLAG(bool, aggregate, false, "Merge identical samples");
ABSL_FLAG(bool, distinct_valid, false,
          "Uniform sampling: stream only valid boards, each distinct one once");
ABSL_FLAG(int64_t, max_solutions, 0,
          "Backend sat: boards to find (the parameter max_solutions; its "
          "default: qsolve backends --describe sat)");
ABSL_FLAG(int64_t, max_samples, 0,
          "Stream at most this many samples (lowest energy first); 0: all");
ABSL_FLAG(double, beta_hot, 0,
          "Initial inverse temperature (the parameter beta_hot of cpu-sa, pt, "
          "pa); 0: the backend's default");
ABSL_FLAG(double, beta_cold, 0,
          "Final inverse temperature (the parameter beta_cold); 0: the "
          "backend's default");
ABSL_FLAG(std::string, schedule, "",
          "geometric or linear (the parameter schedule of cpu-sa and pa)");
ABSL_FLAG(std::string, beta_range, "",
          "Rule that derives the beta range: tuned or dwave (dwave-samplers' "
          "range, for like-for-like comparisons); the parameter beta_range");
ABSL_FLAG(int64_t, sweeps_per_beta, 0,
          "Sweeps at each beta of the schedule (the parameter "
          "sweeps_per_beta); 0: the backend's default");
ABSL_FLAG(std::string, acceptance, "",
          "metropolis or gibbs (the parameter acceptance of cpu-sa)");
ABSL_FLAG(std::string, kernel, "",
          "Annealing kernel path: auto, scalar, avx2 or avx512 (the parameter "
          "kernel)");
// --backend pt only (with --beta_hot, --beta_cold and --kernel).
ABSL_FLAG(int64_t, replicas, 0,
          "Backend pt: rungs of each ladder (the parameter replicas); 0: its "
          "default");
ABSL_FLAG(std::string, moves, "",
          "Backend pt: single_flip or one_hot_swap (the parameter moves)");
// --backend dwave only.
ABSL_FLAG(std::string, solver, "",
          "D-Wave solver name (the parameter solver of dwave)");
ABSL_FLAG(double, annealing_time, 0,
          "D-Wave anneal time per read in microseconds (annealing_time_us); 0: "
          "its default");
ABSL_FLAG(
    double, chain_strength, 0,
    "D-Wave chain strength, Ising units (chain_strength); 0: its default");
ABSL_FLAG(double, chain_strength_prefactor, 0,
          "Prefactor of uniform torque compensation "
          "(chain_strength_prefactor); 0: its default");
ABSL_FLAG(std::string, auto_scale, "",
          "D-Wave auto_scale: true or false (the parameter auto_scale)");
ABSL_FLAG(std::string, label, "", "D-Wave problem label");

ABSL_FLAG(std::string, tls_ca_file, "",
          "PEM CA that signed the server certificate; turns TLS on");
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM client certificate, for servers that require mutual TLS");
ABSL_FLAG(std::string, tls_key_file, "",
          "PEM private key of the client certificate");
ABSL_FLAG(std::string, tls_server_name, "",
          "Name to verify in the server certificate; default: the host");
ABSL_FLAG(std::string, token_file, "",
          "File holding the bearer token; default: the QS_AUTH_TOKEN "
          "environment variable");

namespace qs::cli {
namespace {

std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address) {
  return MakeChannel(address, grpc::ChannelArguments());
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address,
                                           grpc::ChannelArguments args) {
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  const std::string ca_file = absl::GetFlag(FLAGS_tls_ca_file);
  if (ca_file.empty()) {
    return grpc::CreateCustomChannel(address,
                                     grpc::InsecureChannelCredentials(), args);
  }
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = ReadFileOrEmpty(ca_file);
  if (const std::string cert = absl::GetFlag(FLAGS_tls_cert_file);
      !cert.empty()) {
    ssl.pem_cert_chain = ReadFileOrEmpty(cert);
    ssl.pem_private_key = ReadFileOrEmpty(absl::GetFlag(FLAGS_tls_key_file));
  }
  if (const std::string name = absl::GetFlag(FLAGS_tls_server_name);
      !name.empty()) {
    args.SetSslTargetNameOverride(name);
  }
  return grpc::CreateCustomChannel(address, grpc::SslCredentials(ssl), args);
}

void PrepareContext(grpc::ClientContext& context) {
  const double seconds = absl::GetFlag(FLAGS_deadline);
  if (seconds > 0) {
    context.set_deadline(
        std::chrono::system_clock::now() +
        std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6)));
  }
  const std::string token = AuthToken();
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
}

std::string AuthToken() {
  if (const std::string file = absl::GetFlag(FLAGS_token_file); !file.empty())
    return std::string(absl::StripAsciiWhitespace(ReadFileOrEmpty(file)));
  if (const char* env = std::getenv("QS_AUTH_TOKEN"); env != nullptr)
    return env;
  return "";
}

absl::StatusOr<formats::QuboReadOptions> QuboReadOptionsFromFlags() {
  formats::QuboReadOptions options;
  auto format = formats::ParseQuboFormatName(absl::GetFlag(FLAGS_format));
  if (!format.ok()) return format.status();
  options.format = *format;
  const std::string sense = absl::GetFlag(FLAGS_sense);
  if (sense == "min") {
    options.sense = v1::MINIMIZE;
  } else if (sense == "max") {
    options.sense = v1::MAXIMIZE;
  } else if (!sense.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--sense: min or max, got '", sense, "'"));
  }
  const int64_t instance = absl::GetFlag(FLAGS_instance);
  if (instance < 1 || instance > INT32_MAX)
    return absl::InvalidArgumentError("--instance: must be >= 1");
  options.instance = static_cast<int>(instance);
  return options;
}

absl::StatusOr<double> EnergyForObjective(const v1::PuzzleSpec& puzzle,
                                          double objective) {
  const std::optional<v1::Sense> sense = formats::ObjectiveSense(puzzle);
  if (!sense.has_value()) {
    return absl::InvalidArgumentError(
        "--target_objective: only raw models (QUBO models, graphs) and "
        "constrained models have an objective");
  }
  return *sense == v1::MAXIMIZE ? -objective : objective;
}

absl::Status ApplyTargetObjective(const v1::PuzzleSpec& puzzle,
                                  v1::SolveParams& params) {
  const std::string text = absl::GetFlag(FLAGS_target_objective);
  if (text.empty()) return absl::OkStatus();
  double objective;
  if (!absl::SimpleAtod(text, &objective) || !std::isfinite(objective)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--target_objective: expected a number, got '", text, "'"));
  }
  auto energy = EnergyForObjective(puzzle, objective);
  if (!energy.ok()) return energy.status();
  params.set_target_energy(*energy);
  // A constrained model's target counts at a feasible answer only (the
  // server compares the answer's own objective).
  if (puzzle.has_model()) params.set_stop_at_first_valid(true);
  return absl::OkStatus();
}

absl::StatusOr<v1::CompileOptions> CompileOptionsFromFlags() {
  v1::CompileOptions options;
  const std::string reduction = absl::GetFlag(FLAGS_reduction);
  if (reduction.empty()) {
    options.set_reduction(v1::REDUCTION_DEFAULT);
  } else if (reduction == "none") {
    options.set_reduction(v1::REDUCTION_NONE);
  } else if (reduction == "clues") {
    options.set_reduction(v1::REDUCTION_CLUES);
  } else if (reduction == "full") {
    options.set_reduction(v1::REDUCTION_FULL);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--reduction: none, clues or full, got '", reduction, "'"));
  }
  const absl::StatusOr<v1::Encoding> encoding = EncodingFromFlags();
  if (!encoding.ok()) return encoding.status();
  options.set_encoding(*encoding);
  const std::string preprocess = absl::GetFlag(FLAGS_preprocess);
  if (preprocess.empty() || preprocess == "none") {
    options.set_preprocess(v1::PREPROCESS_NONE);
  } else if (preprocess == "roof") {
    options.set_preprocess(v1::PREPROCESS_ROOF);
  } else if (preprocess == "qpro") {
    options.set_preprocess(v1::PREPROCESS_QPRO);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--preprocess: none, roof or qpro, got '", preprocess, "'"));
  }
  return options;
}

absl::StatusOr<v1::Encoding> EncodingFromFlags() {
  const std::string encoding = absl::GetFlag(FLAGS_encoding);
  if (encoding.empty()) return v1::ENCODING_DEFAULT;
  if (encoding == "one_hot") return v1::ENCODING_ONE_HOT;
  if (encoding == "binary") return v1::ENCODING_BINARY;
  return absl::InvalidArgumentError(
      absl::StrCat("--encoding: one_hot or binary, got '", encoding, "'"));
}

absl::StatusOr<v1::SolveParams> SolveParamsFromFlags() {
  v1::SolveParams params;
  params.set_backend(absl::GetFlag(FLAGS_backend));
  const int64_t reads = absl::GetFlag(FLAGS_reads);
  int64_t sweeps = -1;
  if (const std::string text = absl::GetFlag(FLAGS_sweeps);
      !text.empty() && !absl::SimpleAtoi(text, &sweeps)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--sweeps: expected a number, got '", text, "'"));
  }
  const int64_t seed = absl::GetFlag(FLAGS_seed);
  // Out-of-range values go to the server unchanged so that it answers with its
  // own limits.
  if (reads >= 0)
    params.set_num_reads(
        static_cast<uint32_t>(std::min<int64_t>(reads, UINT32_MAX)));
  if (sweeps >= 0)
    params.set_num_sweeps(
        static_cast<uint32_t>(std::min<int64_t>(sweeps, UINT32_MAX)));
  if (seed >= 0) params.set_seed(static_cast<uint64_t>(seed));
  params.set_time_limit_seconds(absl::GetFlag(FLAGS_time_limit));
  params.set_stop_at_first_valid(absl::GetFlag(FLAGS_stop_at_first_valid));
  params.set_aggregate(absl::GetFlag(FLAGS_aggregate));
  params.set_distinct_valid(absl::GetFlag(FLAGS_distinct_valid));
  const int64_t max_samples = absl::GetFlag(FLAGS_max_samples);
  if (max_samples < 0)
    return absl::InvalidArgumentError("--max_samples must be >= 0");
  params.set_max_sample_events(
      static_cast<uint32_t>(std::min<int64_t>(max_samples, UINT32_MAX)));
  absl::StatusOr<std::vector<ParamSetting>> settings = ParamSettingsFromFlags();
  if (!settings.ok()) return settings.status();
  if (absl::Status status = ApplyParamSettings(*settings, params); !status.ok())
    return status;
  if (absl::Status status = AddDwaveInitialState(params); !status.ok())
    return status;
  return params;
}

void PrintUnreachableHint(absl::StatusCode code, absl::string_view message) {
  // gRPC's own wording when the channel never connected; a server's
  // UNAVAILABLE (draining, queue full) says something else and gets no hint.
  if (code != absl::StatusCode::kUnavailable ||
      (!absl::StrContains(message, "failed to connect") &&
       !absl::StrContains(message, "DNS resolution failed")))
    return;
  PrintNoServerHint();
}

void PrintNoServerHint() {
  const std::string addr = absl::GetFlag(FLAGS_addr);
  std::fprintf(stderr,
               "no server answers at %s: start one there "
               "(build/server/qs_server --address=%s, as README.md does, or "
               "scripts/demo.sh) or pass --addr HOST:PORT of a running one\n",
               addr.c_str(), addr.c_str());
}

int ReportRpcError(const grpc::Status& status) {
  const auto code = static_cast<absl::StatusCode>(status.error_code());
  std::fprintf(stderr, "%s: %s\n", absl::StatusCodeToString(code).c_str(),
               status.error_message().c_str());
  PrintUnreachableHint(code, status.error_message());
  return kExitRpcError;
}

int ReportLocalError(const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n",
               absl::StatusCodeToString(status.code()).c_str(),
               std::string(status.message()).c_str());
  return kExitUsage;
}

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

google::protobuf::Struct MessageStruct(
    const google::protobuf::Message& message) {
  google::protobuf::Struct out;
  (void)google::protobuf::util::JsonStringToMessage(ToJson(message), &out);
  return out;
}

std::string ModelReportText(const v1::ModelReport& r) {
  std::string text = absl::StrCat(
      "model (", r.format(), "): ", r.variables(), " variables, ",
      r.constraints(), " constraints; ", r.integer_bits(), " integer bits (",
      v1::IntegerEncoding_Name(r.integer_encoding()), "), ", r.slack_bits(),
      " slack bits (", v1::InequalityMethod_Name(r.inequality()), "), ",
      r.reduction_variables(), " reduction variables, ", r.one_hot_groups(),
      " one-hot groups, ", r.fixed_by_propagation(),
      " bits fixed by propagation\n");
  for (const auto& p : r.penalties()) {
    absl::StrAppend(&text, "  penalty ", p.constraint(), ": ", p.weight(), " (",
                    p.rule(), ")\n");
  }
  return text;
}

google::protobuf::Value JsonNumber(double x) {
  google::protobuf::Value v;
  v.set_number_value(x);
  return v;
}

google::protobuf::Value JsonBool(bool b) {
  google::protobuf::Value v;
  v.set_bool_value(b);
  return v;
}

google::protobuf::Value JsonString(const std::string& s) {
  google::protobuf::Value v;
  v.set_string_value(s);
  return v;
}

google::protobuf::Value JsonNull() {
  google::protobuf::Value v;
  v.set_null_value(google::protobuf::NULL_VALUE);
  return v;
}

google::protobuf::Value JsonStrings(const std::vector<std::string>& items) {
  google::protobuf::Value v;
  google::protobuf::ListValue* list = v.mutable_list_value();
  for (const std::string& s : items) *list->add_values() = JsonString(s);
  return v;
}

std::string ViolationText(const v1::Violation& violation) {
  return violation.location().empty()
             ? violation.message()
             : absl::StrCat(violation.location(), ": ", violation.message());
}

void AddModelAnswerJson(const v1::SolveSummary& summary,
                        google::protobuf::Struct& out) {
  auto& f = *out.mutable_fields();
  const v1::PuzzleSolution& best = summary.best_solution();
  f["feasible"] = JsonBool(summary.reads_done() > 0 && summary.best_valid());
  google::protobuf::Value assignment;
  auto& values = *assignment.mutable_struct_value()->mutable_fields();
  for (int v = 0; v < best.names_size() && v < best.cells_size(); ++v)
    values[best.names(v)] = JsonNumber(best.cells(v));
  f["assignment"] = assignment;
  std::vector<std::string> names;
  for (const auto& v : summary.best_violations()) names.push_back(v.location());
  f["violations"] = JsonStrings(names);
  google::protobuf::Value amounts;
  auto& by_name = *amounts.mutable_struct_value()->mutable_fields();
  for (const auto& v : summary.best_violations())
    if (v.has_amount()) by_name[v.location()] = JsonNumber(v.amount());
  f["violation_amounts"] = amounts;
}

google::protobuf::Struct SolveResultJson(const v1::CompileStats& stats,
                                         const v1::SolveSummary& summary) {
  std::vector<std::string> board(summary.best_solution().rows().begin(),
                                 summary.best_solution().rows().end());
  std::vector<std::string> violations;
  for (const auto& v : summary.best_violations())
    violations.push_back(ViolationText(v));
  google::protobuf::Struct out;
  auto& f = *out.mutable_fields();
  f["request_id"] = JsonString(summary.request_id());
  f["valid"] = JsonBool(summary.best_valid());
  f["energy"] =
      summary.reads_done() > 0 ? JsonNumber(summary.best_energy()) : JsonNull();
  f["objective"] =
      summary.has_objective() ? JsonNumber(summary.objective()) : JsonNull();
  f["ground_energy"] = summary.has_ground_energy()
                           ? JsonNumber(summary.ground_energy())
                           : JsonNull();
  f["board"] = JsonStrings(board);
  f["violations"] = JsonStrings(violations);
  if (stats.has_model()) AddModelAnswerJson(summary, out);
  f["termination"] = JsonString(v1::Termination_Name(summary.termination()));
  f["reads"] = JsonNumber(summary.reads_done());
  f["reads_cut_short"] = JsonNumber(summary.reads_cut_short());
  f["num_valid"] = JsonNumber(summary.num_valid());
  f["success_fraction"] = JsonNumber(summary.success_fraction());
  f["seed"] = JsonString(absl::StrCat(summary.seed()));
  f["backend"] = JsonString(summary.backend().name());
  f["solved_by"] = JsonString(summary.solved_by());
  f["variables"] = JsonNumber(stats.variables());
  f["variables_total"] = JsonNumber(stats.variables_total());
  f["attempts_per_second"] = JsonNumber(summary.attempts_per_second());
  if (!summary.budget_clamped().empty())
    f["budget_clamped"] = JsonString(summary.budget_clamped());
  if (summary.rounds() > 1) f["rounds"] = JsonNumber(summary.rounds());
  AddBackendDetailsJson(summary.backend(), out);
  google::protobuf::Value timings;
  auto& t = *timings.mutable_struct_value()->mutable_fields();
  t["queue_seconds"] = JsonNumber(summary.timings().queue_seconds());
  t["compile_seconds"] = JsonNumber(summary.timings().compile_seconds());
  t["sample_seconds"] = JsonNumber(summary.timings().sample_seconds());
  t["decode_seconds"] = JsonNumber(summary.timings().decode_seconds());
  t["total_seconds"] = JsonNumber(summary.timings().total_seconds());
  t["annealer_cpu_seconds"] =
      JsonNumber(summary.timings().annealer_cpu_seconds());
  f["timings"] = timings;
  return out;
}

}  // namespace qs::cli
