// The SAPI emulator (docs/dwave-protocol.md §4.1 items 1-12; protocol
// details from §1.1-§1.9).
#include "tests/sapi_emulator/sapi_emulator.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/interrupter.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/base/worker_pool.h"
#include "core/qubo/qubo.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/dwave/hardware_graph.h"
#include "core/sample/dwave/qp_codec.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "core/sample/schedule.h"
#include "nlohmann/json.hpp"

namespace qs::sapi_emulator {

using json = nlohmann::json;
using dwave::HardwareGraph;

namespace {

constexpr absl::string_view kSolverListType =
    "application/vnd.dwave.sapi.solver-definition-list+json";
constexpr absl::string_view kSolverType =
    "application/vnd.dwave.sapi.solver-definition+json";
constexpr absl::string_view kProblemsType =
    "application/vnd.dwave.sapi.problems+json";
constexpr absl::string_view kProblemType =
    "application/vnd.dwave.sapi.problem+json";
constexpr absl::string_view kProblemDataType =
    "application/vnd.dwave.sapi.problem-data+json";
constexpr absl::string_view kAnswerType =
    "application/vnd.dwave.sapi.problem-answer+json";
constexpr absl::string_view kMessageType =
    "application/vnd.dwave.sapi.problem-message+json";
constexpr absl::string_view kRegionsType =
    "application/vnd.dwave.metadata.regions+json";
constexpr absl::string_view kRegionType =
    "application/vnd.dwave.metadata.region+json";

// Timing model of the answers (µs), after the documented live example (§1.6).
constexpr double kProgrammingTime = 15062.36;
constexpr double kReadoutPerSample = 36.4;
constexpr double kDelayPerSample = 20.54;
constexpr double kAccessOverhead = 6535.24;
constexpr double kPostProcessing = 1853.0;

std::string Rfc3339(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", t, absl::UTCTimeZone());
}

uint64_t HashBytes(absl::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

json ErrorBody(int code, absl::string_view message) {
  return {{"error_code", code}, {"error_msg", message}};
}

struct Solver {
  SolverSpec spec;
  HardwareGraph graph;
  std::string graph_id;
  json definition;  // full, status and avg_load included
  bool qpu = true;
};

struct Problem {
  std::string id;
  std::string solver;
  json identity;
  std::string type;
  std::string label;
  json params;
  json data;
  absl::Time submitted;
  absl::Time ready;  // earliest completion (queue delay + run time)
  absl::Time queued_until;
  bool solved = false;
  bool cancelled = false;
  bool failed = false;
  std::string error_message;
  absl::Time solved_on;
  json answer;
};

// JSON filter of §1.3: "{all|none}[,{+|-}field]..." with dotted paths.
json ApplyFilter(const json& full, absl::string_view filter) {
  if (filter.empty()) return full;
  std::vector<std::string> parts =
      absl::StrSplit(filter, ',', absl::SkipEmpty());
  json out = full;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string part(absl::StripAsciiWhitespace(parts[i]));
    if (part == "all") {
      out = full;
      continue;
    }
    if (part == "none") {
      out = json::object();
      continue;
    }
    // A '+' in a query string arrives as a space.
    char sign = '+';
    if (!part.empty() && (part[0] == '+' || part[0] == '-' || part[0] == ' ')) {
      sign = part[0] == '-' ? '-' : '+';
      part = part.substr(1);
    }
    std::vector<std::string> path = absl::StrSplit(part, '.');
    if (sign == '-') {
      json* node = &out;
      for (size_t k = 0; k + 1 < path.size() && node != nullptr; ++k) {
        node = node->is_object() && node->contains(path[k]) ? &(*node)[path[k]]
                                                            : nullptr;
      }
      if (node != nullptr && node->is_object()) node->erase(path.back());
    } else {
      const json* source = &full;
      for (const std::string& key : path) {
        source = source->is_object() && source->contains(key) ? &(*source)[key]
                                                              : nullptr;
        if (source == nullptr) break;
      }
      if (source == nullptr) continue;  // missing fields are simply omitted
      json* node = &out;
      for (size_t k = 0; k + 1 < path.size(); ++k) {
        if (!node->contains(path[k]) || !(*node)[path[k]].is_object())
          (*node)[path[k]] = json::object();
        node = &(*node)[path[k]];
      }
      (*node)[path.back()] = *source;
    }
  }
  return out;
}

}  // namespace

std::vector<SolverSpec> DefaultSolvers() {
  return {
      {.name = "Advantage_emulator_P16",
       .topology = "pegasus",
       .shape = {16},
       .defect_seed = 16,
       .broken_qubits = 0.002,
       .broken_couplers = 0.001,
       .avg_load = 0.1},
      {.name = "Advantage2_emulator_Z12",
       .topology = "zephyr",
       .shape = {12, 4},
       .defect_seed = 12,
       .broken_qubits = 0.01,
       .broken_couplers = 0.002,
       .avg_load = 0.2},
      {.name = "FAKE_k4", .topology = "clique", .shape = {4}},
      {.name = "Chimera_emulator_C4",
       .topology = "chimera",
       .shape = {4, 4, 4},
       .avg_load = 0.5},
      {.name = "hybrid_binary_quadratic_model_version2p",
       .topology = "hybrid",
       .shape = {}},
  };
}

class SapiEmulator::Impl {
 public:
  explicit Impl(Options options)
      : options_(std::move(options)), pool_(std::max(1, options_.threads)) {
    if (options_.solvers.empty()) options_.solvers = DefaultSolvers();
    if (!absl::EndsWith(options_.base_path, "/")) options_.base_path += "/";
    rng_state_ = options_.seed;
    {
      absl::MutexLock lock(&mu_);
      for (const SolverSpec& spec : options_.solvers) AddSolver(spec);
    }
    solve_thread_ = std::thread([this] { SolveLoop(); });
    server_.Get(".*", [this](const httplib::Request& req,
                             httplib::Response& res) { Dispatch(req, res); });
    server_.Post(".*", [this](const httplib::Request& req,
                              httplib::Response& res) { Dispatch(req, res); });
    server_.Delete(".*",
                   [this](const httplib::Request& req, httplib::Response& res) {
                     Dispatch(req, res);
                   });
    server_.Put(".*", [this](const httplib::Request& req,
                             httplib::Response& res) { Dispatch(req, res); });
    server_.set_keep_alive_max_count(100);
    server_.set_read_timeout(60, 0);
    server_.set_write_timeout(60, 0);
  }

  ~Impl() {
    Stop();
    {
      std::lock_guard<std::mutex> lock(solve_mu_);
      stopping_ = true;
    }
    solve_cv_.notify_all();
    if (solve_thread_.joinable()) solve_thread_.join();
  }

  absl::Status Bind() {
    if (options_.port == 0) {
      port_ = server_.bind_to_any_port(options_.host);
    } else {
      port_ = server_.bind_to_port(options_.host, options_.port) ? options_.port
                                                                 : -1;
    }
    if (port_ <= 0)
      return absl::UnavailableError(
          absl::StrCat("cannot bind ", options_.host, ":", options_.port));
    return absl::OkStatus();
  }

  absl::Status Start() {
    RETURN_IF_ERROR(Bind());
    listen_thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) absl::SleepFor(absl::Milliseconds(1));
    return absl::OkStatus();
  }

  absl::Status Run() {
    RETURN_IF_ERROR(Bind());
    std::printf("SAPI emulator: endpoint %s  metadata %s\n", Endpoint().c_str(),
                MetadataEndpoint().c_str());
    std::fflush(stdout);
    server_.listen_after_bind();
    return absl::OkStatus();
  }

  void Stop() {
    if (server_.is_running()) server_.stop();
    if (listen_thread_.joinable()) listen_thread_.join();
  }

  int port() const { return port_; }
  std::string Root() const {
    return absl::StrCat("http://", options_.host, ":", port_);
  }
  std::string Endpoint() const { return Root() + options_.base_path; }
  std::string MetadataEndpoint() const { return Root() + "/metadata/v1/"; }

