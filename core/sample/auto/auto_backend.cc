// The "auto" backend: parameters, the choice of the race, its metrics.
#include "core/sample/auto/auto_backend.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"
#include "core/preprocess/roof_duality.h"
#include "core/sample/auto/auto_plan.h"
#include "core/sample/auto/auto_race.h"

namespace qs {
namespace {

// Roof duality is a maximum flow over the couplers; past this many its cost
// is no longer small beside sampling.
constexpr int64_t kMaxRoofCouplers = 200000;

// A backend the race can use on this problem, or null.
const Backend* Usable(const BackendRegistry& registry, const RacerPlan& plan,
                      const ModelFeatures& f) {
  const Backend* backend = registry.Find(plan.backend);
  if (backend == nullptr || !backend->Available().ok()) return nullptr;
  const BackendCapabilities caps = backend->capabilities();
  if (caps.max_variables > 0 && f.variables > caps.max_variables)
    return nullptr;
  if (f.higher_order && !caps.higher_order) return nullptr;
  return backend;
}

// The roof dual of a raw model: reaching it proves the optimum. Made once per
// compiled problem: its maximum flow costs a large model a good share of a
// short time limit, and concurrent solves of the model share it.
std::optional<double> LowerBound(const CompiledProblem& problem) {
  if (problem.roof_lower_bound) return problem.roof_lower_bound;
  if (problem.higher_order || problem.model.num_couplers() > kMaxRoofCouplers)
    return std::nullopt;
  return *problem.derived.GetOrMake<std::optional<double>>(
      "auto/roof_lower_bound", [&]() -> std::optional<double> {
        return RoofDuality(problem.model).lower_bound;
      });
}

class AutoBackend final : public Backend {
 public:
  AutoBackend(const BackendRegistry* registry, const WorkerPool* pool)
      : registry_(registry), pool_(pool) {}

