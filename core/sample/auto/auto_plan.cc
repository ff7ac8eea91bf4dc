// The rule table of the "auto" backend (docs/auto.md has it with its
// measurements).
#include "core/sample/auto/auto_plan.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/families/builtin.h"
#include "core/sample/cpu_sa/bitslice_kernel.h"
#include "core/sample/group_structure.h"
#include "core/sample/lns/lns_sampler.h"

namespace qs {
namespace {

bool IsInteger(double w) { return std::floor(w) == w; }

// The user's reads and sweeps, when set, are those of each round.
v1::SolveParams RoundParams(const v1::SolveParams& request,
                            const std::string& backend, uint32_t reads) {
  v1::SolveParams p;
  p.set_backend(backend);
  p.set_num_reads(request.has_num_reads() ? request.num_reads() : reads);
  if (request.has_num_sweeps()) p.set_num_sweeps(request.num_sweeps());
  *p.mutable_initial_states() = request.initial_states();
  return p;
}

RacerPlan SamplerRacer(const v1::SolveParams& request,
                       const std::string& backend, uint32_t reads) {
  RacerPlan racer;
  racer.backend = backend;
  racer.params = RoundParams(request, backend, reads);
  return racer;
}

// An exact engine: it supplies the board only in EXACT_RACE.
RacerPlan Exact(const std::string& backend, v1::AutoExact exact) {
  RacerPlan racer;
  racer.backend = backend;
  racer.supplies_board = exact == v1::EXACT_RACE;
  racer.restarts = false;
  racer.exact = true;
  racer.params.set_backend(backend);
  // One board (one ground state) answers; sat's second would only tell
  // uniqueness.
  racer.params.set_num_reads(1);
  if (backend == "sat") racer.params.mutable_sat()->set_max_solutions(1);
  return racer;
}

RacePlan HigherOrder(const ModelFeatures& f, v1::AutoExact exact,
                     const v1::SolveParams& request) {
  RacePlan plan;
  plan.rule = "higher-order";
  if (exact != v1::EXACT_OFF && f.puzzle)
    plan.racers.push_back(Exact("sat", exact));
  if (exact == v1::EXACT_RACE && f.variables <= kAutoExactMaxVariables)
    plan.racers.push_back(Exact("exact", exact));
  if (exact != v1::EXACT_RACE && f.variables <= kAutoQaoaMaxVariables)
    plan.racers.push_back(SamplerRacer(request, "qaoa", 100));
  return plan;
}

// Where sat answered before pt in the measurements: Sudoku, Queens and chess,
// and distinct-rows Takuzu from kAutoUniqueLinesSatVariables variables (pt
// keeps going past ground states that break the rule; below that size its
// median was lower, above it sat's was, with a tail 17x shorter). pt leads
// on Tango, the other Takuzu and Unruly puzzles, and Tents.
bool SatLeads(const ModelFeatures& f) {
  if (f.validator_only_rules)
    return f.variables >= kAutoUniqueLinesSatVariables;
  return f.policy.sat_leads;
}

// Constrained models, where valid means feasible and the race goes on past
// the first feasible answer: sat finds a feasible one (or proves there is
// none), `exact` certifies the optimum of a small model, and the samplers
// search for better ones: pt leads where one-hot groups give it moves that
// keep them, tabu where there are none (docs/auto.md, "The rule table").
RacePlan ConstrainedModel(const ModelFeatures& f, v1::AutoExact exact,
                          const v1::SolveParams& request, int worker_threads) {
  RacePlan plan;
  // Every variable in a permutation block (an assignment problem): pt's
  // and cpu-sa's exchanges and reversals move every variable and keep every
  // group, where tabu's single flips break one. pt beside cpu-sa reached
  // better tours and the same assignments sooner than pt alone or beside
  // tabu (docs/auto.md, "Assignment models"). cpu-sa's rounds grow from
  // short anneals, not sized to the time left: its speeds are learnt on
  // single flips, some 300x faster per sweep than these moves.
  const bool blocks = f.one_hot_groups > 0 && f.block_share >= 1;
  plan.rule = blocks                 ? "model/blocks"
              : f.one_hot_groups > 0 ? "model/pt-first"
                                     : "model/tabu-first";
  // One ladder per pool thread, in rounds that grow: a model's ground
  // energy is unknown, so no ladder ends early by reaching it, and short
  // first rounds stream answers (a target can stop the solve) soon.
  RacerPlan pt = SamplerRacer(
      request, "pt", static_cast<uint32_t>(std::max(1, worker_threads)));
  if (!request.has_num_sweeps()) {
    pt.params.set_num_sweeps(kAutoModelFirstRounds);
    pt.sweeps_growth = kAutoModelRoundsGrowth;
    pt.max_sweeps = kAutoModelMaxRounds;
  }
  RacerPlan tabu = SamplerRacer(request, "tabu", 8);
  if (blocks) {
    plan.racers.push_back(std::move(pt));
    plan.racers.push_back(
        SamplerRacer(request, "cpu-sa", kAutoModelAnnealReads));
    RacerPlan& sa = plan.racers.back();
    if (!request.has_num_sweeps()) {
      sa.params.set_num_sweeps(kAutoModelFirstSweeps);
      sa.sweeps_growth = kAutoModelSweepsGrowth;
      sa.max_sweeps = kAutoModelMaxSweeps;
    }
  } else if (f.one_hot_groups > 0) {
    plan.racers.push_back(std::move(pt));
    plan.racers.push_back(std::move(tabu));
  } else {
    plan.racers.push_back(std::move(tabu));
    plan.racers.push_back(std::move(pt));
  }
  if (exact == v1::EXACT_OFF) return plan;
  // sat joins after a head start: the samplers answer the easy models alone
  // (on 2 cores a third racer from the start slowed their answer), and a
  // model no assignment satisfies is proven so a moment later.
  plan.racers.push_back(Exact("sat", exact));
  plan.racers.back().start_after = kAutoModelSatHeadStart;
  if (f.variables <= kAutoExactMaxVariables)
    plan.racers.push_back(Exact("exact", exact));
  return plan;
}

RacePlan Puzzle(const ModelFeatures& f, v1::AutoExact exact,
                const v1::SolveParams& request) {
  RacePlan plan;
  if (request.distinct_valid()) {
    // Uniform sampling of valid boards is the annealer's ([Mücke 2024] §4):
    // one round of cpu-sa's reads, as asked, and no search's single board.
    plan.rule = "puzzle/uniform";
    plan.racers.push_back(SamplerRacer(request, "cpu-sa", 100));
    plan.racers.back().restarts = false;
    return plan;
  }
  if (f.variables == 0) {
    // The reduction decided every cell: one read reads the board out, and
    // sat is needed only when that board breaks a rule (it then proves
    // that no board keeps them all).
    plan.rule = "puzzle/decided";
    plan.racers.push_back(SamplerRacer(request, "cpu-sa", 1));
    plan.racers.back().restarts = false;  // every round reads the same board
    if (exact != v1::EXACT_OFF) {
      plan.racers.push_back(Exact("sat", exact));
      plan.racers.back().start_after = kAutoPtHeadStart;
    }
    return plan;
  }
  // Parallel tempering with one-hot swaps is the fastest QUBO sampler on
  // every measured family; each ladder ends at the ground energy.
  RacerPlan pt = SamplerRacer(request, "pt", 1000);
  if (exact == v1::EXACT_OFF) {
    plan.rule = "puzzle/pt";
    plan.racers.push_back(std::move(pt));
    return plan;
  }
  RacerPlan sat = Exact("sat", exact);
  // Under EXACT_PROOF_ONLY the board is pt's: sat only proves, second.
  const bool sat_first = exact == v1::EXACT_RACE && SatLeads(f);
  if (sat_first) {
    plan.rule = "puzzle/sat-first";
    pt.start_after = kAutoSatHeadStart;
    plan.racers.push_back(std::move(sat));
    plan.racers.push_back(std::move(pt));
  } else {
    plan.rule = "puzzle/pt-first";
    sat.start_after = kAutoPtHeadStart;
    plan.racers.push_back(std::move(pt));
    plan.racers.push_back(std::move(sat));
  }
  return plan;
}

RacePlan Raw(const ModelFeatures& f, v1::AutoExact exact,
             const v1::SolveParams& request, int worker_threads) {
  RacePlan plan;
  if (f.variables <= kAutoExactMaxVariables) {
    plan.rule = "raw/small";
    if (exact != v1::EXACT_OFF) plan.racers.push_back(Exact("exact", exact));
    plan.racers.push_back(SamplerRacer(request, "tabu", 8));
  } else if (f.lattice) {
    // 2D lattices (the G-set's toroidal spin glasses, rudy's grids): lns,
    // one read per pool thread, in rounds that go on from the best state; on
    // every measured lattice it reached the best-known cut where cpu-sa's
    // words stopped short (docs/auto.md, "Lattices").
    plan.rule = "raw/lattice";
    RacerPlan lns = SamplerRacer(
        request, "lns", static_cast<uint32_t>(std::max(1, worker_threads)));
    if (!request.has_num_sweeps()) {
      lns.params.set_num_sweeps(kAutoLatticeFirstPasses);
      lns.sweeps_growth = kAutoLatticeGrowth;
      lns.max_sweeps = kDefaultLnsPasses;
    }
    lns.resumes_from_best = true;
    plan.racers.push_back(std::move(lns));
  } else if (f.multispin) {
    // Integer models of small weights (G-set graphs, dense or sparse):
    // cpu-sa's bit-sliced words, full and growing, alone; tabu and a fixed
    // short schedule fell behind on every measured graph (docs/auto.md,
    // "Max-Cut and other small-integer models").
    plan.rule = "raw/multispin";
    RacerPlan sa =
        SamplerRacer(request, "cpu-sa", AutoMultispinReads(worker_threads));
    v1::CpuSaParams& cpu_sa = *sa.params.mutable_cpu_sa();
    cpu_sa.set_beta_hot(kAutoMultispinHotScale * f.tuned_range.hot);
    cpu_sa.set_beta_cold(f.tuned_range.cold);
    if (!request.has_num_sweeps()) {
      sa.params.set_num_sweeps(AutoMultispinFirstSweeps(f));
      sa.sweeps_growth = kAutoMultispinSweepsGrowth;
      sa.max_sweeps = kAutoMultispinMaxSweeps;
      sa.sized_to_time = true;
    }
    if (!request.has_num_reads()) sa.reads_per_thread = kBitSliceLanes;
    plan.racers.push_back(std::move(sa));
  } else if (f.density >= kAutoDenseThreshold) {
    plan.rule = "raw/dense";
    plan.racers.push_back(SamplerRacer(request, "tabu", 8));
  } else {
    plan.rule = "raw/sparse";
    plan.racers.push_back(SamplerRacer(request, "tabu", 8));
    plan.racers.push_back(SamplerRacer(request, "cpu-sa", 32));
    plan.racers.back().sized_to_time = !request.has_num_sweeps();
  }
  return plan;
}

double BlockShare(const CompiledProblem& problem) {
  const int n = problem.model.num_variables();
  if (problem.one_hot_groups.empty() || n == 0 ||
      problem.higher_order.has_value())
    return 0;
  const GroupStructure s = FindGroupStructure(n, problem.one_hot_groups);
  int64_t cells = 0;
  for (const PermutationBlock& block : s.blocks) {
    for (int32_t v : block.cells) cells += v >= 0;
  }
  return static_cast<double>(cells) / n;
}

}  // namespace

ModelFeatures FeaturesOf(const CompiledProblem& problem,
                         const v1::PuzzleSpec& spec) {
  ModelFeatures f;
  f.validator_only_rules = spec.has_takuzu() && spec.takuzu().unique_lines();
  f.family = problem.kind;
  if (absl::StatusOr<const PuzzleCompiler*> compiler =
          BuiltinCompilers().ForSpec(spec);
      compiler.ok())
    f.policy = (*compiler)->Policy();
  f.puzzle = !f.policy.raw_model;
  f.higher_order = problem.higher_order.has_value();
  f.one_hot_groups = static_cast<int>(problem.one_hot_groups.size());
  f.block_share = BlockShare(problem);
  if (f.higher_order) {
    f.variables = problem.higher_order->num_variables;
    for (const HuboTerm& t : problem.higher_order->terms) {
      f.integer_weights = f.integer_weights && IsInteger(t.w);
      f.max_abs_weight = std::max(f.max_abs_weight, std::abs(t.w));
    }
    return f;
  }
  const Qubo& model = problem.model;
  f.variables = model.num_variables();
  f.multispin = f.variables >= kBitSliceMinVariables &&
                CachedBitSliceModel(model, &problem.derived)->qualifies;
  // The range cpu-sa itself would take, kept where cpu-sa keeps it.
  if (f.multispin)
    f.tuned_range =
        CachedBetaRange(BetaRangeRule::kTuned, model, &problem.derived);
  f.lattice = f.variables > kAutoExactMaxVariables &&
              CachedLattice(model, &problem.derived)->has_value();
  f.couplers = model.num_couplers();
  const double pairs = 0.5 * f.variables * (f.variables - 1.0);
  f.density = pairs > 0 ? f.couplers / pairs : 0;
  for (int i = 0; i < f.variables; ++i) {
    f.integer_weights = f.integer_weights && IsInteger(model.linear(i));
    f.max_abs_weight = std::max(f.max_abs_weight, std::abs(model.linear(i)));
    for (const auto& nb : model.neighbors(i)) {
      f.integer_weights = f.integer_weights && IsInteger(nb.w);
      f.max_abs_weight = std::max(f.max_abs_weight, std::abs(nb.w));
    }
  }
  return f;
}

uint32_t AutoMultispinFirstSweeps(const ModelFeatures& f) {
  const double mean_degree = 2.0 * f.couplers / std::max(1, f.variables);
  if (mean_degree >= kAutoMultispinShortStartDegree)
    return kAutoMultispinShortFirstSweeps;
  return std::max(kAutoMultispinFirstSweeps,
                  static_cast<uint32_t>(kAutoMultispinFirstSweepsPerVariable *
                                        f.variables));
}

uint32_t AutoMultispinReads(int worker_threads) {
  return static_cast<uint32_t>(kBitSliceLanes * std::max(1, worker_threads));
}

RacePlan ChoosePlan(const ModelFeatures& features, v1::AutoExact exact,
                    const v1::SolveParams& request, int worker_threads) {
  if (features.higher_order) return HigherOrder(features, exact, request);
  if (features.puzzle && !features.policy.valid_is_optimal &&
      !request.distinct_valid() && features.variables > 0)
    return ConstrainedModel(features, exact, request, worker_threads);
  if (features.puzzle) return Puzzle(features, exact, request);
  return Raw(features, exact, request, worker_threads);
}

}  // namespace qs
