// qsolve: the command-line client of the qs.v1.Solver service, for people and
// scripts.
//
//   qsolve health   --addr HOST:PORT
//   qsolve backends --addr HOST:PORT
//   qsolve families --addr HOST:PORT [--describe KIND] [--json]
//   qsolve compile  --addr HOST:PORT --kind KIND (--input TEXT | --input-file
//   FILE) [--reduction R] [--preprocess none|roof|qpro]
//                   [--encoding one_hot|binary] [--export FILE]
//                   [--export-qasm FILE [--qasm_version 2|3] [--qaoa_layers P]
//                   [--gammas g1,..,gP --betas b1,..,bP]] [--json]
//   qsolve solve    --addr HOST:PORT --kind KIND (--input TEXT | --input-file
//   FILE) [--backend NAME] [--auto_exact race|proof|off] [--group_moves on|off]
//                   [--reads N] [--sweeps N] [--seed S] [--time_limit SEC]
//                   [--stop_at_first_valid] [--encoding one_hot|binary]
//                   [--json]
//                   (--backend qaoa: [--qaoa_layers P] [--gammas ... --betas
//                   ...] [--qaoa_optimizer O] [--qaoa_mixer x|xy])
//   qsolve validate --addr HOST:PORT --kind KIND --input TEXT --board ROWS
//   qsolve batch    --addr A,B,C|TARGET --input-file FILE [--concurrency N]
//                   [--streams N] [--retries N] [--output FILE] [solve flags]
//   qsolve bench    --addr HOST:PORT --models M1,M2 [--backends B1,B2]
//                   [--sweeps 100,1000 | --time_budgets 0.1,1] [--repeats R]
//                   [--reads N] [--target X] [--csv FILE] [--plot FILE.svg]
//                   [--json]
//   qsolve count    --addr HOST:PORT --kind KIND (--input TEXT | --input-file
//   FILE) [--limit N] [--method auto|sat|bdd] [--encoding one_hot|binary]
//                   [--time_limit SEC] [--json]
//   qsolve generate --addr HOST:PORT --kind KIND --size N
//                   [--cols M] [--count K] [--difficulty easy|medium|hard]
//                   [--clues C] [--seed S] [--reads N] [--sweeps N]
//                   [--time_limit SEC] [--json]
//
// KIND is a text kind the server lists (`qsolve families`): the server parses
// the puzzle text (Solver.Parse), so qsolve names no puzzle family. generate
// prints each puzzle on a line of its own in the kind's text format, so that
// it can be fed back to `qsolve solve --kind KIND --input`; what was made
// (clues, propagation, time) goes to stderr as '#' lines.
//
// Flag names accept '-' or '_' ("--input-file" == "--input_file"). With --json,
// every stream event is printed as one line of protobuf JSON and the last line
// is a summary object with at least valid, energy, board, violations (the
// scripting contract in docs/cli.md).
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "clients/cli/backend_details.h"
#include "clients/cli/batch.h"
#include "clients/cli/bench.h"
#include "clients/cli/cli_common.h"
#include "clients/cli/param_flags.h"
#include "clients/cli/puzzle_input.h"
#include "clients/cli/qaoa_flags.h"
#include "formats/model_text.h"
#include "formats/objective_sense.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_formats.h"
#include "google/protobuf/struct.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "qs/v1/solver_service.grpc.pb.h"

ABSL_FLAG(bool, json, false,
          "Print protobuf JSON lines, the last one a summary object");
ABSL_FLAG(std::string, describe, "",
          "backends: the parameters of this backend (type, default, range, "
          "help); families: this kind's description and example");
ABSL_FLAG(bool, markdown, false,
          "backends: every backend's parameter table as Markdown (the "
          "reference in docs/backends.md); with --describe NAME, that "
          "backend's table alone (the one on its own page)");
ABSL_FLAG(std::string, export, "",
          "compile: write the reduced QUBO to this file (see docs/formats.md)");
ABSL_FLAG(std::string, export_format, "text",
          "compile --export: text, qbsolv, orlib, coo or ising");
ABSL_FLAG(std::string, export_model, "",
          "compile --kind model: write the model to this file, as LP (.lp) "
          "or OPB (.opb) by its extension");
ABSL_FLAG(std::string, export_milp, "",
          "compile --kind model: write the model's linearized MILP (each "
          "product of binaries a new binary with the standard linearization) "
          "to this LP file, for a MILP solver");
ABSL_FLAG(std::string, board, "",
          "validate: the board as rows separated by '/' or newlines");
ABSL_FLAG(bool, samples, false,
          "solve: also print one line per sample (energy, validity)");
ABSL_FLAG(int64_t, limit, 0,
          "count: stop enumerating at this many solutions; 0: the server's "
          "default (1,000,000)");
ABSL_FLAG(std::string, method, "auto",
          "count: auto (a BDD on small boards, else SAT), sat or bdd");
ABSL_FLAG(int64_t, size, 0,
          "generate: board size (rows, or the side of a family's square "
          "board)");
ABSL_FLAG(int64_t, cols, 0,
          "generate: columns of a family with rectangular boards; 0: square");
ABSL_FLAG(int64_t, count, 1, "generate: puzzles to make");
ABSL_FLAG(std::string, difficulty, "hard",
          "generate: easy (propagation fills the board), medium (half of "
          "it) or hard (fewest clues that keep the solution unique)");
