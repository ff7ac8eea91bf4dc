// QaoaBackend: parameters, the angle optimisation and the sampling of the
// final state.
#include "core/sample/qaoa/qaoa_backend.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <nlopt.hpp>
#include <numbers>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"
#include "core/qaoa/angles.h"
#include "core/qaoa/phase_polynomial.h"
#include "core/qaoa/statevector.h"

ABSL_FLAG(int64_t, qaoa_max_memory_mb, 0,
          "Memory the `qaoa` backend's statevector may take, MiB (26 bytes "
          "per amplitude); sets the backend's `max_variables` (27 qubits with "
          "24 GiB of RAM); larger models: `RESOURCE_EXHAUSTED` naming the "
          "limit and the qubits; 0: a quarter of physical memory");

namespace qs {
namespace {

std::string Mebibytes(int64_t bytes) {
  return absl::StrCat(bytes >> 20, " MiB");
}

// BOBYQA unless Nelder-Mead is asked for (COBYLA is refused by CheckParams).
nlopt::algorithm Algorithm(v1::QaoaOptimizer optimizer) {
  return optimizer == v1::NELDER_MEAD ? nlopt::LN_NELDERMEAD : nlopt::LN_BOBYQA;
}

// What one optimisation found.
struct Optimised {
  QaoaAngles best;
  std::vector<double> trace;
};

// Minimises <C> over the 2p angles from `start`. Stops early when the
// interrupter fires (the best angles so far are kept).
Optimised Optimise(QaoaStatevector& sim, const QaoaAngles& start,
                   const v1::QaoaParams& wire, double cost_scale,
                   Interrupter& interrupter) {
  const int p = start.layers();
  Optimised out{start, {}};
  double best = HUGE_VAL;
  std::vector<double> x(start.gammas);
  x.insert(x.end(), start.betas.begin(), start.betas.end());
  nlopt::opt opt(Algorithm(wire.optimizer()), 2 * p);
  // One period of the mixer (beta) and a few of the largest term (gamma).
  const double gamma_bound = 2 * std::numbers::pi / cost_scale;
  std::vector<double> lower(2 * p), upper(2 * p), step(2 * p);
  for (int k = 0; k < 2 * p; ++k) {
    const bool gamma = k < p;
    upper[k] = gamma ? gamma_bound : std::numbers::pi / 2;
    lower[k] = -upper[k];
    step[k] = gamma ? 0.1 / cost_scale : 0.1;
    x[k] = std::clamp(x[k], lower[k], upper[k]);
  }
  struct Context {
    QaoaStatevector* sim;
    Interrupter* interrupter;
    nlopt::opt* opt;
    Optimised* out;
    double* best;
    int p;
  } context{&sim, &interrupter, &opt, &out, &best, p};
  auto objective = [](const std::vector<double>& v, std::vector<double>&,
                      void* data) -> double {
    auto& c = *static_cast<Context*>(data);
    const std::span<const double> all(v);
    if (!c.sim->Run(all.first(c.p), all.subspan(c.p), c.interrupter)) {
      c.opt->force_stop();
      return HUGE_VAL;
    }
    const double e = c.sim->Expectation();
    c.out->trace.push_back(e);
    if (e < *c.best) {
      *c.best = e;
      c.out->best.gammas.assign(v.begin(), v.begin() + c.p);
      c.out->best.betas.assign(v.begin() + c.p, v.end());
    }
    return e;
  };
  opt.set_lower_bounds(lower);
  opt.set_upper_bounds(upper);
  opt.set_initial_step(step);
  opt.set_maxeval(static_cast<int>(
      wire.max_iterations() > 0
          ? wire.max_iterations()
          : static_cast<uint32_t>(
                StatedDefault<v1::QaoaParams>("max_iterations"))));
  opt.set_ftol_abs(1e-10);
  opt.set_xtol_abs(1e-8);
  opt.set_min_objective(objective, &context);
  double minimum = 0;
  try {
    opt.optimize(x, minimum);
  } catch (const std::exception&) {
    // A forced stop or a round-off limit: the best point so far stands.
  }
  return out;
}

class QaoaBackend final : public Backend {
 public:
  QaoaBackend(WorkerPool* pool, int64_t max_memory_bytes)
      : pool_(pool),
        max_memory_bytes_(max_memory_bytes > 0 ? max_memory_bytes
                                               : DefaultQaoaMemoryBytes()),
        max_qubits_(QaoaMaxQubits(max_memory_bytes_)) {}

  absl::string_view name() const override { return "qaoa"; }
  absl::string_view description() const override {
    return "QAOA by exact statevector simulation on the server's CPU cores "
           "(given, linear-ramp or optimised angles; X or XY mixer)";
  }
  absl::string_view params_field() const override { return "qaoa"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .higher_order = true,
            .max_variables = max_qubits_};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (!params.has_qaoa()) return absl::OkStatus();
    const v1::QaoaParams& q = params.qaoa();
    const std::string field = absl::StrCat(prefix, ".qaoa");
    RETURN_IF_ERROR(
        CheckQaoaAngles(q.layers(), q.gammas(), q.betas(), field).status());
    return absl::OkStatus();
  }

