// Benchmark of the CPU annealer (backend "cpu-sa") on the reference instances
// of tests/data/instances (README.md there: format, ground energies, how they
// were made), with its default beta range ("tuned") and with dwave-samplers'
// default range and schedule ("dwave", BetaRangeRule::kDwave), on the same
// kernel, 1000 sweeps.
//
// Per instance, beta-range rule and thread count it runs batches of reads
// until --min_time has passed and enough reads succeeded (or --max_time), then
// reports ns per spin-update attempt (per core), attempts per second, the
// success probability p (reads reaching the ground energy, or the best known
// energy of the random instances) and TTS99 = t_read ln(0.01) / ln(1 - p),
// where t_read is the wall time per read at that thread count (so TTS99 on 2
// cores is the 2-core throughput figure). A final table puts the two rules
// side by side. From the repository root:
//
//   build/tests/bench/sa_benchmark
//   build/tests/bench/sa_benchmark --only=queens8 --rules=dwave --kernel=scalar
//
// With --kernel=auto (the default) the models that qualify run on the
// bit-sliced kernel (core/sample/cpu_sa/bitslice_kernel.h); --kernel=float
// keeps them on the float kernel's best path. The "gset" entry of --only (run
// by default) compares the two kernels on a G-set-like graph of
// formats' generator (--gset_nodes, --gset_density, --gset_signed:
// 2,000 nodes at 1 % with +-1 weights is G22's shape with signs), minimising
// minus the cut, at --gset_reads reads of --sweeps sweeps per call:
//
//   build/tests/bench/sa_benchmark --only=gset --threads=2
//
// --reference adds the reference annealer (D-Wave's simulated annealing
// algorithm written plainly, one read at a time on one core, its default
// range) on each instance and a last table of cpu-sa's TTS99 against it, in
// the same run (--reference_range=tuned gives it cpu-sa's range, so that
// only the kernels differ); --reads sets cpu-sa's reads per call:
//
//   build/tests/bench/sa_benchmark --only=sudoku_full --rules=tuned \
//       --threads=2 --reads=32 --reference
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "benchmark/benchmark.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/qubo/qubo_proto.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/schedule.h"
#include "formats/instance_generators.h"
#include "formats/qubo_text.h"

ABSL_FLAG(std::string, instances_dir, "tests/data/instances",
          "directory of the reference *.qubo files (environment "
          "QS_INSTANCES_DIR overrides the default)");
ABSL_FLAG(std::string, only, "",
          "comma-separated instance names to run (default: all)");
ABSL_FLAG(std::string, rules, "tuned,dwave",
          "beta-range rules to run: tuned (the default schedule) and/or dwave "
          "(dwave-samplers' range)");
ABSL_FLAG(std::string, kernel, "auto",
          "kernel path: auto (bit-sliced when the model qualifies), float (the "
          "float kernel's best path), scalar, avx2 or avx512");
ABSL_FLAG(int, gset_nodes, 2000, "nodes of the G-set-like graph");
ABSL_FLAG(double, gset_density, 0.01,
          "edge probability of the G-set-like graph");
ABSL_FLAG(bool, gset_signed, true, "+-1 weights (else all 1)");
ABSL_FLAG(int, gset_reads, 1000, "reads per call on the G-set-like graph");
ABSL_FLAG(int, gset_calls, 3, "calls per kernel on the G-set-like graph");
ABSL_FLAG(std::string, threads, "1,2", "comma-separated thread counts");
ABSL_FLAG(int, sweeps, 1000, "sweeps per read");
ABSL_FLAG(double, hot_scale, 1.0,
          "multiplies the rule's beta_hot (exploration)");
ABSL_FLAG(double, cold_scale, 1.0,
          "multiplies the rule's beta_cold (exploration)");
ABSL_FLAG(double, min_time, 1.0,
          "seconds of sampling per measurement, at least");
ABSL_FLAG(double, max_time, 6.0,
          "seconds of sampling per measurement, at most");