ABSL_FLAG(int64_t, clues, 0,
          "generate: stop removing clues at this many; 0: as few as the "
          "difficulty allows");
ABSL_FLAG(std::string, variant, "",
          "generate: the family's own options, name=value separated by ';', "
          "set on GenerateRequest's field named after the kind "
          "(docs/api.md), e.g. 'box_rows=2;box_cols=3' or 'killer=true'");
ABSL_DECLARE_FLAG(std::string, addr);
ABSL_DECLARE_FLAG(std::string, kind);
ABSL_DECLARE_FLAG(int64_t, seed);
ABSL_DECLARE_FLAG(double, time_limit);

namespace qs::cli {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

Value Number(double x) { return JsonNumber(x); }
Value String(const std::string& s) { return JsonString(s); }
Value Null() { return JsonNull(); }

void PrintBoard(const v1::PuzzleSolution& solution) {
  for (const std::string& row : solution.rows())
    std::printf("  %s\n", row.c_str());
}

std::string StagesText(const v1::CompileStats& stats) {
  std::vector<std::string> parts;
  for (const auto& s : stats.stages())
    parts.push_back(absl::StrCat(s.name(), " ", s.variables()));
  return absl::StrJoin(parts, " -> ");
}

std::string EncodingText(const v1::EncodingStats& e);

int Health() {
  auto stub =
      grpc::health::v1::Health::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  grpc::ClientContext context;
  PrepareContext(context);
  if (context.deadline() == std::chrono::system_clock::time_point::max()) {
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
  }
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) return ReportRpcError(status);
  const std::string name =
      grpc::health::v1::HealthCheckResponse::ServingStatus_Name(
          response.status());
  std::printf("%s\n", name.c_str());
  return response.status() == grpc::health::v1::HealthCheckResponse::SERVING
             ? 0
             : kExitRpcError;
}

int Backends() {
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  grpc::ClientContext context;
  PrepareContext(context);
  v1::ListBackendsResponse response;
  const grpc::Status status =
      stub->ListBackends(&context, v1::ListBackendsRequest(), &response);
  if (!status.ok()) return ReportRpcError(status);
  if (absl::GetFlag(FLAGS_json)) {
    std::printf("%s\n", ToJson(response).c_str());
    return 0;
  }
  const bool markdown = absl::GetFlag(FLAGS_markdown);
  if (const std::string name = absl::GetFlag(FLAGS_describe); !name.empty()) {
    for (const auto& b : response.backends()) {
      if (b.name() != name) continue;
      std::printf("%s", markdown ? BackendParamsMarkdownTable(b).c_str()
                                 : BackendParamsText(b).c_str());
      return 0;
    }
    return ReportLocalError(absl::InvalidArgumentError(
        absl::StrCat("--describe: the server has no backend '", name, "'")));
  }
  if (markdown) {
    std::printf("%s", BackendParamsMarkdown(response).c_str());
    return 0;
  }
  for (const auto& b : response.backends()) {
    std::printf("%-10s %-11s %s\n", b.name().c_str(),
                b.available() ? "available" : "unavailable",
                b.available() ? b.description().c_str() : b.status().c_str());
  }
  return 0;
}

// What the server offers of a kind, as a word list ("rules generate ...").
std::string FamilyOffers(const v1::FamilyDescription& family) {
  std::vector<std::string> offers;
  if (family.rules()) offers.push_back("rules");
  if (family.generate()) offers.push_back("generate");
  if (family.draws()) offers.push_back("draws");
  if (family.writer()) offers.push_back("writer");
  return offers.empty() ? "-" : absl::StrJoin(offers, ",");
}

int Families() {
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  grpc::ClientContext context;
  PrepareContext(context);
  v1::ListFamiliesResponse response;
  const grpc::Status status =
      stub->ListFamilies(&context, v1::ListFamiliesRequest(), &response);
  if (!status.ok()) return ReportRpcError(status);
  const bool json = absl::GetFlag(FLAGS_json);
  if (const std::string kind = absl::GetFlag(FLAGS_describe); !kind.empty()) {
    for (const auto& f : response.families()) {
      if (f.kind() != kind) continue;
      if (json) {
        std::printf("%s\n", ToJson(f).c_str());
        return 0;
      }
      std::printf(
          "%s: %s\npuzzle field: %s\nsolution: %s\noffers: %s\n"
          "example (`qsolve solve --kind %s --input-file FILE`):\n%s\n",
          f.kind().c_str(), f.description().c_str(), f.puzzle_field().c_str(),
          f.board().c_str(), FamilyOffers(f).c_str(), f.kind().c_str(),
          f.example().c_str());
      return 0;
    }
    return ReportLocalError(absl::InvalidArgumentError(
        absl::StrCat("--describe: the server has no kind '", kind, "'")));
  }
  if (json) {
    std::printf("%s\n", ToJson(response).c_str());
    return 0;
  }
  std::printf("%-10s %-10s %-26s %s\n", "KIND", "FIELD", "OFFERS",
              "DESCRIPTION");
  for (const auto& f : response.families()) {
    std::printf("%-10s %-10s %-26s %s\n", f.kind().c_str(),
                f.puzzle_field().c_str(), FamilyOffers(f).c_str(),
                f.description().c_str());
  }
  return 0;
}

