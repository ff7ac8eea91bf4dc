// StreamingSink's held events: with max_sample_events the sink keeps only
// that many (the best: valid first, then the lowest energy, ties by bits) and
// Flush emits exactly what sorting every read and cutting the list would;
// every read is still counted. Raw models' boards skip validation.
#include "core/solve/streaming_sink.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/base/rng.h"
#include "core/families/builtin.h"
#include "core/solve/wire.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

constexpr int kVariables = 12;

v1::PuzzleSpec SmallQubo() {
  v1::PuzzleSpec spec;
  v1::QuboModel& q = *spec.mutable_qubo();
  q.set_num_variables(kVariables);
  for (int i = 0; i < kVariables; ++i) {
    q.add_i(i);
    q.add_j((i + 1) % kVariables);
    q.add_w(i % 3 - 1);
  }
  return spec;
}

struct SinkRun {
  std::vector<v1::SampleEvent> events;
  uint32_t reads_done = 0;
};

// Feeds `reads` seeded samples (energies with many ties) through a sink.
SinkRun Feed(const v1::SolveParams& params, int reads) {
  const v1::PuzzleSpec spec = SmallQubo();
  const PuzzleCompiler* compiler = *BuiltinCompilers().ForSpec(spec);
  auto problem = compiler->Compile(spec, v1::CompileOptions());
  EXPECT_TRUE(problem.ok()) << problem.status();
  const int n = problem->model.num_variables();
  EXPECT_GE(n, kVariables / 2);  // distinct boards to order, not one
  SinkRun run;
  Interrupter interrupter;
  const StreamingSink::EventFn emit = [&](v1::SolveResponse&& response) {
    if (response.has_sample()) run.events.push_back(response.sample());
  };
  StreamingSink sink(*compiler, spec, *problem, params, reads, interrupter,
                     emit, absl::Hours(1));
  Xoshiro256 rng(11);
  for (int r = 0; r < reads; ++r) {
    std::vector<uint8_t> bits(n);
    for (uint8_t& b : bits) b = rng.Next() % 2;
    const double energy = -static_cast<double>(rng.Next() % 9);
    sink.OnSample({std::move(bits), energy, static_cast<uint32_t>(r), 1});
  }
  sink.Flush();
  run.reads_done = sink.reads_done();
  return run;
}

std::vector<std::tuple<bool, double, std::string>> Keys(
    std::vector<v1::SampleEvent> events) {
  std::vector<std::tuple<bool, double, std::string>> keys;
  for (const v1::SampleEvent& e : events)
    keys.emplace_back(!e.valid(), e.energy(), e.bits());
  return keys;
}

TEST(StreamingSinkTest, MaxSampleEventsKeepsTheBestOfEveryRead) {
  constexpr int kReads = 500;
  v1::SolveParams all;
  const SinkRun streamed = Feed(all, kReads);
  ASSERT_EQ(streamed.events.size(), static_cast<size_t>(kReads));
  auto expected = Keys(streamed.events);
  std::sort(expected.begin(), expected.end());

  for (uint32_t cap : {1u, 7u, 64u}) {
    v1::SolveParams capped;
    capped.set_max_sample_events(cap);
    const SinkRun run = Feed(capped, kReads);
    EXPECT_EQ(run.reads_done, static_cast<uint32_t>(kReads));
    const std::vector<std::tuple<bool, double, std::string>> want(
        expected.begin(), expected.begin() + cap);
    EXPECT_EQ(Keys(run.events), want) << "max_sample_events " << cap;
  }
}

TEST(StreamingSinkTest, AggregationStillCountsEveryRead) {
  v1::SolveParams params;
  params.set_aggregate(true);
  params.set_max_sample_events(5);
  const SinkRun run = Feed(params, 300);
  ASSERT_EQ(run.events.size(), 5u);
  EXPECT_EQ(run.reads_done, 300u);
  EXPECT_TRUE(
      std::is_sorted(run.events.begin(), run.events.end(),
                     [](const v1::SampleEvent& a, const v1::SampleEvent& b) {
                       return a.energy() < b.energy();
                     }));
}

// Raw models' boards are all valid: the sink marks them so without
// validating, and keeps none of them with the compiled problem.
TEST(StreamingSinkTest, RawBoardsAreValidWithoutValidationOrCacheEntry) {
  for (const std::string& kind : BuiltinCompilers().Kinds()) {
    const bool raw = kind == "qubo" || kind == "maxcut";
    EXPECT_EQ((*BuiltinCompilers().ForKind(kind))->EveryBoardValid(), raw)
        << kind;
  }

  v1::PuzzleSpec spec;
  v1::MaxCutPuzzle& graph = *spec.mutable_maxcut();
  graph.set_num_nodes(3);
  for (auto [u, v] : {std::pair{0, 1}, {1, 2}}) {
    graph.add_u(u);
    graph.add_v(v);
    graph.add_w(1);
  }
  const PuzzleCompiler* compiler = *BuiltinCompilers().ForSpec(spec);
  auto problem = compiler->Compile(spec, v1::CompileOptions());
  ASSERT_TRUE(problem.ok()) << problem.status();
  const size_t cached = problem->derived.size();
  std::vector<v1::SampleEvent> events;
  const StreamingSink::EventFn emit = [&](v1::SolveResponse&& response) {
    if (response.has_sample()) events.push_back(response.sample());
  };
  Interrupter interrupter;
  v1::SolveParams params;
  StreamingSink sink(*compiler, spec, *problem, params, 2, interrupter, emit,
                     absl::Hours(1));
  sink.OnSample({{0, 1, 0}, -2, 0, 1});
  sink.OnSample({{0, 0, 0}, 0, 1, 1});
  ASSERT_EQ(events.size(), 2u);
  for (const v1::SampleEvent& e : events) {
    EXPECT_TRUE(e.valid());
    EXPECT_EQ(e.violations_size(), 0);
    EXPECT_EQ(e.solution().rows_size(), 1);
  }
  EXPECT_EQ(problem->derived.size(), cached);
  EXPECT_EQ(events[0].solution().rows(0), "010");
  EXPECT_EQ(std::vector<int>(events[0].solution().cells().begin(),
                             events[0].solution().cells().end()),
            (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(events[0].bits(), std::string(1, '\x02'));
  EXPECT_EQ(sink.valid(), 2u);
  EXPECT_EQ(sink.best().energy(), -2);
}

// Packed bits: bit v % 8 of byte v / 8, the last byte padded with zeros.
TEST(StreamingSinkTest, PackedBitsRoundTrip) {
  std::vector<uint8_t> bits(19);
  for (size_t v = 0; v < bits.size(); ++v) bits[v] = (v % 3 == 0) ? 1 : 0;
  const std::string packed = PackBits(bits);
  EXPECT_EQ(packed, std::string("\x49\x92\x04", 3));
  auto back = UnpackBits(packed, static_cast<int>(bits.size()));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, bits);
}

}  // namespace
}  // namespace qs