ABSL_FLAG(
    int, min_successes, 30,
    "successful reads wanted before stopping between min_time and max_time");
ABSL_FLAG(int, reads, 0,
          "cpu-sa reads per call (0: 64 per thread, enough to fill every "
          "lane of every thread a few times)");
ABSL_FLAG(std::string, reference_range, "dwave",
          "the reference annealer's beta range: dwave (its own default) or "
          "tuned (cpu-sa's, so that only the kernels differ)");
ABSL_FLAG(bool, reference, false,
          "also run the reference annealer (D-Wave's simulated annealing "
          "algorithm, plainly: one read at a time on one core, its default "
          "beta range) on each instance, and compare cpu-sa's TTS99 with it");

namespace qs {
namespace {

// The ground energies of tests/data/instances/README.md.
struct Reference {
  const char* name;
  double ground_energy;
  bool best_known;  // the random instances: the lowest energy found by long
                    // anneals, not a proven optimum
};

constexpr Reference kReferences[] = {
    {"takuzu6", 12, false},
    {"takuzu10", 40, false},
    {"takuzu14", 84, false},
    {"queens8", 0, false},
    {"queens12", 0, false},
    {"sudoku_nyt_I_IV", -81, false},
    {"sudoku_nyt_I_II", -81, false},
    {"sudoku_full", -81, false},
    {"random_sparse2000", -1231.373704, true},
    {"random_dense1000", -2353.041827, true},
};

struct Result {
  std::string instance;
  std::string rule;
  int threads = 0;
  int n = 0;
  double ns_per_attempt_per_core = 0;
  // Process CPU time per attempt: the per-core figure on a busy machine.
  double cpu_ns_per_attempt = 0;
  double acceptance = 0;  // accepted flips per attempt
  double attempts_per_second = 0;
  int64_t reads = 0;
  int64_t successes = 0;
  double read_seconds = 0;        // wall time per read at this thread count
  double cpu_read_seconds = 0;    // CPU time per read, summed over threads
  double tts_seconds = 0;         // inf when nothing succeeded
  double best_energy = INFINITY;  // lowest energy of any read
  std::string kernel;
  const Reference* reference = nullptr;
};

double ProcessCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

std::vector<Result>& Results() {
  static auto* results = new std::vector<Result>;
  return *results;
}

double Tts99(double read_seconds, double p) {
  if (p <= 0) return INFINITY;
  if (p >= 0.99) return read_seconds;
  return read_seconds * std::log(0.01) / std::log(1 - p);
}

class CollectSink final : public SampleSink {
 public:
  explicit CollectSink(double target) : target_(target) {}
  void OnSample(Sample sample) override {
    reads_.fetch_add(1);
    if (sample.energy <= target_) successes_.fetch_add(1);
    double sum = sum_.load();
    while (!sum_.compare_exchange_weak(sum, sum + sample.energy)) {
    }
    double best = best_.load();
    while (sample.energy < best &&
           !best_.compare_exchange_weak(best, sample.energy)) {
    }
  }
  int64_t reads() const { return reads_.load(); }
  int64_t successes() const { return successes_.load(); }
  double best() const { return best_.load(); }
  double energy_sum() const { return sum_.load(); }

