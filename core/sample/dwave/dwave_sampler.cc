// The "dwave" backend: solver selection, embedding, submission, polling,
// cancellation and unembedding (docs/dwave-protocol.md §1.3-§1.8, §3.6), and
// the QPU controls of §6.
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
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/dwave/anneal_controls.h"
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
// Bounds of the problems one solve may submit.

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

// Whether a failed call ended because the solve was cancelled or reached its
// time limit. A transfer timed out on the interrupter's deadline can end a few
// milliseconds before it (timeouts are whole milliseconds): wait that out, so
// that the stop (and its reason) is the interrupter's.
bool StoppedBy(const absl::Status& status, Interrupter& interrupter) {
  if (status.code() != absl::StatusCode::kCancelled &&
      status.code() != absl::StatusCode::kDeadlineExceeded) {
    return false;
  }
  const absl::Duration left = interrupter.deadline() - absl::Now();
  if (status.code() == absl::StatusCode::kDeadlineExceeded &&
      left < absl::Milliseconds(20)) {
    absl::SleepFor(left);
  }
  return interrupter.ShouldStop();
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
      {"qs_dwave_qpu_access_microseconds_total",
       "QPU access time SAPI reported in microseconds (what D-Wave bills), "
       "summed over every problem, by solver",
       MetricKind::kCounter,
       {}},
      {"qs_dwave_problems_total",
       "Problems submitted to SAPI (spin-reversal transforms, read splits and "
       "refinement rounds each count), by solver",
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
  recorder.Record("qs_dwave_qpu_access_microseconds_total", by_solver,
                  d.qpu_access_time_us());
  recorder.Record("qs_dwave_problems_total", by_solver, d.num_problems());
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
    if (d.label().size() > 1024) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, "label: ", d.label().size(),
                       " characters, over SAPI's limit of 1024"));
    }
    RETURN_IF_ERROR(CheckControls(params, field));
    return CheckAgainstSolver(d, field);
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
      stats.device_time = absl::Microseconds(info.qpu_access_time_us());
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
      return StoppedBy(status, interrupter);
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
    ASSIGN_OR_RETURN(const Controls controls, ResolveControls(dp, params, si));
    info.set_annealing_time_us(controls.anneal_end_us);
    info.set_reverse_anneal(dp.reverse_anneal());
    for (const auto& [t, s] : controls.first_schedule) {
      v1::AnnealPoint* point = info.add_anneal_schedule();
      point->set_time_us(t);
      point->set_s(s);
    }
    if (!dp.flux_biases().empty() &&
        dp.flux_biases_size() != model.num_variables()) {
      return absl::InvalidArgumentError(
          absl::StrCat("params.dwave.flux_biases: has ", dp.flux_biases_size(),
                       " values for a sampled model of ", model.num_variables(),
                       " variables (one per variable)"));
    }
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
    if (!auto_scale) RETURN_IF_ERROR(CheckRanges(physical.ising, si));

    // Spin-reversal transforms: one gauge per transform (none without).
    const int64_t total_reads = params.num_reads;
    const int transforms = static_cast<int>(std::min<int64_t>(
        dp.num_spin_reversal_transforms(), std::max<int64_t>(1, total_reads)));
    info.set_num_spin_reversal_transforms(transforms);
    std::vector<Gauged> gauged;
    if (transforms == 0) {
      ASSIGN_OR_RETURN(dwave::QpData data,
                       dwave::EncodeQp(physical.ising, si.qubits, si.couplers));
      gauged.push_back({dwave::Gauge(), std::move(data)});
    }
    for (int k = 0; k < transforms; ++k) {
      dwave::Gauge gauge = dwave::RandomGauge(
          physical.ising, DeriveSeed(params.seed ^ 0x5eedf11bULL, k));
      ASSIGN_OR_RETURN(dwave::QpData data,
                       dwave::EncodeQp(dwave::ApplyGauge(physical.ising, gauge),
                                       si.qubits, si.couplers));
      gauged.push_back({std::move(gauge), std::move(data)});
    }

    // Rounds: the first anneal, then the refinement's reverse anneals from the
    // best sample so far.
    Unembedded totals(gauged.size());
    std::optional<std::vector<uint8_t>> best;
    if (dp.reverse_anneal()) best = params.initial_states[0];
    const int rounds = 1 + static_cast<int>(dp.refine_rounds());
    const absl::Time sapi_start = absl::Now();
    for (int round = 0; round < rounds; ++round) {
      RoundPlan plan;
      plan.round = round;
      plan.schedule =
          round == 0 ? controls.first_schedule : controls.refine_schedule;
      plan.reverse = round > 0 || dp.reverse_anneal();
      plan.start = plan.reverse ? best : std::nullopt;
      ASSIGN_OR_RETURN(
          std::vector<PlannedJob> jobs,
          PlanJobs(plan, gauged, *embedding, dp, si, controls, total_reads));
      ASSIGN_OR_RETURN(const bool finished,
                       RunJobs(client, jobs, ctx, deadline, interrupter, info));
      if (!finished) break;  // stopped: report the rounds that ran
      RETURN_IF_ERROR(
          ReadAnswers(jobs, gauged, *embedding, model, sink, info, totals));
      info.set_rounds(round + 1);
      if (totals.best_bits.empty() || interrupter.ShouldStop()) break;
      best = totals.best_bits;
    }
    info.set_sapi_seconds(absl::ToDoubleSeconds(absl::Now() - sapi_start));
    stats.reads_done = static_cast<int>(totals.reads);
    totals.Fill(info);
    return finish();
  }

 private:
  // The schedules against the solver's properties already at admission (so
  // that a streaming call is refused before it starts), when the solver's
  // definition is cached; Sample checks them again before submitting.
  absl::Status CheckAgainstSolver(const v1::DwaveParams& d,
                                  const std::string& field) const {
    if (d.anneal_schedule().empty() && d.h_gain_schedule().empty())
      return absl::OkStatus();
    const std::shared_ptr<const SolverEntry> entry =
        KnownSolver(d.solver().empty() ? options_.solver : d.solver());
    if (entry == nullptr) return absl::OkStatus();
    const SolverInfo& si = entry->info;
    dwave::SchedulePoints schedule;
    for (const v1::AnnealPoint& p : d.anneal_schedule())
      schedule.emplace_back(p.time_us(), p.s());
    if (!schedule.empty()) {
      RETURN_IF_ERROR(dwave::CheckScheduleForSolver(
          schedule, d.reverse_anneal(), si,
          absl::StrCat(field, "anneal_schedule")));
    }
    if (d.h_gain_schedule().empty()) return absl::OkStatus();
    dwave::SchedulePoints gain;
    for (const v1::GainPoint& p : d.h_gain_schedule())
      gain.emplace_back(p.time_us(), p.g());
    const double end = !schedule.empty()           ? schedule.back().first
                       : d.has_annealing_time_us() ? d.annealing_time_us()
                                                   : si.default_annealing_time;
    return dwave::CheckGainSchedule(gain, end, &si,
                                    absl::StrCat(field, "h_gain_schedule"));
  }

  // The cached definition of a solver, of any age (the background
  // availability probe fetches the configured one); null when none is cached:
  // request checks never wait on SAPI.
  std::shared_ptr<const SolverEntry> KnownSolver(
      const std::string& name) const {
    absl::MutexLock lock(&mu_);
    auto it = solvers_.find(name.empty() ? absl::StrCat("*", options_.topology)
                                         : name);
    return it == solvers_.end() ? nullptr : it->second;
  }

  // The rules of the anneal controls that need no solver, so that a bad
  // schedule is refused before the solve starts.
  static absl::Status CheckControls(const v1::SolveParams& params,
                                    const std::string& field) {
    const v1::DwaveParams& d = params.dwave();
    dwave::SchedulePoints schedule;
    for (const v1::AnnealPoint& p : d.anneal_schedule())
      schedule.emplace_back(p.time_us(), p.s());
    if (!schedule.empty()) {
      if (d.has_annealing_time_us()) {
        return absl::InvalidArgumentError(absl::StrCat(
            field,
            "anneal_schedule: annealing_time_us and anneal_schedule are "
            "mutually exclusive"));
      }
      RETURN_IF_ERROR(
          dwave::CheckScheduleShape(schedule, d.reverse_anneal(),
                                    absl::StrCat(field, "anneal_schedule")));
    }
    if (d.reverse_anneal()) {
      if (schedule.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(field,
                         "reverse_anneal: needs an anneal_schedule that "
                         "starts at s = 1"));
      }
      if (params.initial_states().empty()) {
        return absl::InvalidArgumentError(
            "params.initial_states: reverse_anneal starts from "
            "initial_states[0]; none given");
      }
    }
    if (!d.h_gain_schedule().empty()) {
      dwave::SchedulePoints gain;
      for (const v1::GainPoint& p : d.h_gain_schedule())
        gain.emplace_back(p.time_us(), p.g());
      const double end = !schedule.empty()           ? schedule.back().first
                         : d.has_annealing_time_us() ? d.annealing_time_us()
                                                     : -1;
      RETURN_IF_ERROR(dwave::CheckGainSchedule(
          gain, end, nullptr, absl::StrCat(field, "h_gain_schedule")));
    }
    for (int k = 0; k < d.flux_biases_size(); ++k) {
      if (!std::isfinite(d.flux_biases(k))) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, "flux_biases[", k, "]: not a finite number"));
      }
    }
    return absl::OkStatus();
  }

  // The anneal controls of a request, checked against the solver.
  struct Controls {
    dwave::SchedulePoints first_schedule;   // empty: annealing_time
    dwave::SchedulePoints refine_schedule;  // reverse, for rounds > 0
    dwave::SchedulePoints gain_schedule;
    double annealing_time = 0;  // sent when the request set it
    double anneal_end_us = 0;   // duration of the first round's anneal
    double longest_anneal_us = 0;
  };

  // A gauged copy of the embedded problem.
  struct Gauged {
    dwave::Gauge gauge;
    dwave::QpData data;
  };

  struct RoundPlan {
    int round = 0;
    bool reverse = false;
    dwave::SchedulePoints schedule;
    std::optional<std::vector<uint8_t>> start;
  };

  struct PlannedJob {
    dwave::ProblemJob job;
    int transform = 0;
    int round = 0;
    int64_t reads = 0;
    std::string id;  // once submitted
    std::optional<dwave::ProblemAnswer> answer;
  };

  // What the unembedded answers added up to, over every round.
  struct Unembedded {
    explicit Unembedded(size_t transforms)
        : broken_by_transform(transforms, 0.0),
          reads_by_transform(transforms, 0) {}
    std::map<std::string, double> timing;
    bool first_timing = true;
    double broken_weighted = 0, max_broken = 0;
    uint64_t reads = 0, broken_reads = 0;
    uint32_t read_index = 0;
    std::vector<double> broken_by_transform;
    std::vector<uint64_t> reads_by_transform;
    std::vector<uint8_t> best_bits;
    double best_energy = HUGE_VAL;

    void Fill(v1::DwaveInfo& info) const;
  };

  static absl::StatusOr<Controls> ResolveControls(const v1::DwaveParams& dp,
                                                  const SampleParams& params,
                                                  const SolverInfo& si);
  static absl::Status CheckRanges(const dwave::PhysicalProblem& physical,
                                  const SolverInfo& si);
  static absl::StatusOr<std::vector<PlannedJob>> PlanJobs(
      const RoundPlan& plan, const std::vector<Gauged>& gauged,
      const dwave::Embedding& embedding, const v1::DwaveParams& dp,
      const SolverInfo& si, const Controls& controls, int64_t total_reads);
  absl::StatusOr<bool> RunJobs(dwave::SapiClient& client,
                               std::vector<PlannedJob>& jobs,
                               const CallContext& ctx, absl::Time deadline,
                               Interrupter& interrupter,
                               v1::DwaveInfo& info) const;
  static absl::Status ReadAnswers(const std::vector<PlannedJob>& jobs,
                                  const std::vector<Gauged>& gauged,
                                  const dwave::Embedding& embedding,
                                  const Qubo& model, SampleSink& sink,
                                  v1::DwaveInfo& info, Unembedded& totals);
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