// The reduced model in --export_format (text when auto). Models whose objective
// is maximised (a graph's cut, a model read with sense max) are marked so, so
// that the writers put the objective itself in the file (orlib reads it back
// as such).
absl::StatusOr<std::string> ExportText(const v1::PuzzleSpec& puzzle,
                                       v1::QuboModel model) {
  auto format =
      formats::ParseQuboFormatName(absl::GetFlag(FLAGS_export_format));
  if (!format.ok()) return format.status();
  if (formats::ObjectiveSense(puzzle) == v1::MAXIMIZE)
    model.set_sense(v1::MAXIMIZE);
  return formats::FormatQuboModel(model, *format == formats::QuboFormat::kAuto
                                             ? formats::QuboFormat::kText
                                             : *format);
}

// --export_model and --export_milp: the constrained model of `puzzle` (its
// text read here) written as files any other solver reads.
absl::Status ExportModelFiles(const v1::PuzzleSpec& puzzle) {
  const std::string model_path = absl::GetFlag(FLAGS_export_model);
  const std::string milp_path = absl::GetFlag(FLAGS_export_milp);
  if (model_path.empty() && milp_path.empty()) return absl::OkStatus();
  if (!puzzle.has_model()) {
    return absl::InvalidArgumentError(
        "--export_model, --export_milp: only for --kind model");
  }
  absl::StatusOr<v1::ConstrainedModel> model =
      puzzle.model().text().empty()
          ? absl::StatusOr<v1::ConstrainedModel>(puzzle.model())
          : formats::ParseModelText(puzzle.model().text(),
                                    puzzle.model().format());
  if (!model.ok()) return model.status();
  auto write = [](const std::string& path,
                  const absl::StatusOr<std::string>& text) -> absl::Status {
    if (!text.ok()) return text.status();
    std::ofstream out(path);
    out << *text;
    if (!out)
      return absl::UnavailableError(absl::StrCat("cannot write ", path));
    return absl::OkStatus();
  };
  if (!model_path.empty()) {
    const bool opb = absl::EndsWithIgnoreCase(model_path, ".opb");
    if (!opb && !absl::EndsWithIgnoreCase(model_path, ".lp")) {
      return absl::InvalidArgumentError(
          absl::StrCat("--export_model: the file must end in .lp or .opb, got ",
                       model_path));
    }
    absl::Status s = write(model_path, opb ? formats::WriteModelOpb(*model)
                                           : formats::WriteModelLp(*model));
    if (!s.ok()) return s;
  }
  if (!milp_path.empty())
    return write(milp_path, formats::WriteLinearizedMilp(*model));
  return absl::OkStatus();
}

