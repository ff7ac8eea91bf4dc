// The arithmetic of `qsolve bench`: success probability against a target,
// TTS99 with a bootstrap confidence interval, residual energy, and the SVG
// plot. Kept apart from the gRPC loop so that tests reach it directly.
#ifndef QS_CLIENTS_CLI_BENCH_STATS_H_
#define QS_CLIENTS_CLI_BENCH_STATS_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace qs::cli {

// Reads (or runs) that ended at one energy.
struct EnergyCount {
  double energy = 0;
  uint64_t count = 0;
};

// A read succeeds when its energy is within this of the target or below.
inline constexpr double kTargetTolerance = 1e-9;

struct PointStats {
  uint64_t reads = 0;
  uint64_t successes = 0;
  double p = 0;                          // successes / reads
  double tts99 = 0;                      // seconds; +inf when p == 0
  double tts99_low = 0, tts99_high = 0;  // bootstrap 95 % interval
  double mean_residual = 0;              // mean energy - target
  double best_energy = 0;
};

// Time to reach the target with 99 % confidence by independent repeats of a
// unit (one read, or one timed run) of `unit_seconds` that succeeds with
// probability p: unit_seconds * ln(0.01) / ln(1 - p); unit_seconds when
// p == 1, +inf when p == 0.
double Tts99(double p, double unit_seconds);

// Statistics of one point. The interval resamples the reads with replacement
// (`resamples` times, seeded; the success count of a resample is binomial)
// and takes the 2.5 and 97.5 percentiles of TTS99.
PointStats Summarize(std::span<const EnergyCount> energies, double target,
                     double unit_seconds, int resamples, uint64_t seed);

// One curve of the TTS plot: TTS99 (seconds) against the budget.
struct PlotSeries {
  std::string label;  // legend text (the backend)
  std::string name;   // written next to the last point of the curve (the model)
  int colour = 0;     // index into the palette; same backend, same colour
  std::vector<double> budgets;
  std::vector<double> tts;  // +inf points are left out
};

// An SVG image: TTS99 against the budget on log-log axes (left) and the
// histogram of residual energies (energy - target) of one point (right).
std::string PlotSvg(const std::vector<PlotSeries>& series,
                    const std::string& budget_label,
                    std::span<const EnergyCount> histogram,
                    double histogram_target, const std::string& title);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_BENCH_STATS_H_