  absl::string_view name() const override { return kAutoBackend; }
  absl::string_view description() const override {
    return "picks backends from the model's features and races them: stops "
           "at a valid board, a proof of infeasibility, the target or a "
           "proven optimum (default; 10 s unless time_limit_seconds is set)";
  }
  absl::string_view params_field() const override { return "auto"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = false,
            .interruptible = true,
            .higher_order = true,
            .sizes_own_rounds = true};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    // Another backend's message would be ignored: say so rather than run
    // without it. (A request that names no backend is sent to the backend
    // whose message it carries: BackendRegistry::NameFor.)
    if (params.backend_params_case() != v1::SolveParams::kAuto &&
        params.backend_params_case() !=
            v1::SolveParams::BACKEND_PARAMS_NOT_SET) {
      const auto* field = v1::SolveParams::descriptor()->FindFieldByNumber(
          params.backend_params_case());
      return absl::InvalidArgumentError(absl::StrCat(
          prefix, ".", field->name(), ": parameters of another backend; ",
          prefix, ".backend is '", kAutoBackend,
          "' (the default): name the backend they are for"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<BackendResult> Solve(const BackendJob& job, SampleSink& sink,
                                      Interrupter& interrupter) const override;

  std::vector<MetricSpec> Metrics() const override {
    return {{"qs_auto_raced_total",
             "Backends an auto solve raced, by backend and puzzle kind",
             MetricKind::kCounter,
             {}},
            {"qs_auto_wins_total",
             "Auto solves whose best sample came from a backend, by backend "
             "and puzzle kind",
             MetricKind::kCounter,
             {}},
            {"qs_auto_first_valid_seconds",
             "Time from the start of an auto race to its first valid board, "
             "by puzzle kind",
             MetricKind::kHistogram,
             {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
              5, 10, 20}}};
  }

  void RecordMetrics(const v1::SolveSummary& summary, absl::string_view puzzle,
                     MetricRecorder& recorder) const override {
    const v1::AutoInfo& info = summary.backend().auto_();
    const std::string kind(puzzle);
    // A racer the race ended before its head start ran out did not race.
    for (const v1::RacedBackend& r : info.raced())
      if (r.rounds() > 0)
        recorder.Record("qs_auto_raced_total",
                        {{"backend", r.name()}, {"puzzle", kind}}, 1);
    if (!summary.solved_by().empty())
      recorder.Record("qs_auto_wins_total",
                      {{"backend", summary.solved_by()}, {"puzzle", kind}}, 1);
    if (info.has_first_valid_seconds())
      recorder.Record("qs_auto_first_valid_seconds", {{"puzzle", kind}},
                      info.first_valid_seconds());
  }

 private:
  const BackendRegistry* const registry_;
  const WorkerPool* const pool_;
  // Learned from every race's rounds; sizes first rounds to the time left.
  mutable KernelSpeeds speeds_;
};

// GROUP_MOVES_OFF: the samplers with group moves flip single variables only,
// so they sample the bare QUBO as any other annealer would.
void KeepToSingleFlips(RacePlan& plan) {
  for (RacerPlan& racer : plan.racers) {
    if (racer.backend == "pt")
      racer.params.mutable_pt()->set_moves(v1::PT_MOVES_SINGLE_FLIP);
    if (racer.backend == "cpu-sa")
      racer.params.mutable_cpu_sa()->set_group_moves(v1::GROUP_MOVES_OFF);
    if (racer.backend == "tabu")
      racer.params.mutable_tabu()->set_group_moves(v1::GROUP_MOVES_OFF);
  }
}

absl::StatusOr<BackendResult> AutoBackend::Solve(
    const BackendJob& job, SampleSink& sink, Interrupter& interrupter) const {
  const v1::SolveParams& params = *job.params;
  const double time_limit = params.time_limit_seconds() > 0
                                ? params.time_limit_seconds()
                                : absl::ToDoubleSeconds(kAutoDefaultTimeLimit);
  if (params.time_limit_seconds() <= 0) {
    interrupter.SetDeadline(absl::Now() + kAutoDefaultTimeLimit,
                            StopReason::kTimeLimit);
  }
  const v1::AutoExact exact = params.auto_().exact();
  const bool group_moves = params.auto_().group_moves() != v1::GROUP_MOVES_OFF;
  ModelFeatures features = FeaturesOf(*job.problem, *job.spec);
  // Without group moves the plan is the one of a problem without groups.
  if (!group_moves) features.one_hot_groups = 0;
  RacePlan plan = ChoosePlan(features, exact, params, pool_->num_threads());
  if (!group_moves) KeepToSingleFlips(plan);
  std::vector<Racer> racers;
  for (const RacerPlan& p : plan.racers) {
    if (const Backend* b = Usable(*registry_, p, features))
      racers.push_back({b, p});
  }
  const bool supplier =
      std::any_of(racers.begin(), racers.end(),
                  [](const Racer& r) { return r.plan.supplies_board; });
  if (!supplier) {
    return absl::FailedPreconditionError(absl::StrCat(
        "params.auto.exact: no backend of this server may supply a board of "
        "this ",
        features.higher_order ? "higher-order " : "", "model (",
        features.variables, " variables) under ", v1::AutoExact_Name(exact),
        features.higher_order ? "; compile.encoding ONE_HOT gives a QUBO"
                              : ""));
  }
  RaceOptions options;
  options.puzzle = features.puzzle;
  // Where valid means feasible (constrained models), the first valid board
  // does not end the race: a better one may come (a target, agreeing rounds
  // or the time limit end it).
  const bool valid_ends = features.policy.valid_is_optimal;
  options.stop_at_valid = !params.distinct_valid() && valid_ends;
  options.target_energy = job.target_energy;
  options.seed = job.seed;
  options.pool = pool_;
  options.speeds = &speeds_;
  options.kernel_class = features.multispin ? "bitsliced" : "float";
  if (!features.puzzle || !valid_ends) {
    // A target is the user's stopping rule: rounds that agree below it do
    // not end the race. Neither do they while an exact engine that proves
    // the optimum races: its proof comes within milliseconds on the models
    // it takes, and rounds of a fast sampler on such a model agree sooner
    // than that (sat's proof on a model is feasibility, not optimality).
    const bool proof_coming = std::any_of(
        racers.begin(), racers.end(),
        [](const Racer& r) { return r.plan.exact && r.plan.backend != "sat"; });
    const bool target = job.target_energy.has_value() ||
                        (params.has_target_energy() && !valid_ends);
    if (!target && !proof_coming) {
      options.agreeing_rounds =
          params.auto_().agreeing_rounds() > 0
              ? params.auto_().agreeing_rounds()
              : static_cast<int>(
                    StatedDefault<v1::AutoParams>("agreeing_rounds"));
    }
    // On dense models the roof-duality bound lies far below every optimum
    // measured, and its maximum flow cost more than tabu's answer (docs/
    // auto.md, "The rule table").
    if (!features.puzzle && exact != v1::EXACT_OFF &&
        features.density < kAutoDenseThreshold)
      options.lower_bound = LowerBound(*job.problem);
  }
  ASSIGN_OR_RETURN(BackendResult result,
                   RunRace(job, racers, options, sink, interrupter));
  v1::AutoInfo& info = *result.info.mutable_auto_();
  info.set_rule(plan.rule);
  info.set_exact(exact);
  info.set_time_limit_seconds(time_limit);
  return result;
}

}  // namespace

std::unique_ptr<Backend> NewAutoBackend(const BackendRegistry* registry,
                                        const WorkerPool* pool) {
  return std::make_unique<AutoBackend>(registry, pool);
}

}  // namespace qs
