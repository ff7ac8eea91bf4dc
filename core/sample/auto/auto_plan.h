// The "auto" backend's choice: the features of a compiled model that matter
// (family, size, density, exactly-one groups, coupling values, higher-order
// terms) and the rule table that maps them to the backends to race and their
// parameters. The table and the measurements behind it are in docs/auto.md;
// a change here is a change there.
#ifndef QS_CORE_SAMPLE_AUTO_AUTO_PLAN_H_
#define QS_CORE_SAMPLE_AUTO_AUTO_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "core/compile/compiler.h"
#include "core/sample/schedule.h"
#include "qs/v1/solve.pb.h"

namespace qs {

struct ModelFeatures {
  std::string family;         // the compiler's kind: "sudoku", "qubo" ...
  KindPolicy policy;          // what the kind declares of itself
  bool puzzle = false;        // the family has rules that a validator checks
  bool higher_order = false;  // a higher-order model (binary encoding)
  int variables = 0;          // of the reduced model
  int64_t couplers = 0;
  double density = 0;  // couplers / (variables choose 2)
  int one_hot_groups = 0;
  // Share of the variables in permutation blocks of the groups
  // (group_structure.h): 1 for an assignment problem (a TSP, a QAP).
  double block_share = 0;
  bool integer_weights = true;  // every coefficient is an integer
  double max_abs_weight = 0;    // over linear and quadratic terms
  // A rule the validator checks and no QUBO term expresses (Takuzu's
  // distinct rows and columns): ground states may break it.
  bool validator_only_rules = false;
  // cpu-sa anneals the model on its bit-sliced kernel (256 reads a word):
  // couplings that are small integers of one unit, and enough variables.
  bool multispin = false;
  // cpu-sa's tuned beta range for the model (set when multispin).
  BetaRange tuned_range;
  // Every coupler is a bond of a 2D lattice (lns/lattice.h), whose strips
  // lns re-solves exactly.
  bool lattice = false;
};

ModelFeatures FeaturesOf(const CompiledProblem& problem,
                         const v1::PuzzleSpec& spec);

// One backend of a race and the parameters it runs with.
struct RacerPlan {
  std::string backend;
  // What the backend reads: backend, its parameter message, reads and sweeps
  // of one round (the seed is set per round).
  v1::SolveParams params;
  // Its samples reach the client (false: an exact engine that only proves).
  bool supplies_board = true;
  // A sampler starts a new round with a new seed when one ends; an exact
  // engine runs once.
  bool restarts = true;
  // An exact engine: its end is a proof (infeasibility, optimum).
  bool exact = false;
  // Waits this long after the race starts (less if the race ends or every
  // racer before it is done), so that a leader that usually answers alone
  // does not share the cores.
  absl::Duration start_after = absl::ZeroDuration();
  // Round r runs min(max_sweeps, num_sweeps * sweeps_growth^r) sweeps: a
  // restart schedule for raw models whose hardness is unknown, where short
  // rounds answer easy ones and long rounds reach what short ones miss.
  // 1: every round as the first. Not applied when the user set the sweeps.
  double sweeps_growth = 1;
  uint32_t max_sweeps = UINT32_MAX;
  // Each round's sweeps are cut to what the time left lets the round finish
  // at the compute this call gets (auto_race.h RoundSweepsForTime), so that
  // a round ends with its schedule complete. Set where the plan chose the
  // sweeps, not where the user did.
  bool sized_to_time = false;
  // With sized_to_time: a round's reads are this many per pool thread the
  // call may count on when its first round starts (the pool's threads over
  // the solves sharing it, at least one), kept for its later rounds: under
  // load a call anneals one word, on a free pool one per thread. 0: the
  // reads of `params`.
  uint32_t reads_per_thread = 0;
  // Rounds after the first start every read from the best state of the race
  // so far, for a search that improves a state rather than anneals from
  // scratch: its rounds then go on from where the last ones got, and each
  // round's end streams what it found. The request's starting states seed
  // the first round.
  bool resumes_from_best = false;
};

struct RacePlan {
  std::string rule;               // the table's row, e.g. "puzzle/sat-first"
  std::vector<RacerPlan> racers;  // the leader first
};

// Models up to this many variables are enumerated by the "exact" backend
// (2^n states, enumerated by Gray code on the worker pool).
inline constexpr int kAutoExactMaxVariables = 22;
// raw/lattice: lns passes of the first round, growing by kAutoLatticeGrowth
// a round up to kDefaultLnsPasses (lns_sampler.h), each round going on from
// the best state so far.
inline constexpr uint32_t kAutoLatticeFirstPasses = 20;
inline constexpr double kAutoLatticeGrowth = 2;
// Constrained models: pt's rounds (ladder rounds of a read) in the first
// round of the race, their growth per round and their cap.
inline constexpr uint32_t kAutoModelFirstRounds = 200;
inline constexpr double kAutoModelRoundsGrowth = 2;
inline constexpr uint32_t kAutoModelMaxRounds = 12800;
// ... and cpu-sa's anneals beside pt on assignment models (every variable in
// a permutation block): reads of a round, the sweeps of the first, their
// growth per round and their cap.
inline constexpr uint32_t kAutoModelAnnealReads = 8;
inline constexpr uint32_t kAutoModelFirstSweeps = 1000;
inline constexpr double kAutoModelSweepsGrowth = 2;
inline constexpr uint32_t kAutoModelMaxSweeps = 64000;
// ... and the head start of the samplers before sat joins.
inline constexpr absl::Duration kAutoModelSatHeadStart =
    absl::Milliseconds(100);
// Raw models at least this dense go to tabu alone.
inline constexpr double kAutoDenseThreshold = 0.05;
// Raw models cpu-sa anneals bit-sliced: a round's reads are one 256-read word
// per worker thread (AutoMultispinReads); the sweeps of the first round
// (AutoMultispinFirstSweeps), their growth per round and their cap (docs/
// auto.md, "Max-Cut and other small-integer models").
//
// The first round: n / 2 sweeps, at least 500 (on 2000-node graphs 1000
// sweeps reached the best cut in 70-80 % of the time of 500, and 2000 in
// more than 1000); from a mean degree of 32 (the G1-G10 shape: 800 nodes,
// degree 48), 250, which reached those graphs' best cut in about 60 % of the
// time of 500 and cost the sparser G43 shape (degree 20) 60 % more.
inline constexpr uint32_t kAutoMultispinFirstSweeps = 500;
inline constexpr double kAutoMultispinFirstSweepsPerVariable = 0.5;
inline constexpr double kAutoMultispinShortStartDegree = 32;
inline constexpr uint32_t kAutoMultispinShortFirstSweeps = 250;
inline constexpr double kAutoMultispinSweepsGrowth = 2;
inline constexpr uint32_t kAutoMultispinMaxSweeps = 64000;
// Their first beta is this share of cpu-sa's tuned one (a hotter start):
// on G-set-shaped graphs it reached the best cut in 4-22x more reads.
inline constexpr double kAutoMultispinHotScale = 0.45;
// Head starts of a puzzle race's leader (docs/auto.md, "Measurements"): sat
// leads where it answered first (Sudoku, Queens, distinct-rows Takuzu of
// kAutoUniqueLinesSatVariables or more), pt where it did (Tents, Tango, the
// other Unruly puzzles).
inline constexpr absl::Duration kAutoSatHeadStart = absl::Milliseconds(50);
inline constexpr absl::Duration kAutoPtHeadStart = absl::Milliseconds(20);
// Distinct-rows Takuzu (a rule no QUBO term expresses) from this many
// reduced variables goes to sat first (docs/auto.md, "The rule table").
inline constexpr int kAutoUniqueLinesSatVariables = 70;
// Higher-order models up to this many variables go to the "qaoa" simulator
// when exact engines may not supply the board.
inline constexpr int kAutoQaoaMaxVariables = 16;

// The reads of a raw/multispin round on a pool of `worker_threads`.
uint32_t AutoMultispinReads(int worker_threads);
// The sweeps of raw/multispin's first round.
uint32_t AutoMultispinFirstSweeps(const ModelFeatures& features);

// The race of the rule table for a model. `request` gives the user's reads,
// sweeps and initial states (reads and sweeps per round when set);
// `worker_threads` is the size of the samplers' pool.
RacePlan ChoosePlan(const ModelFeatures& features, v1::AutoExact exact,
                    const v1::SolveParams& request, int worker_threads);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_AUTO_AUTO_PLAN_H_