 private:
  const double target_;
  std::atomic<double> sum_{0};
  std::atomic<int64_t> reads_{0}, successes_{0};
  std::atomic<double> best_{INFINITY};
};

KernelPath ParseKernel(const std::string& name) {
  if (name == "scalar") return KernelPath::kScalar;
  if (name == "avx2") return KernelPath::kAvx2;
  if (name == "avx512") return KernelPath::kAvx512;
  if (name == "float") return ResolveKernelPath(KernelPath::kAuto);
  return KernelPath::kAuto;
}

// Minus the cut weight of a graph of formats' G-set generator.
Qubo GsetQubo(const v1::MaxCutPuzzle& graph) {
  QuboBuilder builder(graph.num_nodes());
  for (int e = 0; e < graph.u_size(); ++e) {
    builder.AddLinear(graph.u(e), -graph.w(e));
    builder.AddLinear(graph.v(e), -graph.w(e));
    builder.AddQuadratic(graph.u(e), graph.v(e), 2 * graph.w(e));
  }
  auto model = std::move(builder).Build();
  if (!model.ok()) {
    std::fprintf(stderr, "%s\n", std::string(model.status().message()).c_str());
    std::exit(1);
  }
  return *std::move(model);
}

// The bit-sliced kernel (auto) against the float kernel's best path on the
// G-set-like graph, at every thread count: attempts per second over the
// calls' wall time (as SolveSummary.attempts_per_second), CPU time per
// attempt, and the cuts.
void RunGsetComparison(const std::vector<int>& thread_counts) {
  const int n = absl::GetFlag(FLAGS_gset_nodes);
  const v1::MaxCutPuzzle graph =
      formats::RandomGsetGraph(n, absl::GetFlag(FLAGS_gset_density),
                               absl::GetFlag(FLAGS_gset_signed), 1)
          .maxcut();
  const Qubo model = GsetQubo(graph);
  std::printf(
      "\nG-set-like graph: %d nodes, %d edges, %s weights; %d reads x %d "
      "sweeps per call, %d calls (seeds)\n\n| kernel | threads | att/s (wall) "
      "| "
      "CPU ns/att | best cut | best cut per call (mean) | mean cut |\n"
      "|---|---:|---:|---:|---:|---:|---:|\n",
      n, graph.u_size(), absl::GetFlag(FLAGS_gset_signed) ? "+-1" : "1",
      absl::GetFlag(FLAGS_gset_reads), absl::GetFlag(FLAGS_sweeps),
      absl::GetFlag(FLAGS_gset_calls));
  for (const KernelPath kernel :
       {KernelPath::kAuto, ResolveKernelPath(KernelPath::kAuto)}) {
    for (const int threads : thread_counts) {
      WorkerPool pool(threads);
      std::unique_ptr<Sampler> sampler = NewCpuSaSampler(&pool);
      SampleParams params;
      params.num_reads = absl::GetFlag(FLAGS_gset_reads);
      params.num_sweeps = absl::GetFlag(FLAGS_sweeps);
      params.kernel = kernel;
      double seconds = 0, cpu_seconds = 0, sum = 0, best = 0, call_best = 0;
      int64_t attempts = 0, reads = 0;
      std::string name;
      const int calls = absl::GetFlag(FLAGS_gset_calls);
      for (int call = 0; call < calls; ++call) {
        params.seed = 1000003 * static_cast<uint64_t>(call) + 17;
        CollectSink sink(-INFINITY);
        Interrupter interrupter;
        const double cpu_start = ProcessCpuSeconds();
        auto stats = sampler->Sample(model, params, sink, interrupter);
        cpu_seconds += ProcessCpuSeconds() - cpu_start;
        if (!stats.ok()) {
          std::fprintf(stderr, "%s\n",
                       std::string(stats.status().message()).c_str());
          return;
        }
        seconds += absl::ToDoubleSeconds(stats->elapsed);
        attempts += stats->spin_update_attempts;
        name = stats->kernel;
        sum += sink.energy_sum();
        reads += sink.reads();
        best = std::min(best, sink.best());
        call_best += sink.best() / calls;
      }
      std::printf("| %s | %d | %.3g | %.3f | %.0f | %.1f | %.1f |\n",
                  name.c_str(), threads, attempts / seconds,
                  cpu_seconds * 1e9 / attempts, -best, -call_best,
                  -sum / reads);
    }
  }
}

// The reference annealer: D-Wave's simulated annealing as its sampler runs
// it by default, written plainly for one read at a time. Spins in index
// order, a local field per variable updated on every flip, Metropolis
// acceptance (a rise in energy delta passes when exp(-beta delta) beats a
// uniform draw, which is skipped where it cannot pass), a geometric schedule
// of one beta per sweep over dwave-samplers' default range.
class ReferenceAnnealer {
 public:
  explicit ReferenceAnnealer(const Qubo& model)
      : model_(model), n_(model.num_variables()) {
    row_start_.push_back(0);
    for (int i = 0; i < n_; ++i) {
      for (const Neighbor& nb : model.neighbors(i)) {
        neighbor_.push_back(nb.j);
        weight_.push_back(nb.w);
      }
      row_start_.push_back(static_cast<int>(neighbor_.size()));
    }
  }

