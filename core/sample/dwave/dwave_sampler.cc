// The "dwave" backend: solver selection, embedding, submission, polling,
// cancellation and unembedding (docs/dwave-protocol.md §1.3-§1.8, §3.6).
#include "core/sample/dwave/dwave_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"
#include "core/sample/dwave/embed_problem.h"
#include "core/sample/dwave/embedding.h"
#include "core/sample/dwave/hardware_graph.h"
#include "core/sample/dwave/qp_codec.h"
#include "core/sample/dwave/sapi_client.h"
#include "nlohmann/json.hpp"

namespace qs {
namespace {

using dwave::CallContext;
using dwave::SolverInfo;

// A conservative allowance for readout and inter-sample delay per read (µs)
// when estimating how many reads fit in the solver's maximum run duration
// (Advantage: ~36 µs readout + ~21 µs delay).
constexpr double kReadoutAllowanceUs = 100.0;

struct SolverEntry {
  SolverInfo info;
  dwave::HardwareGraph graph;
  absl::Time fetched;
};

absl::Status StatusForProblem(const dwave::ProblemStatus& s) {
  if (s.status == "FAILED") {
    const std::string message = s.error_message.empty()
                                    ? "An unknown error has occurred."
                                    : s.error_message;
    if (absl::StrContains(absl::AsciiStrToLower(message),
                          "solver is offline")) {
      return absl::UnavailableError(
          absl::StrCat("D-Wave problem ", s.id, " failed: ", message));
    }
    return absl::AbortedError(
        absl::StrCat("D-Wave problem ", s.id, " failed: ", message));
  }
  if (s.status == "CANCELLED") {
    return absl::AbortedError(
        absl::StrCat("D-Wave problem ", s.id, " was cancelled by SAPI"));
  }
  return absl::OkStatus();
}

std::vector<double> DurationBuckets() {
  return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
          0.5,    1,     2.5,    5,     10,   30,    60,   300};
}

std::vector<MetricSpec> DwaveMetrics() {
  return {
      {"qs_dwave_qpu_access_seconds_total",
       "QPU access time SAPI reported, by solver",
       MetricKind::kCounter,
       {}},
      {"qs_dwave_qpu_access_seconds",
       "QPU access time of one D-Wave solve, by solver",
       MetricKind::kHistogram,
       {0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5}},
      {"qs_dwave_chain_break_fraction",
       "Mean fraction of broken chains per read of a D-Wave solve, by puzzle "
       "kind",
       MetricKind::kHistogram,
       {0, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5}},
      {"qs_dwave_max_chain_length",
       "Longest chain of the embedding a D-Wave solve used, by puzzle kind",
       MetricKind::kHistogram,
       {1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64}},
      {"qs_dwave_embedding_seconds",
       "Time spent finding a minor embedding (cache misses)",
       MetricKind::kHistogram, DurationBuckets()},
      {"qs_dwave_embeddings_total",
       "Embeddings a D-Wave solve needed, by result: cached or computed",
       MetricKind::kCounter,
       {}},
  };
}

void RecordDwaveMetrics(const v1::DwaveInfo& d, absl::string_view puzzle,
                        MetricRecorder& recorder) {
  if (d.solver().empty()) return;  // nothing reached a QPU
  const double access = d.qpu_access_time_us() * 1e-6;
  const MetricLabels by_solver = {{"solver", d.solver()}};
  const MetricLabels by_puzzle = {{"puzzle", std::string(puzzle)}};
  recorder.Record("qs_dwave_qpu_access_seconds_total", by_solver, access);
  recorder.Record("qs_dwave_qpu_access_seconds", by_solver, access);
  recorder.Record("qs_dwave_chain_break_fraction", by_puzzle,
                  d.mean_chain_break_fraction());
  recorder.Record("qs_dwave_max_chain_length", by_puzzle, d.max_chain_length());
  recorder.Record("qs_dwave_embeddings_total",
                  {{"result", d.embedding_cached() ? "cached" : "computed"}},
                  1);
  if (!d.embedding_cached())
    recorder.Record("qs_dwave_embedding_seconds", {}, d.embedding_seconds());
}

class DwaveSampler final : public Sampler {
 public:
  explicit DwaveSampler(DwaveOptions options)
      : options_(std::move(options)),
        cache_(std::max<size_t>(1, options_.embedding_cache_size)) {}