int Compile() {
  auto options = CompileOptionsFromFlags();
  if (!options.ok()) return ReportLocalError(options.status());
  const std::string export_path = absl::GetFlag(FLAGS_export);
  options->set_return_qubo(!export_path.empty());
  const std::string qasm_path = absl::GetFlag(FLAGS_export_qasm);
  if (!qasm_path.empty()) {
    auto circuit = QaoaCircuitFromFlags();
    if (!circuit.ok()) return ReportLocalError(circuit.status());
    *options->mutable_qaoa_circuit() = *circuit;
  }
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  auto parsed = PuzzleFromFlags(*stub);
  if (!parsed.ok()) return ReportInputError(parsed.status());
  const v1::PuzzleSpec* puzzle = &parsed->puzzle();
  if (absl::Status s = ExportModelFiles(*puzzle); !s.ok())
    return ReportLocalError(s);
  v1::CompileRequest request;
  *request.mutable_puzzle() = *puzzle;
  *request.mutable_options() = *options;
  grpc::ClientContext context;
  PrepareContext(context);
  v1::CompileResponse response;
  const grpc::Status status = stub->Compile(&context, request, &response);
  if (!status.ok()) return ReportRpcError(status);
  const v1::CompileStats& stats = response.stats();
  if (!export_path.empty()) {
    auto text = ExportText(*puzzle, response.qubo());
    if (!text.ok()) return ReportLocalError(text.status());
    std::ofstream out(export_path);
    out << *text;
    if (!out)
      return ReportLocalError(
          absl::UnavailableError(absl::StrCat("cannot write ", export_path)));
  }
  if (!qasm_path.empty()) {
    std::ofstream out(qasm_path);
    out << response.qasm();
    if (!out)
      return ReportLocalError(
          absl::UnavailableError(absl::StrCat("cannot write ", qasm_path)));
  }
  if (absl::GetFlag(FLAGS_json)) {
    Struct summary;
    auto& f = *summary.mutable_fields();
    f["kind"] = String(stats.puzzle_kind());
    f["variables"] = Number(stats.variables());
    f["variables_total"] = Number(stats.variables_total());
    f["couplers"] = Number(static_cast<double>(stats.couplers()));
    f["linear_terms"] = Number(static_cast<double>(stats.linear_terms()));
    f["offset"] = Number(stats.offset());
    f["density"] = Number(stats.density());
    f["ground_energy"] =
        stats.has_ground_energy() ? Number(stats.ground_energy()) : Null();
    f["compile_seconds"] = Number(stats.compile_seconds());
    if (stats.encoding() == v1::ENCODING_BINARY) {
      f["encoding"] = String("binary");
      f["higher_order_terms"] =
          Number(static_cast<double>(stats.higher_order_terms()));
      f["higher_order_max_order"] = Number(stats.higher_order_max_order());
    }
    f["preprocess_seconds"] = Number(stats.preprocess_seconds());
    f["removed_by_preprocess"] = Number(stats.removed_by_preprocess());
    if (stats.has_roof_lower_bound())
      f["roof_lower_bound"] = Number(stats.roof_lower_bound());
    Value stages;
    for (const auto& s : stats.stages()) {
      Value stage;
      auto& sf = *stage.mutable_struct_value()->mutable_fields();
      sf["name"] = String(s.name());
      sf["variables"] = Number(s.variables());
      sf["fixed_zero"] = Number(s.fixed_zero());
      sf["fixed_one"] = Number(s.fixed_one());
      *stages.mutable_list_value()->add_values() = stage;
    }
    f["stages"] = stages;
    if (stats.has_model()) {
      Value model;
      *model.mutable_struct_value() = MessageStruct(stats.model());
      f["model"] = model;
    }
    if (!export_path.empty()) f["export"] = String(export_path);
    if (!qasm_path.empty()) {
      f["export_qasm"] = String(qasm_path);
      f["qaoa_qubits"] = Number(stats.qaoa_qubits());
      f["qaoa_layers"] = Number(stats.qaoa_layers());
      f["qaoa_single_qubit_gates"] =
          Number(static_cast<double>(stats.qaoa_single_qubit_gates()));
      f["qaoa_two_qubit_gates"] =
          Number(static_cast<double>(stats.qaoa_two_qubit_gates()));
      f["qaoa_depth"] = Number(static_cast<double>(stats.qaoa_depth()));
    }
    std::printf("%s\n", ToJson(summary).c_str());
    return 0;
  }
  std::printf("%s: %u variables before reduction, %u after (%s)\n",
              stats.puzzle_kind().c_str(), stats.variables_total(),
              stats.variables(), StagesText(stats).c_str());
  std::printf("couplers %llu, linear terms %llu, density %.4f, offset %g\n",
              static_cast<unsigned long long>(stats.couplers()),
              static_cast<unsigned long long>(stats.linear_terms()),
              stats.density(), stats.offset());
  if (stats.encoding() == v1::ENCODING_BINARY) {
    std::printf(
        "binary encoding: higher-order model, %llu terms of order "
        "up to %u\n",
        static_cast<unsigned long long>(stats.higher_order_terms()),
        stats.higher_order_max_order());
  }
  if (stats.has_ground_energy())
    std::printf("ground energy %g\n", stats.ground_energy());
  std::printf("compile time %.3f ms\n", stats.compile_seconds() * 1e3);
  if (stats.has_roof_lower_bound())
    std::printf(
        "preprocessing removed %u variables in %.3f ms; roof bound %g\n",
        stats.removed_by_preprocess(), stats.preprocess_seconds() * 1e3,
        stats.roof_lower_bound());
  if (stats.has_model())
    std::printf("%s", ModelReportText(stats.model()).c_str());
  if (!export_path.empty())
    std::printf("reduced QUBO written to %s\n", export_path.c_str());
  if (!qasm_path.empty()) {
    std::printf(
        "QAOA circuit written to %s: %u qubits, %u layers, %llu + %llu "
        "gates, depth %llu\n",
        qasm_path.c_str(), stats.qaoa_qubits(), stats.qaoa_layers(),
        static_cast<unsigned long long>(stats.qaoa_single_qubit_gates()),
        static_cast<unsigned long long>(stats.qaoa_two_qubit_gates()),
        static_cast<unsigned long long>(stats.qaoa_depth()));
  }
  return 0;
}