  // One read from a uniformly random state; returns its energy and counts
  // its spin-update attempts.
  double Read(const std::vector<double>& betas, uint64_t seed,
              int64_t* attempts) {
    Xoshiro256 rng(seed);
    std::vector<uint8_t> x(n_);
    for (uint8_t& bit : x) bit = rng.Next() >> 63;
    // field_i = a_i + sum_j b_ij x_j; flipping x_i changes the energy by
    // (1 - 2 x_i) field_i.
    std::vector<double> field(n_);
    for (int i = 0; i < n_; ++i) {
      field[i] = model_.linear(i);
      for (int e = row_start_[i]; e < row_start_[i + 1]; ++e)
        field[i] += weight_[e] * x[neighbor_[e]];
    }
    for (const double beta : betas) {
      // exp(-beta delta) below 2^-64: no draw can accept it.
      const double threshold = 44.36142 / beta;
      for (int i = 0; i < n_; ++i) {
        const double delta = x[i] ? -field[i] : field[i];
        if (delta >= threshold) continue;
        if (delta > 0 && std::exp(-beta * delta) <= rng.NextDouble()) continue;
        const double step = x[i] ? -1.0 : 1.0;
        x[i] ^= 1;
        for (int e = row_start_[i]; e < row_start_[i + 1]; ++e)
          field[neighbor_[e]] += weight_[e] * step;
      }
    }
    *attempts += static_cast<int64_t>(betas.size()) * n_;
    return model_.Energy(x);
  }