  absl::string_view name() const override { return kDwaveBackend; }
  absl::string_view description() const override {
    return "D-Wave quantum annealer through SAPI (minor embedding, chain "
           "strength by uniform torque "
           "compensation, majority-vote unembedding)";
  }
  absl::string_view params_field() const override { return "dwave"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = false,
            .interruptible = true,
            .remote = true};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (!params.has_dwave()) return absl::OkStatus();
    const v1::DwaveParams& d = params.dwave();
    const std::string field = absl::StrCat(prefix, ".dwave.");
    auto positive = [&](bool has, double value,
                        absl::string_view name) -> absl::Status {
      if (!has || (std::isfinite(value) && value > 0)) return absl::OkStatus();
      return absl::InvalidArgumentError(
          absl::StrCat(field, name, ": must be > 0, got ", value));
    };
    RETURN_IF_ERROR(positive(d.has_annealing_time_us(), d.annealing_time_us(),
                             "annealing_time_us"));
    RETURN_IF_ERROR(
        positive(d.has_chain_strength(), d.chain_strength(), "chain_strength"));
    RETURN_IF_ERROR(positive(d.has_chain_strength_prefactor(),
                             d.chain_strength_prefactor(),
                             "chain_strength_prefactor"));
    RETURN_IF_ERROR(positive(d.has_embedding_timeout_seconds(),
                             d.embedding_timeout_seconds(),
                             "embedding_timeout_seconds"));
    if (d.label().size() > 1024) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, "label: ", d.label().size(),
                       " characters, over SAPI's limit of 1024"));
    }
    return absl::OkStatus();
  }

  std::vector<MetricSpec> Metrics() const override { return DwaveMetrics(); }

  void RecordMetrics(const v1::SolveSummary& summary, absl::string_view puzzle,
                     MetricRecorder& recorder) const override {
    RecordDwaveMetrics(summary.backend().dwave(), puzzle, recorder);
  }

  // From the status the last probe left; before the first probe a request is
  // let through (its job finds out on a worker thread).
  absl::Status Available() const override {
    absl::MutexLock lock(&mu_);
    if (status_checked_ == absl::InfinitePast()) return absl::OkStatus();
    return status_;
  }

  std::string StatusMessage() const override {
    absl::MutexLock lock(&mu_);
    if (status_checked_ == absl::InfinitePast())
      return "availability not checked yet";
    return status_.ok() ? "ready" : std::string(status_.message());
  }

  absl::Duration RefreshInterval() const override {
    return options_.status_cache_ttl;
  }

  // The token, SAPI's solver list and the solver's state, within 10 s.
  void RefreshAvailability(Interrupter& interrupter) const override {
    absl::Status status;
    auto token = ResolveDwaveToken(options_);
    if (!token.ok()) {
      status = token.status();
    } else {
      CallContext ctx{absl::Now() + absl::Seconds(10), &interrupter};
      status = ProbeSolver(*token, ctx);
    }
    absl::MutexLock lock(&mu_);
    status_ = status;
    status_checked_ = absl::Now();
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    SampleStats stats;
    stats.seed = params.seed;
    stats.threads = 1;
    v1::DwaveInfo info;
    auto finish = [&]() {
      stats.stop_reason = interrupter.reason();
      stats.elapsed = absl::Now() - start;
      *stats.info.mutable_dwave() = info;
      return stats;
    };
    ASSIGN_OR_RETURN(const std::string token, ResolveDwaveToken(options_));
    const v1::DwaveParams dp =
        params.wire != nullptr && params.wire->has_dwave()
            ? params.wire->dwave()
            : v1::DwaveParams();
    const absl::Time deadline =
        std::min(interrupter.deadline(), start + options_.solve_timeout);
    CallContext ctx{deadline, &interrupter};
    auto stopped = [&](const absl::Status& status) {
      return interrupter.ShouldStop() &&
             (status.code() == absl::StatusCode::kCancelled ||
              status.code() == absl::StatusCode::kDeadlineExceeded);
    };

    if (model.num_variables() == 0) {
      // Everything was decided by the reduction: nothing to send.
      sink.OnSample(
          {{}, model.offset(), 0, static_cast<uint64_t>(params.num_reads)});
      stats.reads_done = params.num_reads;
      return finish();
    }

    auto client_or = Client(token, ctx);
    if (!client_or.ok())
      return stopped(client_or.status())
                 ? finish()
                 : absl::StatusOr<SampleStats>(client_or.status());
    dwave::SapiClient& client = **client_or;
    info.set_endpoint(client.endpoint());
    auto solver_or = SelectSolver(
        client, dp.solver().empty() ? options_.solver : dp.solver(), ctx);
    if (!solver_or.ok())
      return stopped(solver_or.status())
                 ? finish()
                 : absl::StatusOr<SampleStats>(solver_or.status());
    const std::shared_ptr<const SolverEntry> solver = *solver_or;
    const SolverInfo& si = solver->info;
    if (!si.online()) {
      return absl::UnavailableError(
          absl::StrCat("D-Wave solver ", si.name, " is ", si.status));
    }
    info.set_solver(si.name);
    info.set_graph_id(si.graph_id);
    info.set_topology(absl::StrCat(
        si.topology_type, " [", absl::StrJoin(si.topology_shape, ", "), "]"));

    // Parameters, checked against the solver before any embedding work.
    const bool auto_scale = dp.has_auto_scale() ? dp.auto_scale() : true;
    info.set_auto_scale(auto_scale);
    double annealing_time = si.default_annealing_time;
    if (dp.has_annealing_time_us()) {
      annealing_time = dp.annealing_time_us();
      if (!(annealing_time >= si.annealing_time_range.first &&
            annealing_time <= si.annealing_time_range.second)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "params.dwave.annealing_time_us: ", annealing_time,
            " is outside the solver's range [", si.annealing_time_range.first,
            ", ", si.annealing_time_range.second, "]"));
      }
    }
    info.set_annealing_time_us(annealing_time);
    // Embedding.
    const dwave::ProblemGraph graph = dwave::ProblemGraphOf(model);
    const uint64_t graph_hash = dwave::ProblemGraphHash(graph);
    std::optional<dwave::Embedding> embedding =
        cache_.Lookup(si.graph_id, graph_hash);
    if (embedding &&
        !dwave::ValidateEmbedding(graph, solver->graph, *embedding).ok())
      embedding.reset();
    if (embedding) {
      info.set_embedding_cached(true);
    } else {
      dwave::EmbeddingOptions eo;
      eo.seed = dp.has_embedding_seed() ? dp.embedding_seed() : params.seed;
      eo.timeout = dp.has_embedding_timeout_seconds()
                       ? absl::Seconds(dp.embedding_timeout_seconds())
                       : options_.embedding_timeout;
      eo.timeout = std::min(eo.timeout, deadline - absl::Now());
      eo.tries = options_.embedding_tries;
      dwave::EmbeddingStats es;
      auto found =
          dwave::FindEmbedding(graph, solver->graph, eo, &interrupter, &es);
      info.set_embedding_seconds(absl::ToDoubleSeconds(es.elapsed));
      if (!found.ok()) {
        if (interrupter.ShouldStop()) return finish();
        return absl::FailedPreconditionError(absl::StrCat(
            "backend dwave: the problem cannot be embedded on solver ", si.name,
            ": ", found.status().message()));
      }
      embedding = *std::move(found);
      cache_.Insert(si.graph_id, graph_hash, *embedding);
    }
    info.set_physical_qubits(embedding->TotalQubits());
    info.set_max_chain_length(embedding->MaxChainLength());
    info.set_mean_chain_length(static_cast<double>(embedding->TotalQubits()) /
                               model.num_variables());

    // Chain strength and the physical problem.
    const IsingModel ising = ToIsing(model);
    double chain_strength = 0;
    if (dp.has_chain_strength()) {
      chain_strength = dp.chain_strength();
    } else {
      const double prefactor = dp.has_chain_strength_prefactor()
                                   ? dp.chain_strength_prefactor()
                                   : options_.chain_strength_prefactor;
      chain_strength = dwave::UniformTorqueCompensation(ising, prefactor);
    }
    if (!(chain_strength > 0) || !std::isfinite(chain_strength)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.dwave.chain_strength: uniform torque compensation gave ",
          chain_strength, " for this model; set a chain strength > 0"));
    }
    info.set_chain_strength(chain_strength);
    ASSIGN_OR_RETURN(
        const dwave::EmbeddedProblem physical,
        dwave::EmbedIsing(ising, *embedding, solver->graph, chain_strength));
    if (!auto_scale) {
      for (const auto& [q, h] : physical.ising.linear) {
        if (h < si.h_range.first || h > si.h_range.second) {
          return absl::InvalidArgumentError(
              absl::StrCat("params.dwave.auto_scale: with auto_scale off, the "
                           "embedded h of qubit ",
                           q, " (", h, ") is outside the solver's h_range [",
                           si.h_range.first, ", ", si.h_range.second, "]"));
        }
      }
      for (const auto& [edge, j] : physical.ising.quadratic) {
        if (j < si.extended_j_range.first || j > si.extended_j_range.second) {
          return absl::InvalidArgumentError(
              absl::StrCat("params.dwave.auto_scale: with auto_scale off, the "
                           "embedded J of coupler [",
                           edge.first, ",", edge.second, "] (", j,
                           ") is outside the solver's extended_j_range [",
                           si.extended_j_range.first, ", ",
                           si.extended_j_range.second, "]"));
        }
      }
    }
    ASSIGN_OR_RETURN(const dwave::QpData data,
                     dwave::EncodeQp(physical.ising, si.qubits, si.couplers));

    // Jobs: num_reads split over problems that fit the solver's limits.
    int64_t max_reads = si.num_reads_range.second;
    const double per_read = annealing_time + si.default_readout_thermalization +
                            kReadoutAllowanceUs;
    const double budget =
        si.max_run_duration_us - si.default_programming_thermalization;
    if (per_read > 0 && budget > 0) {
      max_reads = std::min<int64_t>(
          max_reads, static_cast<int64_t>(std::floor(budget / per_read)));
    }
    max_reads = std::max<int64_t>(1, max_reads);
    auto listed = [&](absl::string_view name) {
      return si.parameters.empty() ||
             std::find(si.parameters.begin(), si.parameters.end(), name) !=
                 si.parameters.end();
    };
    std::vector<dwave::ProblemJob> jobs;
    for (int64_t left = params.num_reads; left > 0;) {
      const int64_t reads = std::min(left, max_reads);
      left -= reads;
      nlohmann::json p = {{"num_reads", reads}};
      if (listed("auto_scale")) p["auto_scale"] = auto_scale;
      if (listed("answer_mode")) p["answer_mode"] = "histogram";
      if (dp.has_annealing_time_us()) p["annealing_time"] = annealing_time;
      dwave::ProblemJob job;
      job.solver_identity_json = si.identity_json;
      job.type = "ising";
      job.data = data;
      job.params_json = p.dump();
      job.label = dp.label();
      jobs.push_back(std::move(job));
    }

    // Submission: one POST for every job, never resent once it may have reached
    // SAPI. A cancel does not abort it: a POST cut short after SAPI queued the
    // problems would leave them running (and billed) with ids we never learn,
    // so they could not be deleted. The cancel is seen right after, below.
    const absl::Time sapi_start = absl::Now();
    Interrupter uninterrupted;
    auto submitted =
        client.Submit(jobs, CallContext{ctx.deadline, &uninterrupted});
    if (!submitted.ok()) {
      if (stopped(submitted.status())) return finish();
      return submitted.status();
    }
    std::vector<std::string> pending;
    std::vector<std::string> completed;
    std::map<std::string, dwave::ProblemAnswer> answers;
    absl::Status failure;
    for (auto& item : *submitted) {
      if (!item.ok()) {
        if (failure.ok()) {
          failure = absl::Status(item.status().code(),
                                 absl::StrCat("SAPI refused the problem: ",
                                              item.status().message()));
        }
        continue;
      }
      info.add_problem_ids(item->id);
      if (item->status == "COMPLETED") {
        if (item->answer) {
          answers[item->id] = *item->answer;
        } else {
          completed.push_back(item->id);
        }
      } else if (item->terminal()) {
        if (failure.ok()) failure = StatusForProblem(*item);
      } else {
        pending.push_back(item->id);
      }
    }
    auto cancel_pending = [&]() {
      if (pending.empty()) return;
      Interrupter none;
      // A fresh, short budget: the caller's has run out or was cancelled.
      client
          .Cancel(pending, CallContext{absl::Now() + absl::Seconds(10), &none})
          .IgnoreError();
      pending.clear();
    };
    if (!failure.ok()) {
      cancel_pending();
      return failure;
    }

    // Long polling until every problem is terminal.
    while (!pending.empty()) {
      if (interrupter.ShouldStop()) {
        cancel_pending();
        return finish();
      }
      const double left = absl::ToDoubleSeconds(deadline - absl::Now());
      if (left <= 0) {
        cancel_pending();
        return absl::DeadlineExceededError(absl::StrCat(
            "backend dwave: no answer within the solve timeout of ",
            absl::FormatDuration(options_.solve_timeout)));
      }
      const int wait = std::clamp(static_cast<int>(std::min<double>(
                                      options_.poll_timeout_seconds, left)),
                                  1, 30);
      auto statuses = client.Poll(pending, wait, ctx);
      if (!statuses.ok()) {
        cancel_pending();
        if (interrupter.ShouldStop()) return finish();
        return statuses.status();
      }
      for (const dwave::ProblemStatus& s : *statuses) {
        if (!s.terminal()) continue;
        pending.erase(std::remove(pending.begin(), pending.end(), s.id),
                      pending.end());
        if (s.status == "COMPLETED") {
          completed.push_back(s.id);
        } else if (failure.ok()) {
          failure = StatusForProblem(s);
        }
      }
      if (!failure.ok()) {
        cancel_pending();
        return failure;
      }
    }
    for (const std::string& id : completed) {
      auto answer = client.GetAnswer(id, ctx);
      if (!answer.ok()) {
        if (stopped(answer.status())) return finish();
        return answer.status();
      }
      answers[id] = *std::move(answer);
    }
    info.set_sapi_seconds(absl::ToDoubleSeconds(absl::Now() - sapi_start));

    // Unembedding.
    std::map<std::string, double> timing;
    double broken_weighted = 0, max_broken = 0;
    uint64_t reads = 0, broken_reads = 0;
    uint32_t read_index = 0;
    bool first = true;
    for (const std::string& id : info.problem_ids()) {
      auto it = answers.find(id);
      if (it == answers.end()) continue;
      const dwave::ProblemAnswer& a = it->second;
      ASSIGN_OR_RETURN(const dwave::QpAnswer decoded,
                       dwave::DecodeQpAnswer(a.fields, "ising"));
      ASSIGN_OR_RETURN(
          const dwave::ChainReader reader,
          dwave::ChainReader::Create(*embedding, decoded.active_variables));
      for (const auto& [key, value] : a.timing) {
        if (first || !absl::StrContains(key, "per_sample"))
          timing[key] += value;
      }
      first = false;
      for (size_t s = 0; s < decoded.solutions.size(); ++s) {
        int broken = 0;
        std::vector<uint8_t> bits = reader.Read(decoded.solutions[s], &broken);
        const double fraction =
            reader.num_chains() > 0
                ? static_cast<double>(broken) / reader.num_chains()
                : 0.0;
        const uint64_t occurrences = static_cast<uint64_t>(
            std::max<int64_t>(1, decoded.num_occurrences[s]));
        broken_weighted += fraction * static_cast<double>(occurrences);
        max_broken = std::max(max_broken, fraction);
        reads += occurrences;
        if (broken > 0) broken_reads += occurrences;
        const double energy = model.Energy(bits);
        sink.OnSample({std::move(bits), energy, read_index++, occurrences});
      }
    }
    stats.reads_done = static_cast<int>(reads);
    info.set_mean_chain_break_fraction(
        reads > 0 ? broken_weighted / static_cast<double>(reads) : 0.0);
    info.set_max_chain_break_fraction(max_broken);
    info.set_reads_with_broken_chains(broken_reads);
    auto time_of = [&](const char* key) {
      auto it = timing.find(key);
      return it == timing.end() ? 0.0 : it->second;
    };
    info.set_qpu_access_time_us(time_of("qpu_access_time"));
    info.set_qpu_programming_time_us(time_of("qpu_programming_time"));
    info.set_qpu_sampling_time_us(time_of("qpu_sampling_time"));
    info.set_qpu_anneal_time_per_sample_us(
        time_of("qpu_anneal_time_per_sample"));
    info.set_qpu_readout_time_per_sample_us(
        time_of("qpu_readout_time_per_sample"));
    info.set_qpu_delay_time_per_sample_us(time_of("qpu_delay_time_per_sample"));
    info.set_qpu_access_overhead_time_us(time_of("qpu_access_overhead_time"));
    info.set_total_post_processing_time_us(
        time_of("total_post_processing_time"));
    return finish();
  }

 private:
  absl::Status ProbeSolver(const std::string& token, CallContext& ctx) const {
    absl::Status status;
    auto client = Client(token, ctx);
    if (!client.ok()) {
      status = client.status();
    } else {
      auto solver = SelectSolver(**client, options_.solver, ctx);
      status = solver.ok() ? absl::OkStatus() : solver.status();
      if (solver.ok() && !(*solver)->info.online()) {
        status = absl::UnavailableError(
            absl::StrCat("D-Wave solver ", (*solver)->info.name, " is ",
                         (*solver)->info.status));
      }
    }
    if (status.code() == absl::StatusCode::kUnauthenticated ||
        status.code() == absl::StatusCode::kPermissionDenied) {
      return absl::FailedPreconditionError(absl::StrCat(
          "SAPI rejected the configured API token: ", status.message()));
    }
    if (!status.ok() && status.code() != absl::StatusCode::kFailedPrecondition)
      return absl::UnavailableError(status.message());
    return status;
  }
  // The SAPI client, created once the endpoint is resolved (§1.1).
  absl::StatusOr<std::shared_ptr<dwave::SapiClient>> Client(
      const std::string& token, const CallContext& ctx) const {
    {
      absl::MutexLock lock(&mu_);
      if (client_ != nullptr) return client_;
    }
    dwave::SapiClientOptions http;
    http.token = token;
    http.connect_timeout = options_.connect_timeout;
    http.request_timeout = options_.request_timeout;
    http.max_attempts = options_.max_attempts;
    http.backoff_base = options_.backoff_base;
    http.backoff_max = options_.backoff_max;
    ASSIGN_OR_RETURN(
        const dwave::EndpointResolution resolved,
        dwave::ResolveEndpoint(options_.endpoint, options_.region,
                               options_.metadata_endpoint, http, ctx));
    http.endpoint = resolved.endpoint;
    std::shared_ptr<dwave::SapiClient> client = dwave::NewCurlSapiClient(http);
    absl::MutexLock lock(&mu_);
    if (client_ == nullptr) client_ = std::move(client);
    return client_;
  }

  // A solver by name, or the least-loaded online QPU solver of the configured
  // topology; definitions are cached for solver_cache_ttl, the working graph
  // with them.
  absl::StatusOr<std::shared_ptr<const SolverEntry>> SelectSolver(
      dwave::SapiClient& client, const std::string& name,
      const CallContext& ctx) const {
    const std::string key =
        name.empty() ? absl::StrCat("*", options_.topology) : name;
    {
      absl::MutexLock lock(&mu_);
      auto it = solvers_.find(key);
      if (it != solvers_.end() &&
          absl::Now() - it->second->fetched < options_.solver_cache_ttl)
        return it->second;
    }
    std::string chosen = name;
    if (chosen.empty()) {
      ASSIGN_OR_RETURN(
          const std::vector<SolverInfo> listing,
          client.ListSolvers(
              "none,+identity,+status,+avg_load,+properties.category,"
              "+properties.topology,+properties.supported_problem_types",
              ctx));
      const SolverInfo* best = nullptr;
      for (const SolverInfo& s : listing) {
        if (s.category != "qpu" || !s.online()) continue;
        if (!options_.topology.empty() && s.topology_type != options_.topology)
          continue;
        if (!s.supported_problem_types.empty() &&
            std::find(s.supported_problem_types.begin(),
                      s.supported_problem_types.end(),
                      "ising") == s.supported_problem_types.end()) {
          continue;
        }
        if (best == nullptr || s.avg_load < best->avg_load) best = &s;
      }
      if (best == nullptr) {
        return absl::UnavailableError(absl::StrCat(
            "no online QPU solver",
            options_.topology.empty() ? "" : " of topology ", options_.topology,
            " is listed by SAPI at ", client.endpoint()));
      }
      chosen = best->name;
    }
    ASSIGN_OR_RETURN(SolverInfo info, client.GetSolver(chosen, ctx));
    if (info.category != "qpu") {
      return absl::InvalidArgumentError(
          absl::StrCat("D-Wave solver ", chosen,
                       " is not a QPU solver (category ", info.category, ")"));
    }
    ASSIGN_OR_RETURN(dwave::HardwareGraph graph,
                     dwave::HardwareGraph::Create(info.qubits, info.couplers,
                                                  info.num_qubits));
    auto entry = std::make_shared<SolverEntry>(
        SolverEntry{std::move(info), std::move(graph), absl::Now()});
    absl::MutexLock lock(&mu_);
    solvers_[key] = entry;
    return std::shared_ptr<const SolverEntry>(entry);
  }

  const DwaveOptions options_;
  mutable dwave::EmbeddingCache cache_;
  mutable absl::Mutex mu_;
  mutable std::shared_ptr<dwave::SapiClient> client_ ABSL_GUARDED_BY(mu_);
  mutable std::map<std::string, std::shared_ptr<const SolverEntry>> solvers_
      ABSL_GUARDED_BY(mu_);
  mutable absl::Status status_ ABSL_GUARDED_BY(mu_);
  mutable absl::Time status_checked_ ABSL_GUARDED_BY(mu_) =
      absl::InfinitePast();
};

}  // namespace

absl::StatusOr<std::string> ResolveDwaveToken(const DwaveOptions& options) {
  if (!options.token.empty()) return options.token;
  if (const char* env = std::getenv("DWAVE_API_TOKEN");
      env != nullptr && env[0] != '\0') {
    return std::string(absl::StripAsciiWhitespace(env));
  }
  if (!options.token_file.empty()) {
    std::ifstream in(options.token_file);
    std::string line;
    if (!in || !std::getline(in, line)) {
      return absl::FailedPreconditionError(
          absl::StrCat("backend dwave: cannot read the API token file ",
                       options.token_file));
    }
    line = std::string(absl::StripAsciiWhitespace(line));
    if (line.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("backend dwave: the API token file ", options.token_file,
                       " is empty"));
    }
    return line;
  }
  return absl::FailedPreconditionError(
      "backend dwave: no D-Wave API token configured (set DWAVE_API_TOKEN or "
      "--dwave_token_file)");
}

std::unique_ptr<Sampler> NewDwaveSampler(DwaveOptions options) {
  return std::make_unique<DwaveSampler>(std::move(options));
}

}  // namespace qs