  void AddFault(Fault fault) {
    absl::MutexLock lock(&mu_);
    faults_.push_back(std::move(fault));
  }
  void ClearFaults() {
    absl::MutexLock lock(&mu_);
    faults_.clear();
  }
  std::vector<LogEntry> Log() const {
    absl::MutexLock lock(&mu_);
    return log_;
  }
  void ClearLog() {
    absl::MutexLock lock(&mu_);
    log_.clear();
  }
  void ClearSubmissions() {
    absl::MutexLock lock(&mu_);
    submissions_.clear();
  }
  std::vector<SubmittedProblem> Submissions() const {
    absl::MutexLock lock(&mu_);
    std::vector<SubmittedProblem> out;
    for (const std::string& id : submissions_) {
      auto it = problems_.find(id);
      if (it == problems_.end()) continue;
      const Problem& p = it->second;
      const Solver& solver = solvers_.at(p.solver);
      SubmittedProblem sp{p.id, p.solver, p.type, p.params.dump(), {}};
      auto decoded = dwave::DecodeQp(
          {p.data["lin"].get<std::string>(), p.data["quad"].get<std::string>()},
          solver.graph.qubits(), solver.graph.couplers());
      if (decoded.ok()) sp.problem = *std::move(decoded);
      out.push_back(std::move(sp));
    }
    return out;
  }
  absl::Status SetSolverStatus(absl::string_view name, absl::string_view status,
                               double avg_load) {
    absl::MutexLock lock(&mu_);
    auto it = solvers_.find(std::string(name));
    if (it == solvers_.end())
      return absl::NotFoundError(absl::StrCat("no solver ", name));
    it->second.definition["status"] = std::string(status);
    if (avg_load >= 0) it->second.definition["avg_load"] = avg_load;
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> GraphIdOf(absl::string_view name) const {
    absl::MutexLock lock(&mu_);
    auto it = solvers_.find(std::string(name));
    if (it == solvers_.end())
      return absl::NotFoundError(absl::StrCat("no solver ", name));
    return it->second.graph_id;
  }
  absl::StatusOr<std::string> ProblemStatusOf(absl::string_view id) const {
    absl::MutexLock lock(&mu_);
    auto it = problems_.find(std::string(id));
    if (it == problems_.end())
      return absl::NotFoundError(absl::StrCat("no problem ", id));
    return StatusOf(it->second, absl::Now());
  }

 private:
  // ------------------------------------------------------------------------------------------------
  // Catalogue.

  void AddSolver(const SolverSpec& spec) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Solver solver;
    solver.spec = spec;
    json props;
    if (spec.topology == "hybrid") {
      solver.qpu = false;
      props = {{"category", "hybrid"},
               {"supported_problem_types", {"bqm"}},
               {"maximum_number_of_variables", 1000000},
               {"minimum_time_limit",
                {{1, 3.0}, {1024, 3.0}, {4096, 10.0}, {10000, 40.0}}},
               {"parameters",
                {{"time_limit", "Maximum requested runtime in seconds."}}}};
      solver.definition = {{"identity", {{"name", spec.name}}},
                           {"status", "ONLINE"},
                           {"description", "hybrid BQM solver (listing only)"},
                           {"avg_load", spec.avg_load},
                           {"properties", props}};
      solvers_[spec.name] = std::move(solver);
      return;
    }
    if (spec.topology == "clique") {
      // The §1.7 worked example: qubits 0, 1, 4, 5 of 6 (2 and 3 broken), K4
      // couplers.
      solver.graph = dwave::CliqueGraph({0, 1, 4, 5}, 6);
      solver.graph_id = "fake00k4aa";
    } else {
      auto graph = dwave::GraphForTopology(spec.topology, spec.shape);
      if (!graph.ok()) {
        std::fprintf(stderr, "solver %s: %s\n", spec.name.c_str(),
                     std::string(graph.status().message()).c_str());
        return;
      }
      solver.graph =
          spec.defect_seed != 0
              ? dwave::RemoveDefects(*graph, spec.defect_seed,
                                     spec.broken_qubits, spec.broken_couplers)
              : *std::move(graph);
      solver.graph_id = dwave::GraphId(solver.graph);
    }
    json couplers = json::array();
    for (const auto& [a, b] : solver.graph.couplers())
      couplers.push_back({a, b});
    props = {{"category", "qpu"},
             {"supported_problem_types", {"ising", "qubo"}},
             {"num_qubits", solver.graph.num_qubits()},
             {"qubits", solver.graph.qubits()},
             {"couplers", std::move(couplers)},
             {"topology", {{"type", spec.topology}, {"shape", spec.shape}}},
             {"h_range", {-4.0, 4.0}},
             {"j_range", {-1.0, 1.0}},
             {"extended_j_range", {-2.0, 1.0}},
             {"per_qubit_coupling_range", {-18.0, 15.0}},
             {"num_reads_range", {1, 10000}},
             {"annealing_time_range", {0.5, 2000.0}},
             {"max_anneal_schedule_points", 12},
             {"max_h_gain_schedule_points", 20},
             {"h_gain_schedule_range", {-4.0, 4.0}},
             {"default_annealing_time", 20.0},
             {"problem_run_duration_range", {0.0, 1000000.0}},
             {"default_programming_thermalization", 1000.0},
             {"default_readout_thermalization", 0.0},
             {"problem_timing_data",
              {{"version", "1.0.0"},
               {"typical_programming_time", kProgrammingTime},
               {"readout_time_model", "pwl_log_log"},
               {"qpu_delay_time_per_sample", kDelayPerSample}}},
             {"parameters",
              {{"num_reads", "Number of reads."},
               {"annealing_time", "Anneal time in us."},
               {"anneal_schedule", "Anneal schedule."},
               {"auto_scale", "Rescale h and J."},
               {"answer_mode", "histogram or raw."},
               {"label", "Problem label."},
               {"programming_thermalization", "Delay after programming in us."},
               {"readout_thermalization", "Delay after each read in us."},
               {"flux_biases", "Flux biases."},
               {"initial_state", "Initial state for reverse annealing."},
               {"reinitialize_state",
                "Reapply the initial state for every read of a reverse "
                "anneal."},
               {"h_gain_schedule", "Time-dependent gain on h."}}}};
    solver.definition = {
        {"identity",
         {{"name", spec.name}, {"version", {{"graph_id", solver.graph_id}}}}},
        {"status", "ONLINE"},
        {"description", absl::StrCat("emulated ", spec.topology, " QPU")},
        {"avg_load", spec.avg_load},
        {"properties", std::move(props)}};
    solvers_[spec.name] = std::move(solver);
  }

  // ------------------------------------------------------------------------------------------------
  // Dispatch: logging, auth, content negotiation, faults, routing.

  struct Route {
    std::string name;
    std::string media;  // the representation served
    std::string id;     // problem id or solver name in the path
    std::string sub;    // "answer", "info", "messages"
  };

  std::optional<Route> Classify(const std::string& method,
                                absl::string_view path) const {
    if (absl::StartsWith(path, "/metadata/v1/regions")) {
      absl::string_view rest = absl::StripPrefix(path, "/metadata/v1/regions");
      rest = absl::StripPrefix(rest, "/");
      rest = absl::StripSuffix(rest, "/");
      if (rest.empty())
        return Route{"regions", std::string(kRegionsType), "", ""};
      return Route{"region", std::string(kRegionType), std::string(rest), ""};
    }
    if (!absl::StartsWith(path, options_.base_path)) return std::nullopt;
    absl::string_view rest = path.substr(options_.base_path.size());
    rest = absl::StripSuffix(rest, "/");
    std::vector<std::string> parts = absl::StrSplit(rest, '/');
    if (parts.size() >= 2 && parts[0] == "solvers" && parts[1] == "remote") {
      if (parts.size() == 2)
        return Route{"solvers", std::string(kSolverListType), "", ""};
      if (parts.size() == 3)
        return Route{"solver", std::string(kSolverType), parts[2], ""};
      return std::nullopt;
    }
    if (!parts.empty() && parts[0] == "problems") {
      if (parts.size() == 1) {
        if (method == "POST")
          return Route{"submit", std::string(kProblemsType), "", ""};
        if (method == "DELETE")
          return Route{"cancel", std::string(kProblemsType), "", ""};
        return Route{"poll", std::string(kProblemsType), "", ""};
      }
      if (parts.size() == 2) {
        return Route{method == "DELETE" ? "cancel" : "problem",
                     std::string(kProblemType), parts[1], ""};
      }
      if (parts.size() == 3 && parts[2] == "answer")
        return Route{"answer", std::string(kAnswerType), parts[1], "answer"};
      if (parts.size() == 3 && parts[2] == "info")
        return Route{"info", std::string(kProblemDataType), parts[1], "info"};
      if (parts.size() == 3 && parts[2] == "messages") {
        return Route{"messages", std::string(kMessageType), parts[1],
                     "messages"};
      }
    }
    return std::nullopt;
  }