 private:
  const Qubo& model_;
  const int n_;
  std::vector<int> row_start_;
  std::vector<int> neighbor_;
  std::vector<double> weight_;
};

// The reference annealer on one core: reads until --min_time has passed and
// enough reads succeeded (or --max_time), as RunInstance does for cpu-sa.
void RunReference(benchmark::State& state, const Reference* reference,
                  std::shared_ptr<const Qubo> model) {
  ReferenceAnnealer annealer(*model);
  const BetaRangeRule rule = absl::GetFlag(FLAGS_reference_range) == "tuned"
                                 ? BetaRangeRule::kTuned
                                 : BetaRangeRule::kDwave;
  const std::vector<double> betas =
      MakeBetaSchedule(ScheduleType::kGeometric, BetaRangeFor(rule, *model),
                       absl::GetFlag(FLAGS_sweeps));
  const double target =
      reference->ground_energy +
      1e-6 * std::max(1.0, std::abs(reference->ground_energy));
  Result result;
  for (auto _ : state) {
    int64_t attempts = 0, reads = 0, successes = 0;
    double best = INFINITY;
    const absl::Time start = absl::Now();
    const double cpu_start = ProcessCpuSeconds();
    double seconds = 0;
    for (;; ++reads) {
      const double energy = annealer.Read(
          betas, 1000003 * static_cast<uint64_t>(reads) + 17, &attempts);
      best = std::min(best, energy);
      if (energy <= target) ++successes;
      seconds = absl::ToDoubleSeconds(absl::Now() - start);
      if (seconds >= absl::GetFlag(FLAGS_max_time)) break;
      if (seconds >= absl::GetFlag(FLAGS_min_time) &&
          successes >= absl::GetFlag(FLAGS_min_successes))
        break;
    }
    ++reads;
    const double cpu_seconds = ProcessCpuSeconds() - cpu_start;
    state.SetIterationTime(seconds);
    result.instance = reference->name;
    result.rule = "reference";
    result.threads = 1;
    result.n = model->num_variables();
    result.ns_per_attempt_per_core = seconds * 1e9 / attempts;
    result.cpu_ns_per_attempt = cpu_seconds * 1e9 / attempts;
    result.attempts_per_second = attempts / seconds;
    result.reads = reads;
    result.successes = successes;
    result.best_energy = best;
    result.read_seconds = seconds / reads;
    result.cpu_read_seconds = cpu_seconds / reads;
    result.tts_seconds =
        Tts99(result.read_seconds, static_cast<double>(successes) / reads);
    result.kernel = "reference";
    result.reference = reference;
  }
  state.counters["ns_per_att"] = result.ns_per_attempt_per_core;
  state.counters["tts99_ms"] = result.tts_seconds * 1e3;
  Results().push_back(result);
}

void RunInstance(benchmark::State& state, const Reference* reference,
                 std::shared_ptr<const Qubo> model, BetaRangeRule rule,
                 int threads) {
  WorkerPool pool(threads);
  std::unique_ptr<Sampler> sampler = NewCpuSaSampler(&pool);
  SampleParams params;
  params.num_sweeps = absl::GetFlag(FLAGS_sweeps);
  params.beta_range_rule = rule;
  params.kernel = ParseKernel(absl::GetFlag(FLAGS_kernel));
  const BetaRange range = BetaRangeFor(rule, *model);
  params.beta_hot = range.hot * absl::GetFlag(FLAGS_hot_scale);
  params.beta_cold = range.cold * absl::GetFlag(FLAGS_cold_scale);
  params.num_reads = absl::GetFlag(FLAGS_reads) > 0 ? absl::GetFlag(FLAGS_reads)
                                                    : 64 * threads;
  const double target =
      reference->ground_energy +
      1e-6 * std::max(1.0, std::abs(reference->ground_energy));
  Result result;
  for (auto _ : state) {
    CollectSink sink(target);
    int64_t attempts = 0;
    int64_t accepted = 0;
    absl::Duration elapsed;
    double cpu_seconds = 0;
    std::string kernel;
    for (int call = 0;; ++call) {
      params.seed = 1000003 * static_cast<uint64_t>(call) + 17;
      Interrupter interrupter;
      const absl::Time start = absl::Now();
      const double cpu_start = ProcessCpuSeconds();
      auto stats = sampler->Sample(*model, params, sink, interrupter);
      cpu_seconds += ProcessCpuSeconds() - cpu_start;
      elapsed += absl::Now() - start;
      if (!stats.ok()) {
        state.SkipWithError(std::string(stats.status().message()).c_str());
        return;
      }
      attempts += stats->spin_update_attempts;
      accepted += stats->accepted_flips;
      kernel = stats->kernel;
      const double seconds = absl::ToDoubleSeconds(elapsed);
      if (seconds >= absl::GetFlag(FLAGS_max_time)) break;
      if (seconds >= absl::GetFlag(FLAGS_min_time) &&
          sink.successes() >= absl::GetFlag(FLAGS_min_successes)) {
        break;
      }
    }
    const double seconds = absl::ToDoubleSeconds(elapsed);
    state.SetIterationTime(seconds);
    result.instance = reference->name;
    result.rule = rule == BetaRangeRule::kDwave ? "dwave" : "tuned";
    result.threads = threads;
    result.n = model->num_variables();
    result.ns_per_attempt_per_core = seconds * threads * 1e9 / attempts;
    result.cpu_ns_per_attempt = cpu_seconds * 1e9 / attempts;
    result.acceptance = static_cast<double>(accepted) / attempts;
    result.attempts_per_second = attempts / seconds;
    result.reads = sink.reads();
    result.successes = sink.successes();
    result.best_energy = std::min(result.best_energy, sink.best());
    result.read_seconds = seconds / sink.reads();
    result.cpu_read_seconds = cpu_seconds / sink.reads();
    const double p = static_cast<double>(result.successes) / result.reads;
    result.tts_seconds = Tts99(result.read_seconds, p);
    result.kernel = kernel;
    result.reference = reference;
  }
  state.counters["ns_per_att"] = result.ns_per_attempt_per_core;
  state.counters["cpu_ns_per_att"] = result.cpu_ns_per_attempt;
  state.counters["accept_rate"] = result.acceptance;
  state.counters["att_per_s"] = result.attempts_per_second;
  state.counters["reads"] = static_cast<double>(result.reads);
  state.counters["p"] = static_cast<double>(result.successes) / result.reads;
  state.counters["tts99_ms"] = result.tts_seconds * 1e3;
  state.counters["best_energy"] = result.best_energy;
  Results().push_back(result);
}

std::string Ms(double seconds) {
  if (!std::isfinite(seconds)) return "—";
  const double ms = seconds * 1e3;
  if (ms >= 1000) return absl::StrFormat("%.2f s", seconds);
  if (ms >= 10) return absl::StrFormat("%.1f ms", ms);
  return absl::StrFormat("%.3f ms", ms);
}

std::string Ratio(double theirs, double ours) {
  if (!(theirs > 0) || !std::isfinite(theirs) || !(ours > 0) ||
      !std::isfinite(ours))
    return "—";
  return absl::StrFormat("%.1f×", theirs / ours);
}

// The same instance, rule and thread count in the results, or null.
const Result* Find(const std::string& instance, const std::string& rule,
                   int threads) {
  for (const Result& r : Results()) {
    if (r.instance == instance && r.rule == rule && r.threads == threads)
      return &r;
  }
  return nullptr;
}

// The (instance, rule) runs in order, each as its 1-thread and 2-thread result
// (either may be missing, not both).
std::vector<std::pair<const Result*, const Result*>> Runs() {
  std::vector<std::pair<const Result*, const Result*>> runs;
  for (const Result& r : Results()) {
    const Result* one = Find(r.instance, r.rule, 1);
    const Result* two = Find(r.instance, r.rule, 2);
    if (&r == (one != nullptr ? one : two)) runs.emplace_back(one, two);
  }
  return runs;
}

// p over the 1- and 2-thread runs of one instance and rule (the thread count
// does not change what a read does).
double SuccessProbability(const Result* one, const Result* two,
                          int64_t* successes, int64_t* reads) {
  *reads = (one ? one->reads : 0) + (two ? two->reads : 0);
  *successes = (one ? one->successes : 0) + (two ? two->successes : 0);
  return static_cast<double>(*successes) / *reads;
}

// TTS99 on two otherwise idle cores from CPU time: CPU time per read / 2 *
// ln(0.01) / ln(1 - p).
double CpuTts2(const Result* one, const Result* two, double p) {
  return Tts99((two ? two : one)->cpu_read_seconds / 2, p);
}

// A table cell of one run's figure, "—" when that run is missing.
std::string Cell(const Result* r, double value, int digits, bool general) {
  if (r == nullptr) return "—";
  return general ? absl::StrFormat("%.*g", digits, value)
                 : absl::StrFormat("%.*f", digits, value);
}

void PrintThroughput() {
  std::printf(
      "\n| instance | n | rule | kernel | ns/att 1 thread (wall) | ns/att 1 "
      "thread (CPU) | ns/att 2 threads (CPU) | att/s 1 thread | att/s 2 "
      "threads |\n|---|---:|---|---|---:|---:|---:|---:|---:|\n");
  for (const auto& [one, two] : Runs()) {
    const Result& any = one ? *one : *two;
    std::printf(
        "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n",
        any.instance.c_str(), any.n, any.rule.c_str(), any.kernel.c_str(),
        Cell(one, one ? one->ns_per_attempt_per_core : 0, 2, false).c_str(),
        Cell(one, one ? one->cpu_ns_per_attempt : 0, 2, false).c_str(),
        Cell(two, two ? two->cpu_ns_per_attempt : 0, 2, false).c_str(),
        Cell(one, one ? one->attempts_per_second : 0, 3, true).c_str(),
        Cell(two, two ? two->attempts_per_second : 0, 3, true).c_str());
  }
}

void PrintTimeToSolution() {
  std::printf(
      "\n| instance | rule | best energy | p (successes/reads) | TTS99 1 "
      "core (wall) | TTS99 2 cores (wall) | TTS99 2 cores (CPU) |\n"
      "|---|---|---:|---:|---:|---:|---:|\n");
  for (const auto& [one, two] : Runs()) {
    const Result& any = one ? *one : *two;
    int64_t reads, successes;
    const double p = SuccessProbability(one, two, &successes, &reads);
    const double best = std::min(one ? one->best_energy : INFINITY,
                                 two ? two->best_energy : INFINITY);
    std::printf("| %s | %s | %.6f | %.3g (%lld/%lld)%s | %s | %s | %s |\n",
                any.instance.c_str(), any.rule.c_str(), best, p,
                static_cast<long long>(successes),
                static_cast<long long>(reads),
                any.reference->best_known ? " vs best known" : "",
                one ? Ms(Tts99(one->read_seconds, p)).c_str() : "—",
                two ? Ms(Tts99(two->read_seconds, p)).c_str() : "—",
                Ms(CpuTts2(one, two, p)).c_str());
  }
}

// The tuned range against dwave-samplers' range, both measured here: CPU time
// per attempt and TTS99 on 2 cores (CPU), and how many times faster tuned is.
void PrintRuleComparison() {
  std::printf(
      "\n| instance | ns/att tuned / dwave (CPU) | TTS99 2 cores (CPU) tuned "
      "| TTS99 2 cores (CPU) dwave | dwave / tuned |\n"
      "|---|---:|---:|---:|---:|\n");
  for (const auto& [one, two] : Runs()) {
    const Result& tuned = one ? *one : *two;
    if (tuned.rule != "tuned") continue;
    const Result* dwave1 = Find(tuned.instance, "dwave", 1);
    const Result* dwave2 = Find(tuned.instance, "dwave", 2);
    if (dwave1 == nullptr && dwave2 == nullptr) continue;
    const Result& dwave = dwave1 ? *dwave1 : *dwave2;
    int64_t reads, successes;
    const double tts_tuned =
        CpuTts2(one, two, SuccessProbability(one, two, &successes, &reads));
    const double tts_dwave = CpuTts2(
        dwave1, dwave2, SuccessProbability(dwave1, dwave2, &successes, &reads));
    std::printf("| %s | %.2f / %.2f | %s | %s | %s |\n", tuned.instance.c_str(),
                tuned.cpu_ns_per_attempt, dwave.cpu_ns_per_attempt,
                Ms(tts_tuned).c_str(), Ms(tts_dwave).c_str(),
                Ratio(tts_dwave, tts_tuned).c_str());
  }
}

// cpu-sa (tuned range, at each thread count, --reads per call) against the
// reference annealer on one core, in the same run: TTS99 over wall time and
// attempts per second over wall time, and how many times cpu-sa's figure
// beats the reference's.
void PrintReferenceComparison() {
  bool header = false;
  for (const Result& reference : Results()) {
    if (reference.rule != "reference") continue;
    for (const Result& ours : Results()) {
      if (ours.instance != reference.instance || ours.rule != "tuned") continue;
      if (!header) {
        std::printf(
            "\n| instance | reference TTS99 (1 core, p) | reference att/s | "
            "cpu-sa threads | cpu-sa kernel | cpu-sa TTS99 (wall, p) | cpu-sa "
            "att/s (wall) | TTS99 ratio | att/s ratio |\n"
            "|---|---:|---:|---:|---|---:|---:|---:|---:|\n");
        header = true;
      }
      std::printf(
          "| %s | %s (%.3g) | %.3g | %d | %s | %s (%.3g) | %.3g | %s | %s |\n",
          reference.instance.c_str(), Ms(reference.tts_seconds).c_str(),
          static_cast<double>(reference.successes) / reference.reads,
          reference.attempts_per_second, ours.threads, ours.kernel.c_str(),
          Ms(ours.tts_seconds).c_str(),
          static_cast<double>(ours.successes) / ours.reads,
          ours.attempts_per_second,
          Ratio(reference.tts_seconds, ours.tts_seconds).c_str(),
          Ratio(1 / reference.attempts_per_second, 1 / ours.attempts_per_second)
              .c_str());
    }
  }
}

// Three tables: throughput, time to solution, and the two rules side by side.
// On a busy machine the wall clock also counts other processes' time slices;
// the CPU-time columns do not.
void PrintSummary() {
  PrintThroughput();
  PrintTimeToSolution();
  PrintRuleComparison();
  PrintReferenceComparison();
}

}  // namespace
}  // namespace qs

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (const char* dir = std::getenv("QS_INSTANCES_DIR"); dir != nullptr) {
    absl::SetFlag(&FLAGS_instances_dir, dir);
  }
  absl::ParseCommandLine(argc, argv);
  const std::string only = absl::GetFlag(FLAGS_only);
  const std::vector<std::string> wanted =
      only.empty() ? std::vector<std::string>{}
                   : absl::StrSplit(only, ',', absl::SkipEmpty());
  std::vector<int> thread_counts;
  for (absl::string_view t :
       absl::StrSplit(absl::GetFlag(FLAGS_threads), ',', absl::SkipEmpty())) {
    thread_counts.push_back(std::max(1, std::atoi(std::string(t).c_str())));
  }
  std::vector<qs::BetaRangeRule> rules;
  for (absl::string_view r :
       absl::StrSplit(absl::GetFlag(FLAGS_rules), ',', absl::SkipEmpty())) {
    rules.push_back(r == "dwave" ? qs::BetaRangeRule::kDwave
                                 : qs::BetaRangeRule::kTuned);
  }
  for (const qs::Reference& reference : qs::kReferences) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(),
                                     reference.name) == wanted.end()) {
      continue;
    }
    const std::string path =
        absl::GetFlag(FLAGS_instances_dir) + "/" + reference.name + ".qubo";
    auto wire = qs::formats::ReadQuboFile(path);
    if (!wire.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   std::string(wire.status().message()).c_str());
      return 1;
    }
    auto model = qs::QuboFromProto(*wire);
    if (!model.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   std::string(model.status().message()).c_str());
      return 1;
    }
    auto shared = std::make_shared<const qs::Qubo>(*std::move(model));
    if (absl::GetFlag(FLAGS_reference)) {
      const std::string name =
          absl::StrFormat("SA/%s/reference/threads:1", reference.name);
      benchmark::RegisterBenchmark(name.c_str(), qs::RunReference, &reference,
                                   shared)
          ->Iterations(1)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
    for (qs::BetaRangeRule rule : rules) {
      for (int threads : thread_counts) {
        const std::string name = absl::StrFormat(
            "SA/%s/%s/threads:%d", reference.name,
            rule == qs::BetaRangeRule::kDwave ? "dwave" : "tuned", threads);
        benchmark::RegisterBenchmark(name.c_str(), qs::RunInstance, &reference,
                                     shared, rule, threads)
            ->Iterations(1)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!qs::Results().empty()) qs::PrintSummary();
  if (wanted.empty() ||
      std::find(wanted.begin(), wanted.end(), "gset") != wanted.end()) {
    qs::RunGsetComparison(thread_counts);
  }
  return 0;
}