bool Listed(const SolverInfo& si, absl::string_view name) {
  return si.parameters.empty() ||
         std::find(si.parameters.begin(), si.parameters.end(), name) !=
             si.parameters.end();
}

absl::Status NotAccepted(const SolverInfo& si, absl::string_view field,
                         absl::string_view parameter) {
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": solver ", si.name, " does not accept ", parameter));
}

nlohmann::json PointsJson(const dwave::SchedulePoints& points) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [t, v] : points) out.push_back({t, v});
  return out;
}

absl::StatusOr<DwaveSampler::Controls> DwaveSampler::ResolveControls(
    const v1::DwaveParams& dp, const SampleParams& params,
    const SolverInfo& si) {
  constexpr absl::string_view kField = "params.dwave.anneal_schedule";
  Controls c;
  for (const v1::AnnealPoint& p : dp.anneal_schedule())
    c.first_schedule.emplace_back(p.time_us(), p.s());
  const bool reverse = dp.reverse_anneal();
  if (!c.first_schedule.empty()) {
    RETURN_IF_ERROR(
        dwave::CheckScheduleShape(c.first_schedule, reverse, kField));
    RETURN_IF_ERROR(
        dwave::CheckScheduleForSolver(c.first_schedule, reverse, si, kField));
    if (!Listed(si, "anneal_schedule"))
      return NotAccepted(si, kField, "anneal_schedule");
  }
  if (reverse) {
    if (c.first_schedule.empty()) {
      return absl::InvalidArgumentError(
          "params.dwave.reverse_anneal: needs an anneal_schedule that starts "
          "at s = 1");
    }
    if (params.initial_states.empty()) {
      return absl::InvalidArgumentError(
          "params.initial_states: reverse_anneal starts from "
          "initial_states[0]; none given");
    }
    if (!Listed(si, "initial_state"))
      return NotAccepted(si, "params.dwave.reverse_anneal", "initial_state");
  }
  c.annealing_time = si.default_annealing_time;
  if (dp.has_annealing_time_us()) {
    c.annealing_time = dp.annealing_time_us();
    if (!(c.annealing_time >= si.annealing_time_range.first &&
          c.annealing_time <= si.annealing_time_range.second)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.dwave.annealing_time_us: ", c.annealing_time,
          " is outside the solver's range [", si.annealing_time_range.first,
          ", ", si.annealing_time_range.second, "]"));
    }
  }
  c.anneal_end_us = c.first_schedule.empty() ? c.annealing_time
                                             : c.first_schedule.back().first;
  c.longest_anneal_us = c.anneal_end_us;
  if (dp.refine_rounds() > 0) {
    const bool given = !c.first_schedule.empty() && reverse;
    c.refine_schedule =
        given ? c.first_schedule : dwave::DefaultReverseSchedule();
    RETURN_IF_ERROR(dwave::CheckScheduleForSolver(
        c.refine_schedule, true, si,
        given ? kField
              : "params.dwave.refine_rounds: the default reverse "
                "schedule"));
    if (!Listed(si, "anneal_schedule") || !Listed(si, "initial_state"))
      return NotAccepted(si, "params.dwave.refine_rounds", "reverse anneals");
    c.longest_anneal_us =
        std::max(c.longest_anneal_us, c.refine_schedule.back().first);
  }
  for (const v1::GainPoint& p : dp.h_gain_schedule())
    c.gain_schedule.emplace_back(p.time_us(), p.g());
  if (!c.gain_schedule.empty()) {
    constexpr absl::string_view kGain = "params.dwave.h_gain_schedule";
    RETURN_IF_ERROR(
        dwave::CheckGainSchedule(c.gain_schedule, c.anneal_end_us, &si, kGain));
    if (!c.refine_schedule.empty() &&
        c.refine_schedule.back().first != c.anneal_end_us) {
      return absl::InvalidArgumentError(absl::StrCat(
          kGain, ": the refinement's reverse anneals last ",
          c.refine_schedule.back().first, " us, the first anneal ",
          c.anneal_end_us, " us; one h-gain schedule cannot end with both"));
    }
    if (!Listed(si, "h_gain_schedule"))
      return NotAccepted(si, kGain, "h_gain_schedule");
  }
  if (!dp.flux_biases().empty() && !Listed(si, "flux_biases"))
    return NotAccepted(si, "params.dwave.flux_biases", "flux_biases");
  if (dp.has_reinitialize_state() && !Listed(si, "reinitialize_state")) {
    return NotAccepted(si, "params.dwave.reinitialize_state",
                       "reinitialize_state");
  }
  return c;
}