  std::optional<Fault> TakeFault(const std::string& route)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto it = faults_.begin(); it != faults_.end(); ++it) {
      if (it->kind == "fail_problem" || it->kind == "cancel_problem") continue;
      if (it->route != "any" && it->route != route) continue;
      Fault fault = *it;
      if (--it->count <= 0) faults_.erase(it);
      return fault;
    }
    return std::nullopt;
  }

  std::optional<Fault> TakeProblemFault() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto it = faults_.begin(); it != faults_.end(); ++it) {
      if (it->kind != "fail_problem" && it->kind != "cancel_problem") continue;
      Fault fault = *it;
      if (--it->count <= 0) faults_.erase(it);
      return fault;
    }
    return std::nullopt;
  }

  void SendJson(httplib::Response& res, int code, const json& body,
                absl::string_view media, absl::string_view version = "3.0.0") {
    res.status = code;
    res.set_content(body.dump(), absl::StrCat(media, "; version=", version,
                                              "; charset=utf-8"));
  }

  void Dispatch(const httplib::Request& req, httplib::Response& res) {
    LogEntry entry;
    entry.method = req.method;
    entry.path = req.path;
    for (const auto& [k, v] : req.params) {
      absl::StrAppend(&entry.query, entry.query.empty() ? "" : "&", k, "=", v);
    }
    entry.accept = req.get_header_value("Accept");
    entry.body_hash = req.body.empty() ? 0 : HashBytes(req.body);
    absl::Duration delay;
    Handle(req, res, entry, delay);
    entry.status = res.status;
    {
      absl::MutexLock lock(&mu_);
      log_.push_back(std::move(entry));
    }
    // A slow answer is logged (and its work done) before the client gives up
    // waiting for it.
    if (delay > absl::ZeroDuration()) absl::SleepFor(delay);
  }

  void Handle(const httplib::Request& req, httplib::Response& res,
              LogEntry& entry, absl::Duration& delay) {
    if (absl::StartsWith(req.path, "/_emulator/")) {
      entry.route = "control";
      HandleControl(req, res);
      return;
    }
    std::optional<Route> route = Classify(req.method, req.path);
    if (!route) {
      entry.route = "unknown";
      SendJson(res, 404, ErrorBody(404, "Not found"), "application/json");
      return;
    }
    entry.route = route->name;
    const bool metadata = route->name == "regions" || route->name == "region";
    const std::string token = req.get_header_value("X-Auth-Token");
    const bool limited = !options_.token_without_access.empty() &&
                         token == options_.token_without_access;
    entry.authenticated =
        limited || std::find(options_.tokens.begin(), options_.tokens.end(),
                             token) != options_.tokens.end();
    if (!metadata && !entry.authenticated) {
      SendJson(res, 401, ErrorBody(401, "Invalid token or access denied"),
               "application/json");
      return;
    }
    // Content negotiation.
    const std::string accept = req.get_header_value("Accept");
    bool deprecated = false;
    if (accept.empty() || absl::StartsWith(accept, "*/*") ||
        absl::StartsWith(accept, "application/json")) {
      deprecated = true;
    } else {
      std::vector<absl::string_view> parts = absl::StrSplit(accept, ';');
      const std::string media =
          absl::AsciiStrToLower(absl::StripAsciiWhitespace(parts[0]));
      std::string version;
      for (size_t i = 1; i < parts.size(); ++i) {
        absl::string_view p = absl::StripAsciiWhitespace(parts[i]);
        if (absl::StartsWith(p, "version=")) version = std::string(p.substr(8));
      }
      const std::string wanted_major = metadata ? "1" : "3";
      if (media != route->media ||
          (!version.empty() && !absl::StartsWith(version, wanted_major))) {
        SendJson(
            res, 415,
            ErrorBody(415, absl::StrCat("Unsupported media type ", accept,
                                        "; this resource serves ", route->media,
                                        " version ", wanted_major, ".x")),
            "application/json");
        return;
      }
    }
    if (deprecated) {
      res.set_header("X-Deprecation",
                     "missing-accept;context=api;message=\"Send an Accept "
                     "header with a version\";sunset=\"2027-01-01\"");
    }

    std::optional<Fault> fault;
    {
      absl::MutexLock lock(&mu_);
      fault = TakeFault(route->name);
    }
    if (fault && fault->kind == "status") {
      res.status = fault->http_status;
      if (!fault->retry_after.empty())
        res.set_header("Retry-After", fault->retry_after);
      const std::string message =
          fault->message.empty()
              ? absl::StrCat("Injected error ", fault->http_status)
              : fault->message;
      if (fault->plain_text) {
        res.set_content(message, "text/plain");
      } else {
        res.set_content(ErrorBody(fault->http_status, message).dump(),
                        "application/json");
      }
      return;
    }

    const std::string version = metadata ? "1.0.0" : "3.0.0";
    int code = 200;
    json body;
    if (route->name == "regions") {
      body = json::array();
      for (const char* region : {"na-west-1", "eu-central-1"}) {
        body.push_back({{"code", region},
                        {"name", absl::StrCat("Emulated ", region)},
                        {"endpoint", Endpoint()}});
      }
    } else if (route->name == "region") {
      if (route->id != "na-west-1" && route->id != "eu-central-1") {
        code = 404;
        body = ErrorBody(404, "Region not found");
      } else {
        body = {{"code", route->id},
                {"name", absl::StrCat("Emulated ", route->id)},
                {"endpoint", Endpoint()}};
      }
    } else if (route->name == "solvers") {
      std::tie(code, body) = ListSolvers(req, limited, res);
    } else if (route->name == "solver") {
      std::tie(code, body) = GetSolver(req, route->id, limited, res);
    } else if (route->name == "submit") {
      std::tie(code, body) = Submit(req, limited);
    } else if (route->name == "poll") {
      std::tie(code, body) = Poll(req);
    } else if (route->name == "problem") {
      std::tie(code, body) = GetProblem(req, route->id);
    } else if (route->name == "answer") {
      std::tie(code, body) = GetAnswer(route->id);
    } else if (route->name == "info") {
      std::tie(code, body) = GetInfo(route->id);
    } else if (route->name == "messages") {
      std::tie(code, body) = GetMessages(route->id);
    } else if (route->name == "cancel") {
      std::tie(code, body) =
          route->id.empty() ? CancelList(req) : CancelOne(route->id);
    }
    if (code == 304) {
      res.status = 304;
      return;
    }
    const bool error =
        body.is_object() && body.contains("error_code") && code != 202;
    std::string media = error ? "application/json" : route->media;
    std::string served_version = version;
    if (fault && fault->kind == "wrong_version") served_version = "4.0.0";
    if (error) {
      SendJson(res, code, body, media, served_version);
    } else {
      SendJson(res, code, body, media, served_version);
    }
    if (fault && fault->kind == "truncated")
      res.body = res.body.substr(0, res.body.size() / 2);
    if (fault && fault->kind == "slow") delay = fault->delay;
  }

  void HandleControl(const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/_emulator/faults" && req.method == "POST") {
      json body = json::parse(req.body, nullptr, false);
      std::vector<json> items;
      if (body.is_array()) {
        for (const json& item : body) items.push_back(item);
      } else {
        items.push_back(body);
      }
      for (const json& item : items) {
        auto fault = ParseFault(item.dump());
        if (!fault.ok()) {
          SendJson(res, 400, ErrorBody(400, fault.status().message()),
                   "application/json");
          return;
        }
        AddFault(*std::move(fault));
      }
      SendJson(res, 200, json::object(), "application/json");
      return;
    }
    if (req.path == "/_emulator/reset" && req.method == "POST") {
      ClearFaults();
      ClearLog();
      ClearSubmissions();
      SendJson(res, 200, json::object(), "application/json");
      return;
    }
    if (req.path == "/_emulator/problems" && req.method == "GET") {
      json out = json::array();
      for (const SubmittedProblem& sp : Submissions()) {
        json h = json::object();
        for (const auto& [q, v] : sp.problem.linear) h[absl::StrCat(q)] = v;
        json j = json::array();
        for (const auto& [edge, v] : sp.problem.quadratic)
          j.push_back({edge.first, edge.second, v});
        out.push_back({{"id", sp.id},
                       {"solver", sp.solver},
                       {"type", sp.type},
                       {"params", json::parse(sp.params_json)},
                       {"h", std::move(h)},
                       {"J", std::move(j)}});
      }
      SendJson(res, 200, out, "application/json");
      return;
    }
    if (req.path == "/_emulator/log" && req.method == "GET") {
      json out = json::array();
      for (const LogEntry& e : Log()) {
        out.push_back({{"method", e.method},
                       {"path", e.path},
                       {"query", e.query},
                       {"status", e.status},
                       {"route", e.route},
                       {"accept", e.accept},
                       {"authenticated", e.authenticated},
                       {"body_hash", absl::StrFormat("%016x", e.body_hash)}});
      }
      SendJson(res, 200, out, "application/json");
      return;
    }
    if (absl::StartsWith(req.path, "/_emulator/solvers/") &&
        req.method == "POST") {
      const std::string name =
          req.path.substr(std::string("/_emulator/solvers/").size());
      json body = json::parse(req.body, nullptr, false);
      const std::string status = body.is_object() && body.contains("status") &&
                                         body["status"].is_string()
                                     ? body["status"].get<std::string>()
                                     : "ONLINE";
      const double load = body.is_object() && body.contains("avg_load") &&
                                  body["avg_load"].is_number()
                              ? body["avg_load"].get<double>()
                              : -1;
      absl::Status s = SetSolverStatus(name, status, load);
      SendJson(res, s.ok() ? 200 : 404,
               s.ok() ? json::object() : ErrorBody(404, s.message()),
               "application/json");
      return;
    }
    SendJson(res, 404, ErrorBody(404, "Not found"), "application/json");
  }

  // ------------------------------------------------------------------------------------------------
  // Solvers.

  std::pair<int, json> ListSolvers(const httplib::Request& req, bool limited,
                                   httplib::Response& res) {
    json list = json::array();
    if (!limited) {
      absl::MutexLock lock(&mu_);
      for (const SolverSpec& spec : options_.solvers) {
        auto it = solvers_.find(spec.name);
        if (it == solvers_.end()) continue;
        list.push_back(
            ApplyFilter(it->second.definition, req.get_param_value("filter")));
      }
    }
    return CacheControlled(req, res, std::move(list));
  }

  std::pair<int, json> GetSolver(const httplib::Request& req,
                                 const std::string& name, bool limited,
                                 httplib::Response& res) {
    json definition;
    {
      absl::MutexLock lock(&mu_);
      auto it = solvers_.find(name);
      if (limited || it == solvers_.end()) {
        return {
            404,
            ErrorBody(
                404, "Solver does not exist or apitoken does not have access")};
      }
      definition =
          ApplyFilter(it->second.definition, req.get_param_value("filter"));
    }
    return CacheControlled(req, res, std::move(definition));
  }

  std::pair<int, json> CacheControlled(const httplib::Request& req,
                                       httplib::Response& res, json body) {
    const std::string etag =
        absl::StrFormat("\"%016x\"", HashBytes(body.dump()));
    res.set_header("ETag", etag);
    res.set_header("Cache-Control", "private, max-age=60");
    if (req.get_header_value("If-None-Match") == etag) return {304, json()};
    return {200, std::move(body)};
  }

  // ------------------------------------------------------------------------------------------------
  // Submission.

  std::string NewUuid() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const uint64_t a = DeriveSeed(rng_state_, ++uuid_counter_);
    const uint64_t b =
        DeriveSeed(rng_state_ ^ 0x9e3779b97f4a7c15ULL, uuid_counter_);
    return absl::StrFormat(
        "%08x-%04x-4%03x-%04x-%012x", a >> 32, (a >> 16) & 0xffff, a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff), b & 0xffffffffffffULL);
  }

  // (t, value) pairs of a schedule parameter; empty with *error set when it is
  // not a list of numeric pairs.
  static std::vector<std::pair<double, double>> Points(const json& value,
                                                       absl::string_view name,
                                                       std::string* error) {
    std::vector<std::pair<double, double>> points;
    if (!value.is_array()) {
      *error = absl::StrCat(name, " should be a list");
      return {};
    }
    for (const json& point : value) {
      if (!point.is_array() || point.size() != 2 || !point[0].is_number() ||
          !point[1].is_number()) {
        *error = absl::StrCat(name, " should be a list of 2-tuples");
        return {};
      }
      points.emplace_back(point[0].get<double>(), point[1].get<double>());
    }
    return points;
  }

  // SAPI's rules for anneal_schedule (D-Wave's solver documentation, QPU
  // solver parameters). Sets *duration to the schedule's length.
  static std::string ValidateSchedule(const json& value, const json& props,
                                      double* duration) {
    std::string error;
    const auto points = Points(value, "anneal_schedule", &error);
    if (!error.empty()) return error;
    const bool reverse = !points.empty() && points[0].second == 1;
    const size_t max =
        props["max_anneal_schedule_points"].get<size_t>() + (reverse ? 1 : 0);
    if (points.size() < 2 || points.size() > max) {
      return absl::StrCat("anneal_schedule must contain between 2 and ", max,
                          " points (contains ", points.size(), ")");
    }
    for (size_t k = 1; k < points.size(); ++k) {
      if (!(points[k].first > points[k - 1].first))
        return "Time t must increase for all points in the schedule";
    }
    const double min_time = props["annealing_time_range"][0].get<double>();
    const double max_time = props["annealing_time_range"][1].get<double>();
    if (points.back().first > max_time) {
      return absl::StrCat(
          "schedule cannot be longer than the maximum anneal time of ",
          max_time);
    }
    if (points.back().second != 1)
      return "In the final point, anneal fraction s must equal 1.";
    if (!reverse && !(points[0].first == 0 && points[0].second == 0)) {
      return "In the first point, anneal fraction s must equal 0 for forward "
             "annealing or 1 for reverse annealing";
    }
    for (const auto& [t, s] : points) {
      if (s < 0 || s > 1) return "anneal fraction s must lie in [0, 1]";
    }
    const double max_slope = 1.0 / min_time;
    for (size_t k = 1; k < points.size(); ++k) {
      const double slope = std::abs((points[k].second - points[k - 1].second) /
                                    (points[k].first - points[k - 1].first));
      if (std::round(slope * 1e10) / 1e10 > max_slope)
        return absl::StrCat("the maximum slope cannot exceed ", max_slope);
    }
    *duration = points.back().first;
    return "";
  }

  // anneal_schedule, initial_state, reinitialize_state, h_gain_schedule and
  // flux_biases. `anneal` becomes the schedule's length when one is given.
  static std::string ValidateControls(
      const json& params, const json& props, const HardwareGraph& graph,
      const absl::flat_hash_map<int, double>& active, double& anneal) {
    if (params.contains("annealing_time") && params.contains("anneal_schedule"))
      return "annealing_time and anneal_schedule are mutually exclusive.";
    if (params.contains("annealing_time") &&
        params["annealing_time"].is_number())
      anneal = params["annealing_time"].get<double>();
    bool reverse = false;
    if (params.contains("anneal_schedule")) {
      if (std::string e =
              ValidateSchedule(params["anneal_schedule"], props, &anneal);
          !e.empty()) {
        return e;
      }
      reverse = params["anneal_schedule"][0][1] == 1;
    }
    const int num_qubits = graph.num_qubits();
    if (params.contains("initial_state")) {
      if (!reverse) {
        return "initial_state is only used by reverse annealing (an "
               "anneal_schedule that starts at s = 1)";
      }
      const json& state = params["initial_state"];
      if (!state.is_array() || static_cast<int>(state.size()) != num_qubits) {
        return absl::StrCat("initial_state must have one value per qubit (",
                            num_qubits, ")");
      }
      for (int q = 0; q < num_qubits; ++q) {
        const bool used = active.contains(q);
        const json& v = state[q];
        if (!v.is_number_integer())
          return "initial_state values must be integers";
        const int x = v.get<int>();
        if (used && x != 1 && x != -1) {
          return absl::StrCat("initial_state of active qubit ", q,
                              " must be -1 or 1 (got ", x, ")");
        }
        if (!used && x != 3) {
          return absl::StrCat("initial_state of unused qubit ", q,
                              " must be 3 (got ", x, ")");
        }
      }
    } else if (reverse) {
      return "reverse annealing requested (anneal_schedule starts with s==1) "
             "but initial_state not provided";
    }
    if (params.contains("reinitialize_state") &&
        !params["reinitialize_state"].is_boolean()) {
      return "reinitialize_state must be a boolean";
    }
    if (params.contains("h_gain_schedule")) {
      std::string error;
      const auto points =
          Points(params["h_gain_schedule"], "h_gain_schedule", &error);
      if (!error.empty()) return error;
      const size_t max = props["max_h_gain_schedule_points"].get<size_t>();
      if (points.size() < 2 || points.size() > max) {
        return absl::StrCat("h_gain_schedule must contain between 2 and ", max,
                            " points (contains ", points.size(), ")");
      }
      if (points[0].first != 0)
        return "h_gain_schedule must start at time t = 0";
      for (size_t k = 1; k < points.size(); ++k) {
        if (!(points[k].first > points[k - 1].first))
          return "Time t must increase for all points in the h_gain_schedule";
      }
      if (points.back().first != anneal) {
        return absl::StrCat(
            "h_gain_schedule must end at the end of the "
            "anneal (t = ",
            anneal, ")");
      }
      const json& range = props["h_gain_schedule_range"];
      for (const auto& [t, g] : points) {
        if (g < range[0].get<double>() || g > range[1].get<double>())
          return absl::StrCat("h_gain_schedule value ", g,
                              " is out of h_gain_schedule_range ",
                              range.dump());
      }
    }
    if (params.contains("flux_biases")) {
      const json& biases = params["flux_biases"];
      if (!biases.is_array() || static_cast<int>(biases.size()) != num_qubits) {
        return absl::StrCat("flux_biases must have one value per qubit (",
                            num_qubits, ")");
      }
      for (const json& b : biases) {
        if (!b.is_number() || !std::isfinite(b.get<double>()))
          return "flux_biases values must be finite numbers";
      }
    }
    return "";
  }

  // Validates one job (§4.1 item 5). Returns the error message or empty.
  std::string Validate(const json& job, const Solver*& solver_out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (!job.is_object()) return "Problem is not a JSON object.";
    const json* solver_field =
        job.contains("solver") ? &job["solver"] : nullptr;
    if (solver_field == nullptr) return "Missing solver.";
    if (solver_field->is_string())
      return "Solver must be an identity object (representation version 3).";
    if (!solver_field->is_object() || !solver_field->contains("name") ||
        !(*solver_field)["name"].is_string()) {
      return "Solver identity without a name.";
    }
    auto it = solvers_.find((*solver_field)["name"].get<std::string>());
    if (it == solvers_.end())
      return "Solver does not exist or apitoken does not have access";
    const Solver& solver = it->second;
    if (solver.qpu) {
      const json* version = solver_field->contains("version")
                                ? &(*solver_field)["version"]
                                : nullptr;
      if (version == nullptr || !version->is_object() ||
          !version->contains("graph_id") ||
          (*version)["graph_id"] != solver.graph_id) {
        return absl::StrCat(
            "Solver graph_id does not match the solver's current working graph "
            "(",
            solver.graph_id, ").");
      }
    }
    solver_out = &solver;
    const std::string type = job.contains("type") && job["type"].is_string()
                                 ? job["type"].get<std::string>()
                                 : "";
    const json& types =
        solver.definition["properties"]["supported_problem_types"];
    if (std::find(types.begin(), types.end(), type) == types.end()) {
      return absl::StrCat("Problem type (", type,
                          ") is not supported by the solver.");
    }
    if (job.contains("label")) {
      if (!job["label"].is_string()) return "label must be a string.";
      if (job["label"].get<std::string>().size() > 1024)
        return "label is longer than 1024 characters.";
    }
    if (!solver.qpu)
      return "Problem data reference is unknown or its upload is incomplete.";
    const json* data = job.contains("data") ? &job["data"] : nullptr;
    if (data == nullptr || !data->is_object() || !data->contains("format") ||
        (*data)["format"] != "qp") {
      return "Problem data format must be qp.";
    }
    if (!(*data).contains("lin") || !(*data)["lin"].is_string() ||
        !(*data).contains("quad") || !(*data)["quad"].is_string()) {
      return "Problem data needs lin and quad strings.";
    }
    auto decoded = dwave::DecodeQp(
        {(*data)["lin"].get<std::string>(), (*data)["quad"].get<std::string>()},
        solver.graph.qubits(), solver.graph.couplers());
    if (!decoded.ok()) return std::string(decoded.status().message());
    const json params = job.contains("params") ? job["params"] : json::object();
    if (!params.is_object()) return "params must be an object.";
    const json& known = solver.definition["properties"]["parameters"];
    const json& props = solver.definition["properties"];
    for (auto p = params.begin(); p != params.end(); ++p) {
      if (!known.contains(p.key()) && !absl::StartsWith(p.key(), "x_")) {
        return absl::StrCat("Parameter '", p.key(),
                            "' is not supported by the solver.");
      }
    }
    int64_t reads = 1;
    if (params.contains("num_reads")) {
      if (!params["num_reads"].is_number_integer())
        return "num_reads must be an integer.";
      reads = params["num_reads"].get<int64_t>();
      if (reads < props["num_reads_range"][0].get<int64_t>() ||
          reads > props["num_reads_range"][1].get<int64_t>()) {
        return absl::StrCat("num_reads ", reads, " is out of range ",
                            props["num_reads_range"].dump(), ".");
      }
    }
    double anneal = props["default_annealing_time"].get<double>();
    if (std::string error = ValidateControls(params, props, solver.graph,
                                             decoded->linear, anneal);
        !error.empty()) {
      return error;
    }
    if (params.contains("annealing_time")) {
      if (params.contains("anneal_schedule"))
        return "annealing_time and anneal_schedule are mutually exclusive.";
      if (!params["annealing_time"].is_number())
        return "annealing_time must be a number.";
      anneal = params["annealing_time"].get<double>();
      if (anneal < props["annealing_time_range"][0].get<double>() ||
          anneal > props["annealing_time_range"][1].get<double>()) {
        return absl::StrCat("annealing_time ", anneal, " is out of range ",
                            props["annealing_time_range"].dump(), ".");
      }
    }
    if (params.contains("answer_mode") &&
        !(params["answer_mode"] == "histogram" ||
          params["answer_mode"] == "raw")) {
      return "answer_mode must be histogram or raw.";
    }
    const double duration =
        props["default_programming_thermalization"].get<double>() +
        static_cast<double>(reads) *
            (anneal + kReadoutPerSample + kDelayPerSample);
    if (duration > props["problem_run_duration_range"][1].get<double>()) {
      return absl::StrCat("Estimated problem run duration ", duration,
                          " us exceeds the maximum.");
    }
    const bool auto_scale =
        !params.contains("auto_scale") || params["auto_scale"] != false;
    if (!auto_scale) {
      const auto h = props["h_range"];
      const auto j = props["extended_j_range"];
      for (const auto& [q, v] : decoded->linear) {
        if (v < h[0].get<double>() || v > h[1].get<double>()) {
          return absl::StrCat("h of qubit ", q, " = ", v,
                              " is out of h_range with auto_scale off.");
        }
      }
      for (const auto& [edge, v] : decoded->quadratic) {
        if (v < j[0].get<double>() || v > j[1].get<double>()) {
          return absl::StrCat(
              "J of coupler [", edge.first, ",", edge.second, "] = ", v,
              " is out of extended_j_range with auto_scale off.");
        }
      }
    }
    return "";
  }

  json StatusJson(const Problem& p, absl::Time now, bool with_answer) const {
    json s = {{"id", p.id},
              {"type", p.type},
              {"solver", p.identity},
              {"status", StatusOf(p, now)},
              {"submitted_on", Rfc3339(p.submitted)}};
    if (!p.label.empty()) s["label"] = p.label;
    const std::string status = s["status"];
    if (status == "COMPLETED" || status == "FAILED" || status == "CANCELLED") {
      s["solved_on"] = Rfc3339(std::max(p.solved_on, p.submitted));
    }
    if (status == "FAILED") s["error_message"] = p.error_message;
    if (with_answer && status == "COMPLETED") s["answer"] = p.answer;
    return s;
  }

  std::string StatusOf(const Problem& p, absl::Time now) const {
    if (p.cancelled) return "CANCELLED";
    if (p.failed) return "FAILED";
    if (now < p.queued_until) return "PENDING";
    if (!p.solved || now < p.ready) return "IN_PROGRESS";
    return "COMPLETED";
  }

  std::pair<int, json> Submit(const httplib::Request& req, bool limited) {
    json body = json::parse(req.body, nullptr, false);
    if (body.is_discarded())
      return {400, ErrorBody(400, "Malformed JSON in the request body.")};
    const bool single = body.is_object();
    if (!single && !body.is_array())
      return {400, ErrorBody(400, "Body must be an array of problems.")};
    if (single) body = json::array({body});
    json out = json::array();
    std::vector<std::string> created;
    const absl::Time now = absl::Now();
    {
      absl::MutexLock lock(&mu_);
      for (const json& job : body) {
        const Solver* solver = nullptr;
        std::string error =
            limited ? "Solver does not exist or apitoken does not have access"
                    : Validate(job, solver);
        if (!error.empty()) {
          out.push_back(ErrorBody(400, error));
          continue;
        }
        Problem p;
        p.id = NewUuid();
        p.solver = solver->spec.name;
        p.identity = job["solver"];
        p.type = job["type"];
        p.label = job.contains("label") ? job["label"].get<std::string>() : "";
        p.params = job.contains("params") ? job["params"] : json::object();
        p.data = job["data"];
        p.submitted = now;
        p.queued_until = now + options_.queue_delay;
        p.ready = p.queued_until + options_.run_time;
        if (solver->definition["status"] != "ONLINE") {
          p.failed = true;
          p.error_message = "Problem failed: solver is offline.";
          p.solved_on = now;
        } else if (std::optional<Fault> fault = TakeProblemFault()) {
          if (fault->kind == "fail_problem") {
            p.failed = true;
            p.error_message = fault->message.empty()
                                  ? "An unknown error has occurred."
                                  : fault->message;
          } else {
            p.cancelled = true;
          }
          p.solved_on = now;
        }
        out.push_back(StatusJson(p, now, false));
        submissions_.push_back(p.id);
        if (!p.failed && !p.cancelled) created.push_back(p.id);
        problems_[p.id] = std::move(p);
      }
    }
    {
      std::lock_guard<std::mutex> lock(solve_mu_);
      for (const std::string& id : created) solve_queue_.push_back(id);
    }
    solve_cv_.notify_all();
    if (options_.complete_on_submit && !created.empty()) {
      // Wait (a bounded while) so that the answers can come back inline.
      const absl::Time until = absl::Now() + absl::Seconds(5);
      while (absl::Now() < until) {
        bool all = true;
        {
          absl::MutexLock lock(&mu_);
          for (const std::string& id : created) {
            if (StatusOf(problems_[id], absl::Now()) != "COMPLETED")
              all = false;
          }
        }
        if (all) break;
        absl::SleepFor(absl::Milliseconds(5));
      }
      absl::MutexLock lock(&mu_);
      for (json& item : out) {
        if (item.contains("id"))
          item = StatusJson(problems_[item["id"].get<std::string>()],
                            absl::Now(), true);
      }
    }
    if (single) return {200, out[0]};
    return {200, out};
  }

  // ------------------------------------------------------------------------------------------------
  // Status, polling, answers.

  // 410 for expired problems, 404 for unknown ones.
  std::optional<std::pair<int, json>> Missing(const std::string& id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = problems_.find(id);
    if (it == problems_.end())
      return std::pair<int, json>{
          404,
          ErrorBody(404,
                    "Problem does not exist or apitoken does not have access")};
    if (absl::Now() - it->second.submitted > options_.retention) {
      return std::pair<int, json>{410, ErrorBody(410, "Problem has expired.")};
    }
    return std::nullopt;
  }

  std::pair<int, json> Poll(const httplib::Request& req) {
    int timeout = 1;
    if (req.has_param("timeout")) {
      if (!absl::SimpleAtoi(req.get_param_value("timeout"), &timeout) ||
          timeout < 1 || timeout > 30) {
        return {400,
                ErrorBody(400, "timeout must be an integer between 1 and 30.")};
      }
    }
    if (req.has_param("status")) {
      const std::string status = req.get_param_value("status");
      if (status != "PENDING" && status != "IN_PROGRESS" &&
          status != "COMPLETED" && status != "FAILED" &&
          status != "CANCELLED") {
        return {400, ErrorBody(400, "Invalid status filter.")};
      }
    }
    std::vector<std::string> ids;
    if (req.has_param("id"))
      ids = absl::StrSplit(req.get_param_value("id"), ',', absl::SkipEmpty());
    if (!ids.empty()) {
      absl::MutexLock lock(&mu_);
      for (const std::string& id : ids) {
        if (auto missing = Missing(id)) return *missing;
      }
    }
    const absl::Time until = absl::Now() + absl::Seconds(timeout);
    while (!ids.empty()) {
      bool any_terminal = false;
      {
        absl::MutexLock lock(&mu_);
        for (const std::string& id : ids) {
          const std::string s = StatusOf(problems_[id], absl::Now());
          if (s == "COMPLETED" || s == "FAILED" || s == "CANCELLED")
            any_terminal = true;
        }
      }
      if (any_terminal || absl::Now() >= until || !server_.is_running()) break;
      absl::SleepFor(absl::Milliseconds(5));
    }
    json out = json::array();
    absl::MutexLock lock(&mu_);
    const absl::Time now = absl::Now();
    size_t max_results = 1000;
    if (req.has_param("max_results"))
      absl::SimpleAtoi(req.get_param_value("max_results"), &max_results);
    auto matches = [&](const Problem& p) {
      if (req.has_param("label") &&
          !absl::StrContains(p.label, req.get_param_value("label")))
        return false;
      if (req.has_param("status") &&
          StatusOf(p, now) != req.get_param_value("status"))
        return false;
      if (req.has_param("solver") && p.solver != req.get_param_value("solver"))
        return false;
      return true;
    };
    if (!ids.empty()) {
      for (const std::string& id : ids) {
        if (matches(problems_[id]))
          out.push_back(StatusJson(problems_[id], now, false));
      }
    } else {
      for (const auto& [id, p] : problems_) {
        if (out.size() >= max_results) break;
        if (matches(p)) out.push_back(StatusJson(p, now, false));
      }
    }
    return {200, out};
  }

  std::pair<int, json> GetProblem(const httplib::Request& req,
                                  const std::string& id) {
    int timeout = 1;
    if (req.has_param("timeout") &&
        (!absl::SimpleAtoi(req.get_param_value("timeout"), &timeout) ||
         timeout < 1 || timeout > 30)) {
      return {400,
              ErrorBody(400, "timeout must be an integer between 1 and 30.")};
    }
    {
      absl::MutexLock lock(&mu_);
      if (auto missing = Missing(id)) return *missing;
    }
    const absl::Time until = absl::Now() + absl::Seconds(timeout);
    while (absl::Now() < until && server_.is_running()) {
      {
        absl::MutexLock lock(&mu_);
        const std::string s = StatusOf(problems_[id], absl::Now());
        if (s == "COMPLETED" || s == "FAILED" || s == "CANCELLED") break;
      }
      absl::SleepFor(absl::Milliseconds(5));
    }
    absl::MutexLock lock(&mu_);
    return {200, StatusJson(problems_[id], absl::Now(), true)};
  }

  std::pair<int, json> GetAnswer(const std::string& id) {
    absl::MutexLock lock(&mu_);
    if (auto missing = Missing(id)) return *missing;
    const Problem& p = problems_[id];
    if (StatusOf(p, absl::Now()) != "COMPLETED")
      return {404, ErrorBody(404, "Problem has no answer.")};
    return {200, {{"answer", p.answer}}};
  }

  std::pair<int, json> GetInfo(const std::string& id) {
    absl::MutexLock lock(&mu_);
    if (auto missing = Missing(id)) return *missing;
    const Problem& p = problems_[id];
    const json status = StatusJson(p, absl::Now(), false);
    json info = {{"id", p.id},
                 {"data", p.data},
                 {"params", p.params},
                 {"metadata",
                  {{"submitted_by", "emulator"},
                   {"solver", p.solver},
                   {"type", p.type},
                   {"label", p.label},
                   {"status", status["status"]},
                   {"submitted_on", status["submitted_on"]},
                   {"messages", json::array()}}}};
    if (status.contains("solved_on"))
      info["metadata"]["solved_on"] = status["solved_on"];
    if (status["status"] == "COMPLETED") info["answer"] = p.answer;
    return {200, info};
  }

  std::pair<int, json> GetMessages(const std::string& id) {
    absl::MutexLock lock(&mu_);
    if (auto missing = Missing(id)) return *missing;
    return {200, json::array()};
  }

  // §1.8: 200 with the status when PENDING, 202 when IN_PROGRESS, 409 when
  // finished, 404 when unknown.
  std::pair<int, json> CancelLocked(const std::string& id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (auto missing = Missing(id)) return *missing;
    Problem& p = problems_[id];
    const absl::Time now = absl::Now();
    const std::string s = StatusOf(p, now);
    if (s == "PENDING") {
      p.cancelled = true;
      p.solved_on = now;
      return {200, StatusJson(p, now, false)};
    }
    if (s == "IN_PROGRESS")
      return {202, ErrorBody(202, "Attempting to cancel problem in progress.")};
    return {409, ErrorBody(409, "Problem has been finished.")};
  }

  std::pair<int, json> CancelOne(const std::string& id) {
    absl::MutexLock lock(&mu_);
    return CancelLocked(id);
  }

  std::pair<int, json> CancelList(const httplib::Request& req) {
    json ids = json::parse(req.body, nullptr, false);
    if (ids.is_discarded() || !ids.is_array() || ids.empty()) {
      return {400,
              ErrorBody(400, "Body must be a non-empty array of problem ids.")};
    }
    json out = json::array();
    absl::MutexLock lock(&mu_);
    for (const json& id : ids) {
      if (!id.is_string()) {
        out.push_back(ErrorBody(400, "Problem id must be a string."));
        continue;
      }
      auto [code, body] = CancelLocked(id.get<std::string>());
      out.push_back(body);
    }
    return {200, out};
  }

  // ------------------------------------------------------------------------------------------------
  // Sampling (§4.1 item 7).

  void SolveLoop() {
    while (true) {
      std::string id;
      {
        std::unique_lock<std::mutex> lock(solve_mu_);
        solve_cv_.wait(lock,
                       [this] { return stopping_ || !solve_queue_.empty(); });
        if (stopping_) return;
        id = solve_queue_.front();
        solve_queue_.pop_front();
      }
      Problem copy;
      HardwareGraph graph;
      {
        absl::MutexLock lock(&mu_);
        copy = problems_[id];
        graph = solvers_[copy.solver].graph;
      }
      if (copy.cancelled) continue;
      json answer;
      std::string error;
      Solve(copy, graph, answer, error);
      absl::MutexLock lock(&mu_);
      Problem& p = problems_[id];
      if (!error.empty() && !p.cancelled) {
        p.failed = true;
        p.error_message = error;
      }
      p.answer = std::move(answer);
      p.solved = true;
      p.solved_on = std::max(absl::Now(), p.ready);
    }
  }

  class CollectingSink final : public SampleSink {
   public:
    void OnSample(Sample sample) override {
      absl::MutexLock lock(&mu_);
      samples_.push_back(std::move(sample));
    }
    std::vector<Sample> Take() {
      absl::MutexLock lock(&mu_);
      std::sort(samples_.begin(), samples_.end(),
                [](const Sample& a, const Sample& b) {
                  return a.read_index < b.read_index;
                });
      return std::move(samples_);
    }

   private:
    absl::Mutex mu_;
    std::vector<Sample> samples_;
  };

  // The reverse anneal's start per annealed cluster: the majority of its
  // qubits' spins in initial_state (tie: 1).
  static std::vector<uint8_t> ClusterStart(const json& initial_state,
                                           const std::vector<int>& active,
                                           const std::vector<int8_t>& sigma,
                                           const std::vector<int>& cluster_of,
                                           int clusters) {
    std::vector<int> votes(clusters, 0);
    for (size_t i = 0; i < active.size(); ++i)
      votes[cluster_of[i]] += sigma[i] * initial_state[active[i]].get<int>();
    std::vector<uint8_t> bits(clusters);
    for (int c = 0; c < clusters; ++c) bits[c] = votes[c] >= 0 ? 1 : 0;
    return bits;
  }

  // Orientations that make the strongest couplers (the chains of an embedded,
  // possibly gauged problem) ferromagnetic: a spanning forest of them with
  // parity. All +1 when they are frustrated (no consistent orientation: not
  // chains).
  static std::vector<int8_t> ChainOrientation(
      const dwave::PhysicalProblem& problem,
      const absl::flat_hash_map<int, int>& index, int n) {
    std::vector<int8_t> sigma(n, 1);
    double strongest = 0;
    for (const auto& [edge, j] : problem.quadratic)
      strongest = std::max(strongest, std::abs(j));
    if (strongest == 0) return sigma;
    std::vector<std::vector<std::pair<int, int8_t>>> adjacent(n);
    for (const auto& [edge, j] : problem.quadratic) {
      if (std::abs(j) < strongest * (1 - 1e-9)) continue;
      const int a = index.at(edge.first), b = index.at(edge.second);
      const int8_t relation = j < 0 ? 1 : -1;  // sigma_a sigma_b
      adjacent[a].push_back({b, relation});
      adjacent[b].push_back({a, relation});
    }
    std::vector<bool> seen(n, false);
    for (int root = 0; root < n; ++root) {
      if (seen[root]) continue;
      seen[root] = true;
      std::vector<int> stack = {root};
      while (!stack.empty()) {
        const int a = stack.back();
        stack.pop_back();
        for (const auto& [b, relation] : adjacent[a]) {
          const int8_t want = static_cast<int8_t>(sigma[a] * relation);
          if (!seen[b]) {
            seen[b] = true;
            sigma[b] = want;
            stack.push_back(b);
          } else if (sigma[b] != want) {
            return std::vector<int8_t>(n, 1);  // frustrated
          }
        }
      }
    }
    return sigma;
  }

  void Solve(const Problem& p, const HardwareGraph& graph, json& answer_out,
             std::string& error) {
    auto decoded = dwave::DecodeQp(
        {p.data["lin"].get<std::string>(), p.data["quad"].get<std::string>()},
        graph.qubits(), graph.couplers());
    if (!decoded.ok()) {
      error = std::string(decoded.status().message());
      return;
    }
    std::vector<int> active;
    for (int q : graph.qubits()) {
      if (decoded->linear.contains(q)) active.push_back(q);
    }
    absl::flat_hash_map<int, int> index;
    for (size_t i = 0; i < active.size(); ++i)
      index[active[i]] = static_cast<int>(i);
    const int n = static_cast<int>(active.size());
    const bool ising = p.type == "ising";
    // A spin-reversal transform turns some chain couplers positive; undo it
    // (the spectrum is gauge-invariant) so that the chains cluster again.
    std::vector<int8_t> sigma(n, 1);
    if (ising && options_.chain_aware) {
      sigma = ChainOrientation(*decoded, index, n);
      for (auto& [q, h] : decoded->linear) h *= sigma[index[q]];
      for (auto& [edge, j] : decoded->quadratic)
        j *= sigma[index[edge.first]] * sigma[index[edge.second]];
    }
    // Both types become a QUBO over 0/1 bits for the samplers; energies are
    // then reported in the submitted type's units, without any offset.
    QuboBuilder builder(n);
    double shift = 0;  // QUBO energy = submitted-units energy + shift
    if (ising) {
      IsingModel model;
      model.num_variables = n;
      model.h.assign(n, 0.0);
      for (const auto& [q, h] : decoded->linear) model.h[index[q]] = h;
      std::map<std::pair<int, int>, double> couplings;
      for (const auto& [edge, j] : decoded->quadratic) {
        couplings[std::minmax(index[edge.first], index[edge.second])] += j;
      }
      for (const auto& [edge, j] : couplings)
        model.couplings.push_back({edge.first, edge.second, j});
      auto qubo = FromIsing(model);
      if (!qubo.ok()) {
        error = std::string(qubo.status().message());
        return;
      }
      for (int i = 0; i < n; ++i) builder.AddLinear(i, qubo->linear(i));
      for (const QuboTerm& t : qubo->QuadraticTerms())
        builder.AddQuadratic(t.i, t.j, t.w);
      shift = qubo->offset();
    } else {
      for (const auto& [q, a] : decoded->linear) builder.AddLinear(index[q], a);
      for (const auto& [edge, b] : decoded->quadratic)
        builder.AddQuadratic(index[edge.first], index[edge.second], b);
    }
    auto qubo = std::move(builder).Build();
    if (!qubo.ok()) {
      error = std::string(qubo.status().message());
      return;
    }
    const int reads =
        p.params.contains("num_reads") ? p.params["num_reads"].get<int>() : 1;
    const uint64_t seed = DeriveSeed(options_.seed, HashBytes(p.id));
    // Chain-aware mode: the qubits joined by the problem's most negative
    // couplers (the chains of an embedded problem) are annealed as one spin
    // each, as a QPU's collective dynamics would move them.
    std::vector<int> cluster_of(n);
    for (int i = 0; i < n; ++i) cluster_of[i] = i;
    int clusters = n;
    if (ising && options_.chain_aware) {
      double j_min = 0;
      for (const auto& [edge, j] : decoded->quadratic)
        j_min = std::min(j_min, j);
      if (j_min < 0) {
        std::vector<int> parent(n);
        for (int i = 0; i < n; ++i) parent[i] = i;
        auto find = [&](int x) {
          while (parent[x] != x) x = parent[x] = parent[parent[x]];
          return x;
        };
        for (const auto& [edge, j] : decoded->quadratic) {
          if (j <= j_min * (1 - 1e-9))
            parent[find(index[edge.first])] = find(index[edge.second]);
        }
        std::map<int, int> id;
        for (int i = 0; i < n; ++i)
          cluster_of[i] =
              id.emplace(find(i), static_cast<int>(id.size())).first->second;
        clusters = static_cast<int>(id.size());
      }
    }
    const Qubo* target = &*qubo;
    std::optional<Qubo> contracted;
    if (clusters < n) {
      QuboBuilder cb(clusters);
      for (int i = 0; i < n; ++i) cb.AddLinear(cluster_of[i], qubo->linear(i));
      for (const QuboTerm& t : qubo->QuadraticTerms())
        cb.AddQuadratic(cluster_of[t.i], cluster_of[t.j], t.w);
      auto built = std::move(cb).Build();
      if (!built.ok()) {
        error = std::string(built.status().message());
        return;
      }
      contracted = *std::move(built);
      target = &*contracted;
    }
    std::vector<std::vector<uint8_t>> states;
    std::optional<std::vector<uint8_t>> start;
    double s_min = 0;
    if (ising && p.params.contains("initial_state")) {
      start = ClusterStart(p.params["initial_state"], active, sigma, cluster_of,
                           clusters);
      s_min = 1;
      for (const json& point : p.params["anneal_schedule"])
        s_min = std::min(s_min, point[1].get<double>());
    }
    if (start) {
      // A reverse anneal: every read starts from the submitted state and is
      // annealed from the temperature of the schedule's lowest s (s -> beta
      // geometrically between the hot and cold ends) down to the cold end; a
      // schedule that stays at s = 1 is a quench that keeps a local minimum.
      const BetaRange range = TunedBetaRange(*target);
      SampleParams params;
      params.num_reads = reads;
      params.num_sweeps = std::max(100, options_.sweeps / 10);
      params.seed = seed;
      params.beta_cold = range.cold;
      params.beta_hot = range.hot * std::pow(range.cold / range.hot, s_min);
      params.initial_states = {*start};
      CollectingSink sink;
      Interrupter interrupter;
      auto stats =
          NewCpuSaSampler(&pool_)->Sample(*target, params, sink, interrupter);
      if (!stats.ok()) {
        error = std::string(stats.status().message());
        return;
      }
      for (Sample& s : sink.Take()) states.push_back(std::move(s.bits));
    } else if (target->num_variables() <= 20) {
      // An ideal QPU: every read is a ground state, drawn uniformly.
      auto ground =
          FindGroundStates(*target, int64_t{1} << 20, &pool_, nullptr);
      if (!ground.ok() || ground->states.empty()) {
        error = "ground-state enumeration failed";
        return;
      }
      Xoshiro256 rng(seed);
      for (int r = 0; r < reads; ++r)
        states.push_back(ground->states[rng.NextBelow(ground->states.size())]);
    } else {
      SampleParams params;
      params.num_reads = reads;
      params.num_sweeps = options_.sweeps;
      params.seed = seed;
      CollectingSink sink;
      Interrupter interrupter;
      auto sampler = NewCpuSaSampler(&pool_);
      auto stats = sampler->Sample(*target, params, sink, interrupter);
      if (!stats.ok()) {
        error = std::string(stats.status().message());
        return;
      }
      for (Sample& s : sink.Take()) states.push_back(std::move(s.bits));
    }
    if (contracted) {
      for (auto& state : states) {
        std::vector<uint8_t> expanded(n);
        for (int i = 0; i < n; ++i) expanded[i] = state[cluster_of[i]];
        state = std::move(expanded);
      }
    }
    if (options_.flip_probability > 0) {
      Xoshiro256 noise(seed ^ 0xabcdef);
      for (auto& state : states) {
        for (auto& bit : state) {
          if (noise.NextDouble() < options_.flip_probability) bit ^= 1;
        }
      }
    }
    const bool histogram = !p.params.contains("answer_mode") ||
                           p.params["answer_mode"] == "histogram";
    dwave::QpAnswer answer;
    answer.num_variables = graph.num_qubits();
    answer.active_variables = active;
    std::map<std::vector<uint8_t>, size_t> seen;
    for (const auto& state : states) {
      if (histogram) {
        auto [it, inserted] = seen.emplace(state, answer.solutions.size());
        if (!inserted) {
          ++answer.num_occurrences[it->second];
          continue;
        }
      }
      std::vector<int8_t> values(n);
      for (int i = 0; i < n; ++i) {
        values[i] = ising ? static_cast<int8_t>((state[i] ? 1 : -1) * sigma[i])
                          : static_cast<int8_t>(state[i]);
      }
      answer.solutions.push_back(std::move(values));
      answer.energies.push_back(qubo->Energy(state) - shift);
      answer.num_occurrences.push_back(1);
    }
    if (histogram) {
      std::vector<size_t> order(answer.solutions.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return answer.energies[a] < answer.energies[b];
      });
      dwave::QpAnswer sorted = answer;
      for (size_t i = 0; i < order.size(); ++i) {
        sorted.solutions[i] = answer.solutions[order[i]];
        sorted.energies[i] = answer.energies[order[i]];
        sorted.num_occurrences[i] = answer.num_occurrences[order[i]];
      }
      answer = std::move(sorted);
    }
    const dwave::QpAnswerFields fields = dwave::EncodeQpAnswer(answer);
    double anneal = p.params.contains("annealing_time")
                        ? p.params["annealing_time"].get<double>()
                        : 20.0;
    if (p.params.contains("anneal_schedule"))
      anneal = p.params["anneal_schedule"].back()[0].get<double>();
    const double sampling =
        reads * (anneal + kReadoutPerSample + kDelayPerSample);
    answer_out = {{"format", "qp"},
                  {"num_variables", fields.num_variables},
                  {"active_variables", fields.active_variables},
                  {"solutions", fields.solutions},
                  {"energies", fields.energies},
                  {"timing",
                   {{"qpu_sampling_time", sampling},
                    {"qpu_anneal_time_per_sample", anneal},
                    {"qpu_readout_time_per_sample", kReadoutPerSample},
                    {"qpu_delay_time_per_sample", kDelayPerSample},
                    {"qpu_programming_time", kProgrammingTime},
                    {"qpu_access_time", kProgrammingTime + sampling},
                    {"qpu_access_overhead_time", kAccessOverhead},
                    {"total_post_processing_time", kPostProcessing},
                    {"post_processing_overhead_time", kPostProcessing}}}};
    if (histogram || !options_.omit_raw_occurrences)
      answer_out["num_occurrences"] = *fields.num_occurrences;
  }

  Options options_;
  WorkerPool pool_;
  httplib::Server server_;
  std::thread listen_thread_;
  int port_ = -1;

  mutable absl::Mutex mu_;
  std::map<std::string, Solver> solvers_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, Problem> problems_ ABSL_GUARDED_BY(mu_);
  std::vector<Fault> faults_ ABSL_GUARDED_BY(mu_);
  std::vector<LogEntry> log_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> submissions_ ABSL_GUARDED_BY(mu_);
  uint64_t rng_state_ = 1;
  uint64_t uuid_counter_ ABSL_GUARDED_BY(mu_) = 0;

  std::mutex solve_mu_;
  std::condition_variable solve_cv_;
  std::deque<std::string> solve_queue_;
  bool stopping_ = false;
  std::thread solve_thread_;
};

