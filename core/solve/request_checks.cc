// Request checks that need no compiling.
#include "core/solve/request_checks.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/base/status_macros.h"

namespace qs {

absl::Status CheckCommonParams(const v1::SolveParams& p,
                               const SolveLimits& limits,
                               absl::string_view prefix) {
  if (p.has_num_reads() &&
      (p.num_reads() == 0 || p.num_reads() > limits.max_reads)) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".num_reads: must be 1..", limits.max_reads,
                     ", got ", p.num_reads()));
  }
  if (p.has_num_sweeps() &&
      (p.num_sweeps() == 0 || p.num_sweeps() > limits.max_sweeps)) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".num_sweeps: must be 1..", limits.max_sweeps,
                     ", got ", p.num_sweeps()));
  }
  RETURN_IF_ERROR(CheckTimeLimit(p.time_limit_seconds(),
                                 absl::StrCat(prefix, ".time_limit_seconds")));
  if (p.time_limit_seconds() > limits.max_time_limit_seconds) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".time_limit_seconds: must be at most ",
                     limits.max_time_limit_seconds, " on this server, got ",
                     p.time_limit_seconds()));
  }
  if (p.has_target_energy() && !std::isfinite(p.target_energy())) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".target_energy: must be finite"));
  }
  return absl::OkStatus();
}

absl::Status CheckBackendParams(const Backend& backend,
                                const v1::SolveParams& params,
                                const ParamLimits& limits,
                                absl::string_view prefix) {
  const auto* field = v1::SolveParams::descriptor()->FindFieldByName(
      std::string(backend.params_field()));
  if (field != nullptr && params.GetReflection()->HasField(params, field)) {
    RETURN_IF_ERROR(
        CheckParamsBySchema(params.GetReflection()->GetMessage(params, field),
                            absl::StrCat(prefix, ".", backend.params_field())));
  }
  return backend.CheckParams(params, limits, prefix);
}

absl::StatusOr<const Backend*> CheckBackend(const BackendRegistry& backends,
                                            const v1::SolveParams& params,
                                            const v1::PuzzleSpec* spec,
                                            const SolveLimits& limits,
                                            absl::string_view prefix,
                                            bool samplers_only) {
  const std::string field = absl::StrCat(prefix, ".backend");
  ASSIGN_OR_RETURN(const Backend* backend,
                   backends.Get(backends.NameFor(params), field));
  if (samplers_only && backend->capabilities().rules) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": '", backend->name(),
        "' solves the puzzle's rules; solutions are drawn by sampling the "
        "QUBO"));
  }
  RETURN_IF_ERROR(backend->Available());
  if (spec != nullptr) RETURN_IF_ERROR(backend->Supports(*spec, prefix));
  const ParamLimits param_limits{.max_reads = limits.max_reads,
                                 .max_sweeps = limits.max_sweeps};
  RETURN_IF_ERROR(CheckBackendParams(*backend, params, param_limits, prefix));
  return backend;
}

absl::Status CheckModelSize(const v1::PuzzleSpec& puzzle,
                            const PuzzleCompiler& compiler,
                            const SolveLimits& limits) {
  const int64_t variables = compiler.ModelVariables(puzzle);
  const int64_t couplers = compiler.ModelCouplersAtLeast(puzzle);
  const double bytes = static_cast<double>(couplers) * kModelBytesPerCoupler +
                       static_cast<double>(variables) * kModelBytesPerVariable;
  // Every limit the model is over, each with the qs_server flag that moves
  // it: naming only the first would send the operator who raises it on to the
  // next refusal.
  std::vector<std::string> over;
  if (variables > limits.max_variables) {
    over.push_back(absl::StrCat(
        "has ", variables, " variables, over this server's limit of ",
        limits.max_variables, " (qs_server --max_variables)"));
  }
  if (couplers > limits.max_couplers) {
    over.push_back(absl::StrCat(
        "has at least ", couplers, " couplers, over this server's limit of ",
        limits.max_couplers, " (qs_server --max_couplers)"));
  }
  if (bytes > static_cast<double>(limits.max_model_bytes)) {
    over.push_back(absl::StrCat(
        "takes about ", static_cast<int64_t>(bytes / (1 << 20)),
        " MiB to build (", variables, " variables, at least ", couplers,
        " couplers), over this server's limit of ",
        limits.max_model_bytes >> 20, " MiB (qs_server --max_model_mb)"));
  }
  if (over.empty()) return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat("puzzle: the ", compiler.kind(), " model ",
                   absl::StrJoin(over, "; it ")));
}

absl::Status CheckEncoding(int encoding, absl::string_view field) {
  if (v1::Encoding_IsValid(encoding)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": unknown value ", encoding));
}

absl::Status CheckEncodingApplied(int encoding, const CompiledProblem& problem,
                                  absl::string_view field) {
  if (encoding != v1::ENCODING_BINARY || problem.higher_order)
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      field,
      ": the binary encoding applies to queens puzzles whose rows hold one "
      "queen each; '",
      problem.kind, "' puzzles have no binary encoding"));
}

absl::Status CheckRequestId(absl::string_view id, absl::string_view field) {
  if (id.size() > kMaxRequestIdLength) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": at most ", kMaxRequestIdLength,
                     " characters, got ", id.size()));
  }
  for (size_t k = 0; k < id.size(); ++k) {
    const auto c = static_cast<unsigned char>(id[k]);
    if (c < 0x20 || c > 0x7e) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": printable ASCII only; character ", k,
                       " is byte 0x", absl::Hex(c, absl::kZeroPad2)));
    }
  }
  return absl::OkStatus();
}

std::string RequestIdForLog(absl::string_view id) {
  std::string out;
  for (const char c : id.substr(0, kMaxRequestIdLength)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\') {
      out.push_back(c);
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(byte, absl::kZeroPad2));
    }
  }
  if (id.size() > kMaxRequestIdLength) out += "...";
  return out;
}

absl::Status CheckTimeLimit(double seconds, absl::string_view field) {
  if (!std::isfinite(seconds) || seconds < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": must be >= 0, got ", seconds));
  }
  return absl::OkStatus();
}

}  // namespace qs