absl::Status DwaveSampler::CheckRanges(const dwave::PhysicalProblem& physical,
                                       const SolverInfo& si) {
  for (const auto& [q, h] : physical.linear) {
    if (h < si.h_range.first || h > si.h_range.second) {
      return absl::InvalidArgumentError(
          absl::StrCat("params.dwave.auto_scale: with auto_scale off, the "
                       "embedded h of qubit ",
                       q, " (", h, ") is outside the solver's h_range [",
                       si.h_range.first, ", ", si.h_range.second, "]"));
    }
  }
  for (const auto& [edge, j] : physical.quadratic) {
    if (j < si.extended_j_range.first || j > si.extended_j_range.second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.dwave.auto_scale: with auto_scale off, the embedded J of "
          "coupler [",
          edge.first, ",", edge.second, "] (", j,
          ") is outside the solver's extended_j_range [",
          si.extended_j_range.first, ", ", si.extended_j_range.second, "]"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<DwaveSampler::PlannedJob>> DwaveSampler::PlanJobs(
    const RoundPlan& plan, const std::vector<Gauged>& gauged,
    const dwave::Embedding& embedding, const v1::DwaveParams& dp,
    const SolverInfo& si, const Controls& controls, int64_t total_reads) {
  // Reads per problem within the solver's maximum run duration.
  int64_t max_reads = si.num_reads_range.second;
  const double per_read = controls.longest_anneal_us +
                          si.default_readout_thermalization +
                          kReadoutAllowanceUs;
  const double budget =
      si.max_run_duration_us - si.default_programming_thermalization;
  if (per_read > 0 && budget > 0) {
    max_reads = std::min<int64_t>(
        max_reads, static_cast<int64_t>(std::floor(budget / per_read)));
  }
  max_reads = std::max<int64_t>(1, max_reads);
  int num_qubits = si.num_qubits;
  for (int q : si.qubits) num_qubits = std::max(num_qubits, q + 1);
  const int64_t n = static_cast<int64_t>(gauged.size());
  std::vector<PlannedJob> jobs;
  for (int64_t k = 0; k < n; ++k) {
    const dwave::Gauge& gauge = gauged[k].gauge;
    nlohmann::json p = nlohmann::json::object();
    if (Listed(si, "auto_scale"))
      p["auto_scale"] = dp.has_auto_scale() ? dp.auto_scale() : true;
    if (Listed(si, "answer_mode")) p["answer_mode"] = "histogram";
    if (!plan.schedule.empty()) {
      p["anneal_schedule"] = PointsJson(plan.schedule);
    } else if (dp.has_annealing_time_us()) {
      p["annealing_time"] = controls.annealing_time;
    }
    if (plan.reverse && plan.start) {
      auto state =
          dwave::ChainInitialState(embedding, *plan.start, num_qubits, gauge);
      if (!state.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "params.initial_states[0]: ", state.status().message()));
      }
      p["initial_state"] = *std::move(state);
      if (dp.has_reinitialize_state())
        p["reinitialize_state"] = dp.reinitialize_state();
    }
    if (!controls.gain_schedule.empty())
      p["h_gain_schedule"] = PointsJson(controls.gain_schedule);
    if (!dp.flux_biases().empty()) {
      p["flux_biases"] = dwave::ChainFluxBiases(
          embedding,
          std::span<const double>(dp.flux_biases().data(),
                                  dp.flux_biases_size()),
          num_qubits, gauge);
    }
    for (int64_t left = total_reads / n + (k < total_reads % n ? 1 : 0);
         left > 0;) {
      PlannedJob planned;
      planned.reads = std::min(left, max_reads);
      left -= planned.reads;
      planned.transform = static_cast<int>(k);
      planned.round = plan.round;
      p["num_reads"] = planned.reads;
      planned.job.solver_identity_json = si.identity_json;
      planned.job.type = "ising";
      planned.job.data = gauged[k].data;
      planned.job.params_json = p.dump();
      planned.job.label = dp.label();
      jobs.push_back(std::move(planned));
    }
  }
  return jobs;
}

// Submission: one POST for every job of the round, never resent once it may
// have reached SAPI. A cancel does not abort it: a POST cut short after SAPI
// queued the problems would leave them running (and billed) with ids we never
// learn, so they could not be deleted. The cancel is seen right after, and
// cancels every problem still pending together. False when the solve was
// stopped.
absl::StatusOr<bool> DwaveSampler::RunJobs(dwave::SapiClient& client,
                                           std::vector<PlannedJob>& jobs,
                                           const CallContext& ctx,
                                           absl::Time deadline,
                                           Interrupter& interrupter,
                                           v1::DwaveInfo& info) const {
  auto stopped = [&](const absl::Status& status) {
    return StoppedBy(status, interrupter);
  };
  std::vector<dwave::ProblemJob> wire;
  for (const PlannedJob& j : jobs) wire.push_back(j.job);
  Interrupter uninterrupted;
  auto submitted =
      client.Submit(wire, CallContext{ctx.deadline, &uninterrupted});
  if (!submitted.ok()) {
    if (stopped(submitted.status())) return false;
    return submitted.status();
  }
  if (submitted->size() != jobs.size()) {
    return absl::UnavailableError(
        absl::StrCat("SAPI answered ", submitted->size(), " statuses for ",
                     jobs.size(), " submitted problems"));
  }
  std::map<std::string, size_t> index;
  std::vector<std::string> pending;
  std::vector<std::string> completed;
  absl::Status failure;
  for (size_t i = 0; i < jobs.size(); ++i) {
    auto& item = (*submitted)[i];
    if (!item.ok()) {
      if (failure.ok()) {
        failure = absl::Status(item.status().code(),
                               absl::StrCat("SAPI refused the problem: ",
                                            item.status().message()));
      }
      continue;
    }
    jobs[i].id = item->id;
    index[item->id] = i;
    info.add_problem_ids(item->id);
    if (item->status == "COMPLETED") {
      if (item->answer) {
        jobs[i].answer = *item->answer;
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
    client.Cancel(pending, CallContext{absl::Now() + absl::Seconds(10), &none})
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
      return false;
    }
    const double left = absl::ToDoubleSeconds(deadline - absl::Now());
    if (left <= 0) {
      cancel_pending();
      return absl::DeadlineExceededError(
          absl::StrCat("backend dwave: no answer within the solve timeout of ",
                       absl::FormatDuration(options_.solve_timeout)));
    }
    const int wait = std::clamp(
        static_cast<int>(std::min<double>(options_.poll_timeout_seconds, left)),
        1, 30);
    auto statuses = client.Poll(pending, wait, ctx);
    if (!statuses.ok()) {
      cancel_pending();
      if (interrupter.ShouldStop()) return false;
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
      if (stopped(answer.status())) return false;
      return answer.status();
    }
    jobs[index[id]].answer = *std::move(answer);
  }
  return true;
}

// Un-flips each answer's gauge, unembeds by majority vote and streams the
// logical samples; accumulates timing and chain breaks per problem, per
// transform and in total, and keeps the best sample for the next round.
absl::Status DwaveSampler::ReadAnswers(const std::vector<PlannedJob>& jobs,
                                       const std::vector<Gauged>& gauged,
                                       const dwave::Embedding& embedding,
                                       const Qubo& model, SampleSink& sink,
                                       v1::DwaveInfo& info,
                                       Unembedded& totals) {
  for (const PlannedJob& j : jobs) {
    if (!j.answer) continue;
    const dwave::ProblemAnswer& a = *j.answer;
    ASSIGN_OR_RETURN(
        dwave::QpAnswer decoded,
        dwave::DecodeQpAnswer(a.fields, dwave::QpProblemType::kIsing));
    dwave::UndoGauge(gauged[j.transform].gauge, decoded.active_variables,
                     decoded.solutions);
    ASSIGN_OR_RETURN(
        const dwave::ChainReader reader,
        dwave::ChainReader::Create(embedding, decoded.active_variables));
    for (const auto& [key, value] : a.timing) {
      if (totals.first_timing || !absl::StrContains(key, "per_sample"))
        totals.timing[key] += value;
    }
    totals.first_timing = false;
    auto time_of = [&](const char* key) {
      auto it = a.timing.find(key);
      return it == a.timing.end() ? 0.0 : it->second;
    };
    v1::DwaveProblemInfo* problem = info.add_problems();
    problem->set_id(j.id);
    problem->set_transform(j.transform);
    problem->set_round(j.round);
    problem->set_num_reads(static_cast<uint32_t>(j.reads));
    problem->set_qpu_access_time_us(time_of("qpu_access_time"));
    problem->set_qpu_programming_time_us(time_of("qpu_programming_time"));
    problem->set_qpu_sampling_time_us(time_of("qpu_sampling_time"));
    double problem_broken = 0;
    uint64_t problem_reads = 0;
    for (size_t s = 0; s < decoded.solutions.size(); ++s) {
      int broken = 0;
      std::vector<uint8_t> bits = reader.Read(decoded.solutions[s], &broken);
      const double fraction =
          reader.num_chains() > 0
              ? static_cast<double>(broken) / reader.num_chains()
              : 0.0;
      const uint64_t occurrences = static_cast<uint64_t>(
          std::max<int64_t>(1, decoded.num_occurrences[s]));
      const double weighted = fraction * static_cast<double>(occurrences);
      problem_broken += weighted;
      problem_reads += occurrences;
      totals.broken_weighted += weighted;
      totals.broken_by_transform[j.transform] += weighted;
      totals.reads_by_transform[j.transform] += occurrences;
      totals.max_broken = std::max(totals.max_broken, fraction);
      totals.reads += occurrences;
      if (broken > 0) totals.broken_reads += occurrences;
      const double energy = model.Energy(bits);
      if (energy < totals.best_energy) {
        totals.best_energy = energy;
        totals.best_bits = bits;
      }
      sink.OnSample(
          {std::move(bits), energy, totals.read_index++, occurrences});
    }
    problem->set_mean_chain_break_fraction(
        problem_reads > 0 ? problem_broken / static_cast<double>(problem_reads)
                          : 0.0);
  }
  return absl::OkStatus();
}

void DwaveSampler::Unembedded::Fill(v1::DwaveInfo& info) const {
  info.set_num_problems(info.problems_size());
  info.set_mean_chain_break_fraction(
      reads > 0 ? broken_weighted / static_cast<double>(reads) : 0.0);
  info.set_max_chain_break_fraction(max_broken);
  info.set_reads_with_broken_chains(broken_reads);
  if (info.num_spin_reversal_transforms() > 0) {
    for (size_t k = 0; k < broken_by_transform.size(); ++k) {
      info.add_chain_break_fraction_per_transform(
          reads_by_transform[k] > 0
              ? broken_by_transform[k] /
                    static_cast<double>(reads_by_transform[k])
              : 0.0);
    }
  }
  auto time_of = [&](const char* key) {
    auto it = timing.find(key);
    return it == timing.end() ? 0.0 : it->second;
  };
  info.set_qpu_access_time_us(time_of("qpu_access_time"));
  info.set_qpu_programming_time_us(time_of("qpu_programming_time"));
  info.set_qpu_sampling_time_us(time_of("qpu_sampling_time"));
  info.set_qpu_anneal_time_per_sample_us(time_of("qpu_anneal_time_per_sample"));
  info.set_qpu_readout_time_per_sample_us(
      time_of("qpu_readout_time_per_sample"));
  info.set_qpu_delay_time_per_sample_us(time_of("qpu_delay_time_per_sample"));
  info.set_qpu_access_overhead_time_us(time_of("qpu_access_overhead_time"));
  info.set_total_post_processing_time_us(time_of("total_post_processing_time"));
}

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