  absl::StatusOr<BackendResult> Solve(const BackendJob& job, SampleSink& sink,
                                      Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const CompiledProblem& problem = *job.problem;
    const v1::QaoaParams& wire = job.params != nullptr
                                     ? job.params->qaoa()
                                     : v1::QaoaParams::default_instance();
    ASSIGN_OR_RETURN(const PhasePolynomial cost,
                     ProblemPhasePolynomial(problem));
    RETURN_IF_ERROR(CheckMemory(cost.num_qubits));
    ASSIGN_OR_RETURN(const QaoaMixerSpec mixer, Mixer(problem, wire.mixer()));
    ASSIGN_OR_RETURN(const int layers,
                     CheckQaoaAngles(wire.layers(), wire.gammas(), wire.betas(),
                                     "params.qaoa"));
    ASSIGN_OR_RETURN(std::unique_ptr<QaoaStatevector> sim,
                     QaoaStatevector::Create(cost, mixer, pool_));
    v1::QaoaInfo info;
    const QaoaAngles angles =
        ChooseAngles(*sim, layers, cost, wire, interrupter, info);
    BackendResult result;
    result.seed = job.seed;
    if (Stopped(interrupter)) return Finish(result, interrupter, start);
    // The final state is always completed: a time limit keeps what the
    // optimiser reached.
    if (!sim->Run(angles.gammas, angles.betas, &interrupter)) {
      if (Stopped(interrupter)) return Finish(result, interrupter, start);
      sim->Run(angles.gammas, angles.betas, nullptr);
    }
    DescribeState(*sim, angles, problem, !mixer.xy_groups.empty(), info);
    if (auto p = ValidProbability(*sim, sink)) info.set_valid_probability(*p);
    result.reads_done = StreamSamples(*sim, problem, job, sink, interrupter);
    *result.info.mutable_qaoa() = std::move(info);
    return Finish(result, interrupter, start);
  }

 private:
  // The angles of the final state: those given, else the optimiser's best
  // from the linear ramp (its trace goes into info).
  static QaoaAngles ChooseAngles(QaoaStatevector& sim, int layers,
                                 const PhasePolynomial& cost,
                                 const v1::QaoaParams& wire,
                                 Interrupter& interrupter, v1::QaoaInfo& info) {
    QaoaAngles angles =
        ResolveQaoaAngles(layers, wire.gammas(), wire.betas(), cost);
    if (!wire.gammas().empty()) return angles;
    Optimised found = Optimise(
        sim, angles, wire, std::max(cost.MaxAbsWeight(), 1e-300), interrupter);
    info.set_optimizer(wire.optimizer() == v1::QAOA_OPTIMIZER_DEFAULT
                           ? v1::BOBYQA
                           : wire.optimizer());
    info.set_iterations(static_cast<uint32_t>(found.trace.size()));
    for (double e : found.trace) info.add_trace(e);
    return std::move(found.best);
  }

  // What the final state is and gives.
  static void DescribeState(const QaoaStatevector& sim,
                            const QaoaAngles& angles,
                            const CompiledProblem& problem, bool xy,
                            v1::QaoaInfo& info) {
    info.set_layers(angles.layers());
    for (double g : angles.gammas) info.add_gammas(g);
    for (double b : angles.betas) info.add_betas(b);
    info.set_expectation(sim.Expectation());
    info.set_qubits(sim.num_qubits());
    info.set_mixer(xy ? v1::QAOA_MIXER_XY : v1::QAOA_MIXER_X);
    if (problem.ground_energy.has_value()) {
      info.set_ground_probability(sim.ProbabilityOfEnergy(
          *problem.ground_energy,
          1e-9 * std::max(1.0, std::abs(*problem.ground_energy))));
    }
  }

  // The probability of the valid boards, which are among the states of the
  // lowest cost: those are decoded and validated by the sink (nullopt when
  // there are too many of them to decode, or the sink decodes no boards).
  static std::optional<double> ValidProbability(const QaoaStatevector& sim,
                                                SampleSink& sink) {
    constexpr size_t kMaxBoards = 4096;
    const std::vector<uint64_t> lowest = sim.LowestCostStates(kMaxBoards);
    if (lowest.empty()) return std::nullopt;
    double probability = 0;
    for (uint64_t z : lowest) {
      const std::optional<bool> valid =
          sink.IsValidBoard(BitsOf(z, sim.num_qubits()));
      if (!valid.has_value()) return std::nullopt;
      if (*valid) probability += sim.probability(z);
    }
    return probability;
  }

  static std::vector<uint8_t> BitsOf(uint64_t state, int n) {
    std::vector<uint8_t> bits(n);
    for (int k = 0; k < n; ++k) bits[k] = state >> k & 1;
    return bits;
  }