int Solve() {
  auto options = CompileOptionsFromFlags();
  if (!options.ok()) return ReportLocalError(options.status());
  auto params = SolveParamsFromFlags();
  if (!params.ok()) return ReportLocalError(params.status());
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  auto parsed = PuzzleFromFlags(*stub);
  if (!parsed.ok()) return ReportInputError(parsed.status());
  if (absl::Status s = ApplyTargetObjective(parsed->puzzle(), *params); !s.ok())
    return ReportLocalError(s);
  v1::SolveRequest request;
  *request.mutable_puzzle() = parsed->puzzle();
  *request.mutable_compile() = *options;
  *request.mutable_params() = *params;
  const bool json = absl::GetFlag(FLAGS_json);
  const bool print_samples = absl::GetFlag(FLAGS_samples);
  // Without --samples or --json nothing reads the sample events: ask for the
  // best one only, so that the server neither decodes nor sends the others
  // (a sample of a 10^6-node graph is about 2 MB on the wire).
  if (!json && !print_samples && request.params().max_sample_events() == 0)
    request.mutable_params()->set_max_sample_events(1);

  grpc::ClientContext context;
  PrepareContext(context);
  auto reader = stub->Solve(&context, request);
  v1::SolveResponse event;
  v1::SolveHeader header;
  v1::SolveSummary summary;
  bool have_summary = false;
  while (reader->Read(&event)) {
    if (json) std::printf("%s\n", ToJson(event).c_str());
    switch (event.event_case()) {
      case v1::SolveResponse::kHeader:
        header = event.header();
        if (!json) {
          const auto& s = header.stats();
          std::printf(
              "%s: %u -> %u variables (%s), %llu couplers%s\n",
              s.puzzle_kind().c_str(), s.variables_total(), s.variables(),
              StagesText(s).c_str(),
              static_cast<unsigned long long>(s.couplers()),
              s.has_ground_energy()
                  ? absl::StrCat(", ground energy ", s.ground_energy()).c_str()
                  : "");
          // A backend that sizes its rounds itself (auto) reports no reads
          // and sweeps up front: what ran ends the output (reads, solved
          // by, the backend's details).
          if (header.num_reads() == 0) {
            std::printf(
                "backend %s (sizes its own rounds; what ran is listed at "
                "the end), seed %llu\n",
                header.backend().c_str(),
                static_cast<unsigned long long>(header.seed()));
          } else {
            std::printf("backend %s, %u reads x %u sweeps, seed %llu\n",
                        header.backend().c_str(), header.num_reads(),
                        header.num_sweeps(),
                        static_cast<unsigned long long>(header.seed()));
          }
        }
        break;
      case v1::SolveResponse::kSample:
        if (!json && print_samples) {
          std::printf("sample %u: energy %g %s\n", event.sample().read_index(),
                      event.sample().energy(),
                      event.sample().valid() ? "valid" : "invalid");
        }
        break;
      case v1::SolveResponse::kProgress:
        if (!json) {
          std::fprintf(
              stderr, "\r%u/%u reads, best %g, %u valid, %.1f s",
              event.progress().reads_done(), event.progress().reads_total(),
              event.progress().best_energy(), event.progress().valid_found(),
              event.progress().elapsed_seconds());
        }
        break;
      case v1::SolveResponse::kSummary:
        summary = event.summary();
        have_summary = true;
        break;
      default:
        break;
    }
  }
  const grpc::Status status = reader->Finish();
  if (!status.ok()) return ReportRpcError(status);
  if (!have_summary) {
    return ReportRpcError(grpc::Status(grpc::StatusCode::INTERNAL,
                                       "the stream ended without a summary"));
  }
  if (json) {
    Struct out = SolveResultJson(header.stats(), summary);
    auto& f = *out.mutable_fields();
    if (summary.has_exact()) {
      f["exact_status"] =
          String(v1::Satisfiability_Name(summary.exact().status()));
      f["unique"] = JsonBool(summary.exact().unique());
      f["solutions_found"] =
          Number(static_cast<double>(summary.exact().solutions_found()));
    }
    if (request.params().distinct_valid())
      f["num_distinct_valid"] = Number(summary.num_distinct_valid());
    std::printf("%s\n", ToJson(out).c_str());
    return 0;
  }
  if (summary.termination() == v1::INFEASIBLE) {
    std::printf(
        "no valid board: the rules are unsatisfiable (proven by %s, %s)\n",
        summary.solved_by().empty() ? summary.backend().name().c_str()
                                    : summary.solved_by().c_str(),
        EncodingText(summary.exact().encoding()).c_str());
    return 0;
  }
  const bool model = header.stats().has_model();
  std::printf(model ? "best assignment:\n" : "best board:\n");
  PrintBoard(summary.best_solution());
  std::printf(
      "energy %g%s: %s\n", summary.best_energy(),
      summary.has_ground_energy()
          ? absl::StrCat(" (ground ", summary.ground_energy(), ")").c_str()
          : "",
      model ? (summary.best_valid() ? "FEASIBLE" : "NOT FEASIBLE")
            : (summary.best_valid() ? "VALID" : "NOT VALID"));
  if (summary.has_objective())
    std::printf("objective %.17g\n", summary.objective());
  for (const auto& v : summary.best_violations())
    std::printf("  violation: %s\n", ViolationText(v).c_str());
  std::printf("reads %u, valid %u (%.1f%%), termination %s\n",
              summary.reads_done(), summary.num_valid(),
              100 * summary.success_fraction(),
              v1::Termination_Name(summary.termination()).c_str());
  if (summary.reads_cut_short() > 0)
    std::printf("reads cut short %u (scored as the stop left them)\n",
                summary.reads_cut_short());
  if (!summary.budget_clamped().empty())
    std::printf("budget clamped: %s\n", summary.budget_clamped().c_str());
  if (summary.rounds() > 1)
    std::printf("rounds %u (reads drawn again until a valid board)\n",
                summary.rounds());
  if (summary.has_exact()) {
    const v1::ExactSummary& e = summary.exact();
    std::printf("%s: %s (%s)\n", summary.backend().name().c_str(),
                e.unique()                ? "the solution is unique"
                : e.complete()            ? "every solution found"
                : e.solutions_found() > 1 ? "the solution is not unique"
                                          : "stopped before the proof",
                EncodingText(e.encoding()).c_str());
  }
  if (request.params().distinct_valid())
    std::printf("distinct valid boards: %u\n", summary.num_distinct_valid());
  if (!summary.solved_by().empty() &&
      summary.solved_by() != summary.backend().name())
    std::printf("solved by %s\n", summary.solved_by().c_str());
  const auto& t = summary.timings();
  std::printf(
      "timings: queue %.3f ms, compile %.3f ms, sample %.3f ms, decode %.3f "
      "ms, total %.3f ms\n",
      t.queue_seconds() * 1e3, t.compile_seconds() * 1e3,
      t.sample_seconds() * 1e3, t.decode_seconds() * 1e3,
      t.total_seconds() * 1e3);
  if (summary.attempts_per_second() > 0)
    std::printf("%.3g spin-update attempts/s\n", summary.attempts_per_second());
  std::printf("%s\n", BackendDetailsText(summary.backend()).c_str());
  return 0;
}