SapiEmulator::SapiEmulator(Options options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}
SapiEmulator::~SapiEmulator() = default;
absl::Status SapiEmulator::Start() { return impl_->Start(); }
absl::Status SapiEmulator::Run() { return impl_->Run(); }
void SapiEmulator::Stop() { impl_->Stop(); }
int SapiEmulator::port() const { return impl_->port(); }
std::string SapiEmulator::endpoint() const { return impl_->Endpoint(); }
std::string SapiEmulator::metadata_endpoint() const {
  return impl_->MetadataEndpoint();
}
void SapiEmulator::AddFault(Fault fault) { impl_->AddFault(std::move(fault)); }
void SapiEmulator::ClearFaults() { impl_->ClearFaults(); }
std::vector<LogEntry> SapiEmulator::RequestLog() const { return impl_->Log(); }
std::vector<SubmittedProblem> SapiEmulator::Submissions() const {
  return impl_->Submissions();
}
void SapiEmulator::ClearLog() { impl_->ClearLog(); }
int SapiEmulator::CountRequests(absl::string_view route,
                                absl::string_view method) const {
  int count = 0;
  for (const LogEntry& e : impl_->Log()) {
    if (e.route == route && e.method == method) ++count;
  }
  return count;
}
absl::Status SapiEmulator::SetSolverStatus(absl::string_view name,
                                           absl::string_view status,
                                           double avg_load) {
  return impl_->SetSolverStatus(name, status, avg_load);
}
absl::StatusOr<std::string> SapiEmulator::GraphIdOf(
    absl::string_view name) const {
  return impl_->GraphIdOf(name);
}
absl::StatusOr<std::string> SapiEmulator::ProblemStatusOf(
    absl::string_view id) const {
  return impl_->ProblemStatusOf(id);
}

