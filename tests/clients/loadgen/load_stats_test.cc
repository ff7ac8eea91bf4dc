// Tests of qs_loadgen's report arithmetic (clients/loadgen/load_stats.cc):
// nearest-rank percentiles, the Prometheus text parser on the server's metric
// shapes, and the phase split between two scrapes.
#include "clients/loadgen/load_stats.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::loadgen {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

TEST(PercentilesTest, NearestRank) {
  std::vector<double> values;
  for (int k = 100; k >= 1; --k) values.push_back(k);
  const Percentiles p = ComputePercentiles(values);
  EXPECT_EQ(p.count, 100);
  EXPECT_DOUBLE_EQ(p.mean, 50.5);
  EXPECT_DOUBLE_EQ(p.p50, 50);
  EXPECT_DOUBLE_EQ(p.p90, 90);
  EXPECT_DOUBLE_EQ(p.p99, 99);
  EXPECT_DOUBLE_EQ(p.max, 100);
}

TEST(PercentilesTest, FewValues) {
  const Percentiles one = ComputePercentiles({7});
  EXPECT_DOUBLE_EQ(one.p50, 7);
  EXPECT_DOUBLE_EQ(one.p99, 7);
  const Percentiles three = ComputePercentiles({3, 1, 2});
  EXPECT_DOUBLE_EQ(three.p50, 2);
  EXPECT_DOUBLE_EQ(three.p90, 3);
  const Percentiles none = ComputePercentiles({});
  EXPECT_EQ(none.count, 0);
  EXPECT_DOUBLE_EQ(none.max, 0);
}

constexpr char kPage[] = R"(# HELP qs_requests_total Finished RPCs
# TYPE qs_requests_total counter
qs_requests_total{method="Solve",puzzle="sudoku",backend="cpu-sa",code="OK"} 12
qs_requests_total{method="Solve",puzzle="queens",backend="cpu-sa",code="OK"} 8
qs_request_duration_seconds_sum{method="Solve",puzzle="sudoku",backend="cpu-sa"} 1.5
qs_request_duration_seconds_count{method="Solve",puzzle="sudoku",backend="cpu-sa"} 12
qs_request_duration_seconds_sum{method="Compile",puzzle="sudoku",backend="none"} 9
qs_request_duration_seconds_count{method="Compile",puzzle="sudoku",backend="none"} 3
qs_solve_phase_seconds_bucket{phase="queue",le="0.001"} 4
qs_solve_phase_seconds_sum{phase="queue"} 0.25
qs_solve_phase_seconds_sum{phase="compile"} 0.05
qs_solve_phase_seconds_sum{phase="sample"} 1.0
qs_solve_phase_seconds_sum{phase="decode"} 0.02
qs_active_requests 3
odd{note="a \"quoted\" value"} 1e-3 1700000000000
)";

TEST(PrometheusTextTest, ParsesSamples) {
  auto samples = ParsePrometheusText(kPage);
  ASSERT_OK(samples);
  ASSERT_EQ(samples->size(), 13u);
  EXPECT_EQ((*samples)[0].name, "qs_requests_total");
  EXPECT_EQ((*samples)[0].labels.at("puzzle"), "sudoku");
  EXPECT_EQ((*samples)[11].name, "qs_active_requests");
  EXPECT_DOUBLE_EQ((*samples)[11].value, 3);
  EXPECT_EQ((*samples)[12].labels.at("note"), "a \"quoted\" value");
  EXPECT_DOUBLE_EQ((*samples)[12].value, 1e-3);
  EXPECT_DOUBLE_EQ(SumMetric(*samples, "qs_requests_total"), 20);
  EXPECT_DOUBLE_EQ(
      SumMetric(*samples, "qs_requests_total", {{"puzzle", "queens"}}), 8);
  EXPECT_DOUBLE_EQ(
      SumMetric(*samples, "qs_requests_total", {{"code", "UNAVAILABLE"}}), 0);
}

TEST(PrometheusTextTest, RejectsBadLines) {
  EXPECT_THAT(ParsePrometheusText("ok 1\nbroken{a=\"x\" 2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("metrics line 2")));
  EXPECT_THAT(
      ParsePrometheusText("name_only\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no value")));
  EXPECT_THAT(
      ParsePrometheusText("x{a=\"b\"} many\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bad value")));
}

TEST(PhaseSplitTest, DifferenceOfTwoScrapes) {
  auto after = ParsePrometheusText(kPage);
  ASSERT_OK(after);
  auto before = ParsePrometheusText(
      "qs_request_duration_seconds_sum{method=\"Solve\"} 0.5\n"
      "qs_request_duration_seconds_count{method=\"Solve\"} 2\n"
      "qs_solve_phase_seconds_sum{phase=\"sample\"} 0.3\n");
  ASSERT_OK(before);
  const PhaseSplit split = ComputePhaseSplit(*before, *after, "Solve");
  EXPECT_NEAR(split.requests, 10, 1e-12);
  EXPECT_NEAR(split.request_seconds, 1.0, 1e-12);
  EXPECT_NEAR(split.queue_seconds, 0.25, 1e-12);
  EXPECT_NEAR(split.compile_seconds, 0.05, 1e-12);
  EXPECT_NEAR(split.sample_seconds, 0.7, 1e-12);
  EXPECT_NEAR(split.decode_seconds, 0.02, 1e-12);
  // Served 0.75 s = annealer (sample 0.7 - decode 0.02) + 0.07 s outside.
  EXPECT_NEAR(split.served_seconds(), 0.75, 1e-12);
  EXPECT_NEAR(split.annealer_seconds(), 0.68, 1e-12);
  EXPECT_NEAR(split.outside_seconds(), 0.07, 1e-12);
  EXPECT_NEAR(split.outside_share(), 0.07 / 0.75, 1e-12);
  EXPECT_NEAR(PhaseSplit().outside_share(), 0, 1e-12);
}

}  // namespace
}  // namespace qs::loadgen