int Validate() {
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  // The server parses the board with the puzzle in the same call.
  auto parsed = PuzzleFromFlags(*stub, /*with_board=*/true);
  if (!parsed.ok()) return ReportInputError(parsed.status());
  v1::ValidateRequest request;
  *request.mutable_puzzle() = parsed->puzzle();
  *request.mutable_solution() = parsed->board();
  grpc::ClientContext context;
  PrepareContext(context);
  v1::ValidateResponse response;
  const grpc::Status status = stub->Validate(&context, request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (absl::GetFlag(FLAGS_json)) {
    std::printf("%s\n", ToJson(response).c_str());
    return 0;
  }
  std::printf("%s", response.report().valid() ? "VALID" : "NOT VALID");
  if (response.has_energy()) std::printf(" (energy %g)", response.energy());
  if (response.report().has_objective())
    std::printf(" objective %.17g", response.report().objective());
  std::printf("\n");
  for (const auto& v : response.report().violations())
    std::printf("  violation: %s\n", ViolationText(v).c_str());
  return 0;
}

std::string EncodingText(const v1::EncodingStats& e) {
  std::string text =
      absl::StrCat(e.primary_variables(), " variables, ", e.clauses(),
                   " clauses, ", e.auxiliary_variables(), " auxiliary");
  if (e.bdd_nodes() > 0 || e.bdd_operations() > 0) {
    text = absl::StrCat(e.primary_variables(), " variables, BDD ",
                        e.bdd_nodes(), " nodes (peak ", e.bdd_peak_nodes(),
                        "), ", e.bdd_operations(), " operations");
  }
  return text;
}

int Count() {
  v1::CountRequest request;
  const int64_t limit = absl::GetFlag(FLAGS_limit);
  if (limit < 0)
    return ReportLocalError(absl::InvalidArgumentError("--limit must be >= 0"));
  request.set_limit(static_cast<uint64_t>(limit));
  const std::string method = absl::GetFlag(FLAGS_method);
  if (method == "auto") {
    request.set_method(v1::COUNT_METHOD_AUTO);
  } else if (method == "sat") {
    request.set_method(v1::COUNT_METHOD_SAT);
  } else if (method == "bdd") {
    request.set_method(v1::COUNT_METHOD_BDD);
  } else {
    return ReportLocalError(absl::InvalidArgumentError(
        absl::StrCat("--method: auto, sat or bdd, got '", method, "'")));
  }
  request.set_time_limit_seconds(absl::GetFlag(FLAGS_time_limit));
  auto encoding = EncodingFromFlags();
  if (!encoding.ok()) return ReportLocalError(encoding.status());
  request.set_encoding(*encoding);
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  auto parsed = PuzzleFromFlags(*stub);
  if (!parsed.ok()) return ReportInputError(parsed.status());
  *request.mutable_puzzle() = parsed->puzzle();
  grpc::ClientContext context;
  PrepareContext(context);
  v1::CountResponse response;
  const grpc::Status status = stub->Count(&context, request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (absl::GetFlag(FLAGS_json)) {
    std::printf("%s\n", ToJson(response).c_str());
    return 0;
  }
  std::printf("%s: %llu solution%s%s\n", response.puzzle_kind().c_str(),
              static_cast<unsigned long long>(response.count()),
              response.count() == 1 ? "" : "s",
              response.unique()     ? " (unique)"
              : response.complete() ? " (all of them)"
                                    : " (stopped: there may be more)");
  std::printf("method %s: %s\n",
              response.method() == v1::COUNT_METHOD_BDD ? "bdd" : "sat",
              EncodingText(response.encoding()).c_str());
  std::printf("time %.3f s\n", response.seconds());
  return 0;
}

// --variant, on GenerateRequest's message field named after the kind.
absl::Status SetVariant(const std::string& kind, v1::GenerateRequest& request) {
  const std::string text = absl::GetFlag(FLAGS_variant);
  if (text.empty()) return absl::OkStatus();
  const google::protobuf::FieldDescriptor* field =
      request.GetDescriptor()->FindFieldByName(kind);
  if (field == nullptr || field->message_type() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--variant: generating ", kind, " takes no options"));
  }
  absl::StatusOr<std::vector<clients::ParamSetting>> settings =
      clients::ParseSettings(text, "--variant");
  if (!settings.ok()) return settings.status();
  return clients::ApplySettingsTo(
      *settings, *request.GetReflection()->MutableMessage(&request, field));
}

int Generate() {
  v1::GenerateRequest request;
  const int64_t size = absl::GetFlag(FLAGS_size),
                cols = absl::GetFlag(FLAGS_cols),
                count = absl::GetFlag(FLAGS_count),
                clues = absl::GetFlag(FLAGS_clues);
  if (size <= 0) {
    // No one size fits every kind: the board's side is the user's to choose.
    return ReportLocalError(absl::InvalidArgumentError(
        "--size: the board's rows (or side), e.g. --size 9; `qsolve families "
        "--describe KIND` shows an example of the kind"));
  }
  if (cols < 0 || count <= 0 || clues < 0) {
    return ReportLocalError(absl::InvalidArgumentError(
        "--count must be positive, --cols and --clues >= 0"));
  }
  request.set_rows(static_cast<uint32_t>(std::min<int64_t>(size, UINT32_MAX)));
  request.set_cols(static_cast<uint32_t>(std::min<int64_t>(cols, UINT32_MAX)));
  request.set_count(
      static_cast<uint32_t>(std::min<int64_t>(count, UINT32_MAX)));
  request.set_target_clues(
      static_cast<uint32_t>(std::min<int64_t>(clues, UINT32_MAX)));
  const std::string difficulty = absl::GetFlag(FLAGS_difficulty);
  if (difficulty == "easy") {
    request.set_difficulty(v1::DIFFICULTY_EASY);
  } else if (difficulty == "medium") {
    request.set_difficulty(v1::DIFFICULTY_MEDIUM);
  } else if (difficulty == "hard") {
    request.set_difficulty(v1::DIFFICULTY_HARD);
  } else {
    return ReportLocalError(absl::InvalidArgumentError(absl::StrCat(
        "--difficulty: easy, medium or hard, got '", difficulty, "'")));
  }
  if (absl::GetFlag(FLAGS_seed) >= 0)
    request.set_seed(static_cast<uint64_t>(absl::GetFlag(FLAGS_seed)));
  request.set_time_limit_seconds(absl::GetFlag(FLAGS_time_limit));
  auto params = SolveParamsFromFlags();
  if (!params.ok()) return ReportLocalError(params.status());
  // --time_limit bounds the whole call, not each sampling solve.
  params->set_time_limit_seconds(0);
  *request.mutable_sampling() = *params;

  const bool json = absl::GetFlag(FLAGS_json);
  auto stub = v1::Solver::NewStub(MakeChannel(absl::GetFlag(FLAGS_addr)));
  auto kind = KindFromFlags(*stub, /*generating=*/true);
  if (!kind.ok()) return ReportInputError(kind.status());
  request.set_family(*kind);
  if (absl::Status s = SetVariant(*kind, request); !s.ok())
    return ReportLocalError(s);
  grpc::ClientContext context;
  PrepareContext(context);
  auto reader = stub->Generate(&context, request);
  v1::GeneratedPuzzle puzzle;
  int made = 0;
  while (reader->Read(&puzzle)) {
    ++made;
    if (json) {
      std::printf("%s\n", ToJson(puzzle).c_str());
      std::fflush(stdout);
      continue;
    }
    auto text =
        formats::FormatPuzzleText(puzzle.puzzle_kind(), puzzle.puzzle());
    if (!text.ok()) return ReportLocalError(text.status());
    std::fprintf(stderr,
                 "# %s %u: %u of %u clues, propagation decides %.0f%% of the "
                 "open cells, unique, %.3f s (seed %llu)\n",
                 puzzle.puzzle_kind().c_str(), puzzle.index() + 1,
                 puzzle.clues(), puzzle.clues_at_start(),
                 100 * puzzle.propagation_decided(), puzzle.seconds(),
                 static_cast<unsigned long long>(puzzle.seed()));
    std::printf("%s\n", text->c_str());
    std::fflush(stdout);
  }
  const grpc::Status status = reader->Finish();
  if (!status.ok()) return ReportRpcError(status);
  if (!json && made < count) {
    std::fprintf(stderr, "# %d of %lld puzzles made before the time limit\n",
                 made, static_cast<long long>(count));
  }
  return 0;
}

// absl flags are spelled with '_'; accept '-' in flag names too
// ("--input-file").
std::vector<char*> NormalizeFlagNames(int argc, char** argv,
                                      std::vector<std::string>& storage) {
  storage.reserve(argc);
  std::vector<char*> out;
  for (int k = 0; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg.size() > 2 && arg[0] == '-' && arg[1] == '-') {
      const size_t end = std::min(arg.find('='), arg.size());
      for (size_t p = 2; p < end; ++p) {
        if (arg[p] == '-') arg[p] = '_';
      }
    }
    storage.push_back(std::move(arg));
  }
  for (std::string& s : storage) out.push_back(s.data());
  return out;
}

// The subcommands, their synopses and the flags each reads, for `qsolve SUB
// --help`.
struct Subcommand {
  const char* name;
  const char* synopsis;
  std::vector<const char*> flags;
};

const std::vector<Subcommand>& Subcommands() {
  static const auto* const subcommands = [] {
    const std::vector<const char*> connection = {
        "addr",         "deadline",        "tls_ca_file", "tls_cert_file",
        "tls_key_file", "tls_server_name", "token_file"};
    const std::vector<const char*> puzzle = {
        "kind",       "input",  "input_file", "reduction",
        "preprocess", "format", "sense",      "instance"};
    const std::vector<const char*> solve = {"backend",
                                            "param",
                                            "auto_exact",
                                            "group_moves",
                                            "reads",
                                            "sweeps",
                                            "seed",
                                            "time_limit",
                                            "stop_at_first_valid",
                                            "aggregate",
                                            "distinct_valid",
                                            "max_solutions",
                                            "max_samples",
                                            "beta_hot",
                                            "beta_cold",
                                            "schedule",
                                            "beta_range",
                                            "sweeps_per_beta",
                                            "acceptance",
                                            "kernel",
                                            "replicas",
                                            "moves",
                                            "solver",
                                            "annealing_time",
                                            "chain_strength",
                                            "chain_strength_prefactor",
                                            "auto_scale",
                                            "label",
                                            "qaoa_layers",
                                            "gammas",
                                            "betas",
                                            "qaoa_optimizer",
                                            "qaoa_mixer",
                                            "qaoa_iterations"};
    auto join = [](std::initializer_list<std::vector<const char*>> groups) {
      std::vector<const char*> all;
      for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
      return all;
    };
    return new std::vector<Subcommand>{
        {"health", "exit 0 when the server is SERVING", connection},
        {"backends", "list the server's backends, or one backend's parameters",
         join({connection, {"json", "describe", "markdown"}})},
        {"families",
         "list the puzzle kinds the server parses and solves, or one kind's "
         "example",
         join({connection, {"json", "describe"}})},
        {"compile", "compile a puzzle to its QUBO and print its statistics",
         join({connection,
               puzzle,
               {"encoding", "export", "export_format", "export_qasm",
                "qasm_version", "qaoa_layers", "gammas", "betas", "json"}})},
        {"solve", "solve a puzzle, streaming samples",
         join({connection,
               puzzle,
               solve,
               {"encoding", "target_objective", "samples", "json"}})},
        {"validate", "check a board against the puzzle's rules",
         join({connection, puzzle, {"board", "json"}})},
        {"count", "count the boards that keep the puzzle's rules",
         join({connection,
               puzzle,
               {"encoding", "limit", "method", "time_limit", "json"}})},
        {"generate", "make puzzles with proven-unique solutions",
         join({connection,
               {"kind", "size", "cols", "count", "difficulty", "clues", "seed",
                "reads", "sweeps", "time_limit", "json"}})},
        {"batch", "solve a file of puzzles over one or more servers",
         join({connection,
               {"input_file", "output", "concurrency", "streams", "retries",
                "give_up_after", "progress", "reduction", "preprocess",
                "format", "sense", "instance"},
               solve})},
        {"bench", "time-to-solution of models over backends and budgets",
         join({connection,
               {"models", "kind", "format", "sense", "instance", "backends",
                "time_budgets", "repeats", "target", "csv", "plot", "bootstrap",
                "json"},
               solve})},
    };
  }();
  return *subcommands;
}

std::string Usage() {
  std::string usage =
      "qsolve SUBCOMMAND --addr HOST:PORT [flags]\n\nsubcommands:\n";
  for (const Subcommand& sub : Subcommands())
    absl::StrAppendFormat(&usage, "  %-9s %s\n", sub.name, sub.synopsis);
  usage +=
      "\n`qsolve SUBCOMMAND --help` lists its flags; `qsolve --version` "
      "prints the version. Flag names take '-' or '_'.";
  return usage;
}

// `--help` (or -h) and `--version` anywhere on the command line: prints and
// returns the exit status; nullopt when neither is there.
std::optional<int> HelpOrVersion(const std::vector<char*>& args) {
  bool help = false, version = false;
  const char* command = nullptr;
  for (size_t k = 1; k < args.size(); ++k) {
    const absl::string_view arg = args[k];
    if (arg == "--help" || arg == "-h" || arg == "--helpfull") help = true;
    if (arg == "--version") version = true;
    if (command == nullptr && !absl::StartsWith(arg, "-")) command = args[k];
  }
  if (version) {
    std::printf("qsolve %s\n", QS_VERSION);
    return 0;
  }
  if (!help) return std::nullopt;
  for (const Subcommand& sub : Subcommands()) {
    if (command == nullptr || sub.name != absl::string_view(command)) continue;
    std::printf("qsolve %s: %s\n\nflags:\n", sub.name, sub.synopsis);
    for (const char* name : sub.flags) {
      const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
      if (flag == nullptr) continue;
      std::printf("  --%s (default \"%s\")\n      %s\n", name,
                  flag->DefaultValue().c_str(), flag->Help().c_str());
    }
    return 0;
  }
  if (command != nullptr) {
    std::fprintf(stderr, "unknown command '%s'\n%s\n", command,
                 Usage().c_str());
    return kExitUsage;
  }
  std::printf("%s\n", Usage().c_str());
  return 0;
}

}  // namespace
}  // namespace qs::cli

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(qs::cli::Usage());
  std::vector<std::string> storage;
  std::vector<char*> args = qs::cli::ExtractParamArgs(
      qs::cli::NormalizeFlagNames(argc, argv, storage));
  if (auto status = qs::cli::HelpOrVersion(args)) return *status;
  std::vector<char*> positional =
      absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  if (positional.size() != 2) {
    std::fprintf(stderr, "usage: %s\n", absl::ProgramUsageMessage().data());
    return qs::cli::kExitUsage;
  }
  const std::string command = positional[1];
  if (command == "health") return qs::cli::Health();
  if (command == "backends") return qs::cli::Backends();
  if (command == "families") return qs::cli::Families();
  if (command == "compile") return qs::cli::Compile();
  if (command == "solve") return qs::cli::Solve();
  if (command == "validate") return qs::cli::Validate();
  if (command == "count") return qs::cli::Count();
  if (command == "generate") return qs::cli::Generate();
  if (command == "batch") return qs::cli::Batch();
  if (command == "bench") return qs::cli::Bench();
  std::fprintf(stderr, "unknown command '%s'\nusage: %s\n", command.c_str(),
               absl::ProgramUsageMessage().data());
  return qs::cli::kExitUsage;
}
