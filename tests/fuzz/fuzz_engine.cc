// The text targets' shared start and the core-path checks of every fuzz
// target (see fuzz_engine.h).
#include "tests/fuzz/fuzz_engine.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"

namespace qs::fuzz {
namespace {

[[noreturn]] void Die(absl::string_view what, absl::string_view detail,
                      const google::protobuf::Message& input) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(input, &text);
  std::fprintf(stderr, "fuzz check failed: %.*s: %.*s\ninput:\n%s\n",
               static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data(), text.c_str());
  std::abort();
}

}  // namespace

const SolveEngine& Engine() {
  static const SolveEngine* const engine = [] {
    auto* pool = new WorkerPool(1);
    auto* samplers = new BackendRegistry();
    BackendOptions options;
    options.pool = pool;
    // The QAOA simulator up to 16 qubits: the fuzzer's memory stays small.
    options.qaoa_max_memory_bytes = int64_t{26} << 16;
    if (!RegisterBuiltinBackends(*samplers, options).ok()) std::abort();
    SolveLimits limits;
    // 9x9 Sudoku (729) and 32x32 queens boards pass; the compilers build
    // larger boards with the same code, only slower (a 64x64 queens board
    // takes about a second under ASan, 100 times what the fuzzer gets done
    // in that time on small ones).
    limits.max_variables = 1024;
    limits.max_couplers = 200000;
    return new SolveEngine(&BuiltinCompilers(), samplers, limits);
  }();
  return *engine;
}

void Initialize() {
  google::protobuf::SetLogHandler(nullptr);
  Engine();
}

TextInput SplitTextInput(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  TextInput split;
  split.text = input.substr(0, nul);
  if (nul != absl::string_view::npos) {
    split.board = input.substr(nul + 1);
    split.has_board = true;
  }
  return split;
}

void CheckSerializes(const google::protobuf::Message& message) {
  std::unique_ptr<google::protobuf::Message> back(message.New());
  if (!back->ParseFromString(message.SerializeAsString()) ||
      !google::protobuf::util::MessageDifferencer::Equals(*back, message))
    Die("serialization", "the message does not parse back equal", message);
}

void CheckCallerError(absl::string_view what, const absl::Status& status,
                      const google::protobuf::Message& input) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kUnimplemented:
      return;
    default:
      Die(what, status.ToString(), input);
  }
}

void CheckEnginePath(const v1::PuzzleSpec& puzzle,
                     const v1::CompileOptions& options,
                     const v1::SolveParams& params,
                     const v1::PuzzleSolution& solution) {
  const SolveEngine& engine = Engine();
  v1::SolveRequest solve;
  *solve.mutable_puzzle() = puzzle;
  *solve.mutable_params() = params;
  CheckCallerError("CheckSolveRequest", engine.CheckSolveRequest(solve), solve);

  v1::CompileRequest compile;
  *compile.mutable_puzzle() = puzzle;
  *compile.mutable_options() = options;
  auto compiled = engine.Compile(compile);
  CheckCallerError("Compile", compiled.status(), compile);
  if (compiled.ok()) {
    const v1::CompileStats& stats = compiled->stats();
    if (stats.variables() > stats.variables_total())
      Die("Compile", "more optimized variables than in the full model",
          compile);
    if (compiled->variable_map_size() != static_cast<int>(stats.variables()))
      Die("Compile", "variable_map size differs from stats.variables", compile);
    for (uint32_t full : compiled->variable_map()) {
      if (full >= stats.variables_total())
        Die("Compile", "variable_map entry outside the full model", compile);
    }
    if (compiled->labels_size() != 0 &&
        compiled->labels_size() != static_cast<int>(stats.variables_total()))
      Die("Compile", "labels size differs from stats.variables_total", compile);
  }

  v1::ValidateRequest validate;
  *validate.mutable_puzzle() = puzzle;
  *validate.mutable_solution() = solution;
  CheckCallerError("Validate", engine.Validate(validate).status(), validate);
}

}  // namespace qs::fuzz