  absl::Status CheckMemory(int qubits) const {
    if (qubits <= max_qubits_) return absl::OkStatus();
    const double need =
        std::ldexp(static_cast<double>(kQaoaBytesPerAmplitude), qubits);
    return absl::ResourceExhaustedError(absl::StrCat(
        "qaoa: ", qubits, " qubits need ",
        static_cast<int64_t>(need / (1 << 20)),
        " MiB of statevector, over the limit of ", Mebibytes(max_memory_bytes_),
        " (--qaoa_max_memory_mb; at most ", max_qubits_, " qubits)"));
  }

  static absl::StatusOr<QaoaMixerSpec> Mixer(const CompiledProblem& problem,
                                             v1::QaoaMixer kind) {
    if (kind != v1::QAOA_MIXER_XY) return QaoaMixerSpec{};
    if (problem.one_hot_groups.empty()) {
      return absl::InvalidArgumentError(
          "params.qaoa.mixer: QAOA_MIXER_XY needs the puzzle's exactly-one "
          "groups, and this puzzle's compiler gives none; use QAOA_MIXER_X");
    }
    // The ring mixers act on disjoint groups; a family's groups overlap
    // (queens rows and columns, Sudoku cells and digits), so the first of
    // them that are disjoint from the ones taken before are used, in the
    // compiler's order (rows, cells), and the other variables keep the X
    // mixer.
    std::vector<std::vector<int32_t>> disjoint;
    absl::flat_hash_set<int32_t> taken;
    for (const std::vector<int32_t>& group : problem.one_hot_groups) {
      if (std::any_of(group.begin(), group.end(),
                      [&](int32_t v) { return taken.contains(v); }))
        continue;
      taken.insert(group.begin(), group.end());
      disjoint.push_back(group);
    }
    return QaoaMixerSpec{std::move(disjoint)};
  }

  static bool Stopped(Interrupter& interrupter) {
    const StopReason r = interrupter.reason();
    return r == StopReason::kCancelled || r == StopReason::kDeadline ||
           r == StopReason::kShutdown;
  }

  static absl::StatusOr<BackendResult> Finish(BackendResult& result,
                                              Interrupter& interrupter,
                                              absl::Time start) {
    result.stop_reason = interrupter.reason();
    result.elapsed = absl::Now() - start;
    return std::move(result);
  }

  // Draws the reads, merges identical ones and passes them to the sink in
  // order of their first read.
  static int StreamSamples(const QaoaStatevector& sim,
                           const CompiledProblem& problem,
                           const BackendJob& job, SampleSink& sink,
                           Interrupter& interrupter) {
    const std::vector<uint64_t> reads = sim.Sample(job.num_reads, job.seed);
    std::map<uint64_t, std::pair<uint32_t, uint64_t>> seen;  // first, count
    for (size_t r = 0; r < reads.size(); ++r) {
      auto [it, inserted] =
          seen.try_emplace(reads[r], static_cast<uint32_t>(r), 0);
      ++it->second.second;
    }
    std::vector<std::pair<uint32_t, uint64_t>> order;
    for (const auto& [state, first_count] : seen)
      order.push_back({first_count.first, state});
    std::sort(order.begin(), order.end());
    const int n = sim.num_qubits();
    for (const auto& [first, state] : order) {
      // stop_at_first_valid: the sink stopped the solve at a valid board.
      if (interrupter.reason() == StopReason::kTargetReached) break;
      Sample sample;
      sample.bits = BitsOf(state, n);
      sample.energy = problem.higher_order.has_value()
                          ? problem.higher_order->Energy(sample.bits)
                          : problem.model.Energy(sample.bits);
      sample.read_index = first;
      sample.num_occurrences = seen[state].second;
      if (job.target_energy && sample.energy <= *job.target_energy + 1e-9)
        interrupter.Interrupt(StopReason::kTargetReached);
      sink.OnSample(std::move(sample));
    }
    return static_cast<int>(reads.size());
  }

  WorkerPool* const pool_;
  const int64_t max_memory_bytes_;
  const int max_qubits_;
};

}  // namespace

int64_t DefaultQaoaMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return int64_t{1} << 30;
  return static_cast<int64_t>(pages) * page_size / 4;
}

absl::StatusOr<int64_t> QaoaMaxMemoryFromFlags() {
  const int64_t mb = absl::GetFlag(FLAGS_qaoa_max_memory_mb);
  if (mb < 0 || mb > (int64_t{1} << 30))
    return absl::InvalidArgumentError("--qaoa_max_memory_mb must be >= 0");
  return mb << 20;
}

std::unique_ptr<Backend> NewQaoaBackend(WorkerPool* pool,
                                        int64_t max_memory_bytes) {
  return std::make_unique<QaoaBackend>(pool, max_memory_bytes);
}

}  // namespace qs