absl::StatusOr<Fault> ParseFault(absl::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return absl::InvalidArgumentError("fault: not a JSON object");
  Fault f;
  auto str = [&](const char* key, std::string& out) {
    if (j.contains(key) && j[key].is_string()) out = j[key].get<std::string>();
  };
  str("route", f.route);
  str("kind", f.kind);
  str("retry_after", f.retry_after);
  str("message", f.message);
  if (j.contains("http_status") && j["http_status"].is_number_integer())
    f.http_status = j["http_status"].get<int>();
  if (j.contains("plain_text") && j["plain_text"].is_boolean())
    f.plain_text = j["plain_text"].get<bool>();
  if (j.contains("delay_ms") && j["delay_ms"].is_number())
    f.delay = absl::Milliseconds(j["delay_ms"].get<double>());
  if (j.contains("count") && j["count"].is_number_integer())
    f.count = j["count"].get<int>();
  static const char* kKinds[] = {"status",       "truncated",
                                 "slow",         "wrong_version",
                                 "fail_problem", "cancel_problem"};
  if (std::find(std::begin(kKinds), std::end(kKinds), f.kind) ==
      std::end(kKinds)) {
    return absl::InvalidArgumentError(
        absl::StrCat("fault.kind: unknown kind '", f.kind, "'"));
  }
  if (f.count < 1)
    return absl::InvalidArgumentError("fault.count: must be >= 1");
  return f;
}

}  // namespace qs::sapi_emulator
