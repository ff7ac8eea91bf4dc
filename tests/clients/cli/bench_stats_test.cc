// The arithmetic of `qsolve bench`: TTS99, success counting against a target,
// the bootstrap interval, and the SVG plot.
#include "clients/cli/bench_stats.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qs::cli {
namespace {

using ::testing::HasSubstr;

TEST(BenchStats, Tts99) {
  EXPECT_DOUBLE_EQ(Tts99(1, 0.5), 0.5);
  EXPECT_TRUE(std::isinf(Tts99(0, 0.5)));
  // p = 0.5: log(0.01) / log(0.5) = 6.64 reads.
  EXPECT_NEAR(Tts99(0.5, 2e-3), 2e-3 * 6.643856, 1e-9);
  EXPECT_NEAR(Tts99(0.99, 1), 1, 1e-12);
}

TEST(BenchStats, SummarizeCountsReadsAtTheTarget) {
  const std::vector<EnergyCount> energies = {
      {-10, 3}, {-10 + 1e-12, 1}, {-9, 4}, {-7, 2}};
  const PointStats s = Summarize(energies, -10, 1e-3, 1000, 1);
  EXPECT_EQ(s.reads, 10u);
  EXPECT_EQ(s.successes, 4u);  // within 1e-9 of the target counts
  EXPECT_DOUBLE_EQ(s.p, 0.4);
  EXPECT_DOUBLE_EQ(s.best_energy, -10);
  EXPECT_NEAR(s.mean_residual, (0 * 4 + 1 * 4 + 3 * 2) / 10.0, 1e-9);
  EXPECT_NEAR(s.tts99, Tts99(0.4, 1e-3), 1e-15);
  EXPECT_LE(s.tts99_low, s.tts99);
  EXPECT_GE(s.tts99_high, s.tts99);
  EXPECT_LT(s.tts99_low, s.tts99_high);
  // Same seed, same interval.
  const PointStats again = Summarize(energies, -10, 1e-3, 1000, 1);
  EXPECT_EQ(again.tts99_low, s.tts99_low);
  EXPECT_EQ(again.tts99_high, s.tts99_high);
}

TEST(BenchStats, NoSuccessIsInfinite) {
  const std::vector<EnergyCount> energies = {{-3, 5}};
  const PointStats s = Summarize(energies, -4, 1e-3, 100, 1);
  EXPECT_EQ(s.p, 0);
  EXPECT_TRUE(std::isinf(s.tts99));
  EXPECT_TRUE(std::isinf(s.tts99_high));
  EXPECT_DOUBLE_EQ(s.mean_residual, 1);
}

TEST(BenchStats, PlotHasBothPanels) {
  std::vector<PlotSeries> series = {
      {"cpu-sa", "bqp:50", 0, {100, 1000, 10000}, {1e-2, 2e-3, INFINITY}},
      {"exact", "bqp:20", 1, {100, 1000, 10000}, {5e-1, 5e-1, 5e-1}}};
  const std::vector<EnergyCount> energies = {{-10, 3}, {-9, 4}};
  const std::string svg =
      PlotSvg(series, "sweeps per read", energies, -10, "a <title> & more");
  EXPECT_THAT(svg, HasSubstr("<svg"));
  EXPECT_THAT(svg, HasSubstr("TTS99 (s)"));
  EXPECT_THAT(svg, HasSubstr("a &lt;title&gt; &amp; more"));
  EXPECT_THAT(svg, HasSubstr("7 reads"));
  EXPECT_THAT(svg, HasSubstr(">bqp:20<"));
  // Two series drawn, the infinite point left out: 5 markers.
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos;
       at = svg.find("<circle", at + 1))
    ++circles;
  EXPECT_EQ(circles, 5u);
}

}  // namespace
}  // namespace qs::cli
