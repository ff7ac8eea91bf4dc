// The backends' conformance suite: every backend RegisterBuiltinBackends
// registers runs the same checks through the solve engine, chosen by its
// capabilities (core/backend/backend.h): the energies of the returned bits
// are the model's, small random models reach their brute-force ground energy,
// the same seed gives the same samples (deterministic backends), a cancel or
// a deadline stops a long job with CANCELLED / DEADLINE_EXCEEDED and a time
// limit ends it normally with the reads it cut, scored (interruptible ones),
// bad parameters are refused naming the field, the literal defaults its
// parameters' options state are the ones it uses, and too-large models are
// refused. A new backend joins by registering; the bad parameters it must
// refuse and the defaults it must keep come from its message's (qs.v1.param)
// options. The D-Wave backend runs against the in-process SAPI emulator.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/backend/param_schema.h"
#include "core/backend/registry.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

constexpr char kToken[] = "conformance-token";

// One registry of every backend, shared by the suite.
class Backends {
 public:
  static Backends& Get() {
    static Backends* const backends = new Backends();
    return *backends;
  }
  const SolveEngine& engine() const { return *engine_; }
  const BackendRegistry& registry() const { return registry_; }
  // The registered names, without starting the suite's emulator.
  static std::vector<std::string> Names() {
    WorkerPool pool(1);
    BackendRegistry registry;
    BackendOptions options;
    options.pool = &pool;
    EXPECT_TRUE(RegisterBuiltinBackends(registry, options).ok());
    std::vector<std::string> names;
    for (const Backend* b : registry.All()) names.emplace_back(b->name());
    return names;
  }

 private:
  Backends() : pool_(2) {
    sapi_emulator::Options emulator_options;
    emulator_options.tokens = {kToken};
    // Long enough that a cancel lands while the problem is queued.
    emulator_options.queue_delay = absl::Milliseconds(300);
    emulator_options.run_time = absl::Milliseconds(10);
    // Plain single-spin annealing: the chain-aware mode clusters the most
    // negative couplers, which on these small random models can be logical
    // couplers as strong as the chains, and then misses their ground states.
    emulator_options.chain_aware = false;
    emulator_ = std::make_unique<sapi_emulator::SapiEmulator>(emulator_options);
    EXPECT_TRUE(emulator_->Start().ok());
    BackendOptions options;
    options.pool = &pool_;
    options.dwave.emplace();
    options.dwave->endpoint = emulator_->endpoint();
    options.dwave->token = kToken;
    options.dwave->solver = "Advantage_emulator_P16";
    // The QAOA simulator up to 16 qubits (2^16 amplitudes), so that its long
    // jobs stay short and small.
    options.qaoa_max_memory_bytes = int64_t{26} << 16;
    EXPECT_TRUE(RegisterBuiltinBackends(registry_, options).ok());
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &registry_,
                                            SolveLimits());
  }

  WorkerPool pool_;
  std::unique_ptr<sapi_emulator::SapiEmulator> emulator_;
  BackendRegistry registry_;
  std::unique_ptr<SolveEngine> engine_;
};

// A random QUBO over n variables with integer weights in [-4, 4].
v1::PuzzleSpec RandomQubo(int n, uint64_t seed) {
  v1::PuzzleSpec spec;
  v1::QuboModel& q = *spec.mutable_qubo();
  q.set_num_variables(n);
  q.set_offset(1.5);
  Xoshiro256 rng(seed);
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j) {
      if (i != j && rng.Next() % 3 != 0) continue;
      q.add_i(i);
      q.add_j(j);
      q.add_w(static_cast<double>(static_cast<int>(rng.Next() % 9) - 4));
    }
  }
  return spec;
}

double BruteForceGround(const v1::QuboModel& q) {
  double best = std::numeric_limits<double>::infinity();
  const int n = static_cast<int>(q.num_variables());
  for (uint64_t x = 0; x < (uint64_t{1} << n); ++x) {
    double e = q.offset();
    for (int k = 0; k < q.i_size(); ++k) {
      if ((x >> q.i(k) & 1) && (x >> q.j(k) & 1)) e += q.w(k);
    }
    best = std::min(best, e);
  }
  return best;
}

// A 4x4 Sudoku with four givens: many solutions, all at the ground energy.
v1::PuzzleSpec SmallSudoku() {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(2);
  const int cells[16] = {1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2};
  for (int c : cells) spec.mutable_sudoku()->add_cells(c);
  return spec;
}

struct SolveRun {
  absl::Status status;
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
};

SolveRun Solve(const v1::SolveRequest& request, Interrupter& interrupter) {
  SolveRun run;
  run.status = Backends::Get().engine().Solve(
      request, interrupter, [&](v1::SolveResponse&& event) {
        if (event.has_sample()) run.samples.push_back(event.sample());
        if (event.has_summary()) run.summary = event.summary();
      });
  return run;
}

SolveRun Solve(const v1::SolveRequest& request) {
  Interrupter interrupter;
  return Solve(request, interrupter);
}

// Each read's bits and energy, by read index.
std::map<uint32_t, std::string> SamplesByRead(const SolveRun& run) {
  std::map<uint32_t, std::string> samples;
  for (const v1::SampleEvent& s : run.samples)
    samples[s.read_index()] = absl::StrCat(s.bits(), "/", s.energy());
  return samples;
}

class BackendConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Backend& backend() const {
    return **Backends::Get().registry().Get(GetParam(), "backend");
  }
  bool rules() const { return backend().capabilities().rules; }
  // A puzzle the backend takes: a random QUBO, or for a rules backend a
  // puzzle with rules.
  v1::SolveRequest Request(const v1::PuzzleSpec& qubo) const {
    v1::SolveRequest request;
    *request.mutable_puzzle() = rules() ? SmallSudoku() : qubo;
    request.mutable_params()->set_backend(GetParam());
    request.mutable_params()->set_num_reads(20);
    request.mutable_params()->set_num_sweeps(200);
    request.mutable_params()->set_seed(7);
    return request;
  }
  // A job long enough that a stop lands while it runs.
  v1::SolveRequest LongRequest() const {
    v1::SolveRequest request;
    v1::SolveParams& p = *request.mutable_params();
    p.set_backend(GetParam());
    p.set_seed(3);
    if (rules()) {
      // Every 9x9 Sudoku grid, one at a time.
      request.mutable_puzzle()->mutable_sudoku()->set_box_size(3);
      for (int c = 0; c < 81; ++c)
        request.mutable_puzzle()->mutable_sudoku()->add_cells(0);
      p.mutable_sat()->set_max_solutions(100000);
    } else {
      const int max = backend().capabilities().max_variables;
      *request.mutable_puzzle() =
          RandomQubo(max > 0 && max < 200 ? max : 200, 11);
      // Seconds of work for every sampler, within the server's attempts
      // budget also for pt's 64 replicas and sqa's slices.
      p.set_num_reads(2000);
      p.set_num_sweeps(20000);
    }
    return request;
  }
};

TEST_P(BackendConformanceTest, ReturnedBitsScoreTheModelsEnergy) {
  const v1::SolveRequest request = Request(RandomQubo(12, 1));
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  ASSERT_FALSE(run.samples.empty());
  auto compiler = *BuiltinCompilers().ForSpec(request.puzzle());
  v1::CompileOptions none;
  none.set_reduction(v1::REDUCTION_NONE);
  auto problem = compiler->Compile(request.puzzle(), none);
  ASSERT_TRUE(problem.ok());
  for (const v1::SampleEvent& sample : run.samples) {
    auto bits = UnpackBits(sample.bits(), sample.num_variables());
    ASSERT_TRUE(bits.ok());
    EXPECT_NEAR(problem->full_model.Energy(*bits), sample.energy(), 1e-9);
  }
  EXPECT_EQ(run.summary.backend().name(), GetParam());
  EXPECT_EQ(run.summary.reads_done(),
            std::accumulate(run.samples.begin(), run.samples.end(), 0u,
                            [](uint32_t sum, const v1::SampleEvent& s) {
                              return sum + s.num_occurrences();
                            }));
}

TEST_P(BackendConformanceTest, SmallRandomModelsReachTheirGroundEnergy) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const v1::PuzzleSpec spec = RandomQubo(10, seed);
    v1::SolveRequest request = Request(spec);
    request.mutable_params()->set_num_reads(100);
    request.mutable_params()->set_num_sweeps(1000);
    const SolveRun run = Solve(request);
    ASSERT_TRUE(run.status.ok()) << run.status;
    if (rules()) {
      // A rules backend's boards are valid, which is the ground energy.
      EXPECT_TRUE(run.summary.best_valid());
      EXPECT_NEAR(run.summary.best_energy(), run.summary.ground_energy(), 1e-9);
      return;
    }
    EXPECT_NEAR(run.summary.best_energy(), BruteForceGround(spec.qubo()), 1e-9)
        << "seed " << seed;
  }
}

TEST_P(BackendConformanceTest, TheSameSeedGivesTheSameSamples) {
  if (!backend().capabilities().deterministic)
    GTEST_SKIP() << "the backend is not seeded (not deterministic)";
  const int max = backend().capabilities().max_variables;
  const v1::SolveRequest request =
      Request(RandomQubo(max > 0 && max < 24 ? max : 24, 5));
  const auto first = SamplesByRead(Solve(request));
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(SamplesByRead(Solve(request)), first);
}

TEST_P(BackendConformanceTest, ACancelStopsALongJob) {
  if (!backend().capabilities().interruptible)
    GTEST_SKIP() << "the backend is not interruptible";
  Interrupter interrupter;
  std::thread stopper([&] {
    absl::SleepFor(absl::Milliseconds(30));
    interrupter.Interrupt(StopReason::kCancelled);
  });
  const SolveRun run = Solve(LongRequest(), interrupter);
  stopper.join();
  EXPECT_THAT(run.status, StatusIs(absl::StatusCode::kCancelled, ::testing::_));
}

TEST_P(BackendConformanceTest, ADeadlineStopsALongJob) {
  if (!backend().capabilities().interruptible)
    GTEST_SKIP() << "the backend is not interruptible";
  Interrupter interrupter;
  interrupter.SetDeadline(absl::Now() + absl::Milliseconds(30),
                          StopReason::kDeadline);
  const SolveRun run = Solve(LongRequest(), interrupter);
  EXPECT_THAT(run.status,
              StatusIs(absl::StatusCode::kDeadlineExceeded, ::testing::_));
}

// A time limit ends a long job normally, with what it got: every read the
// summary counts came back, scored with the model's energy of its bits, those
// the limit cut among them. A sampler that runs here on the model (not an
// exact or rules backend, which return only finished boards, nor a remote one
// whose job may still be queued) always has reads to return: those the limit
// cut short. The limit leaves time for a loaded machine to start the job.
TEST_P(BackendConformanceTest, ATimeLimitEndsALongJobNormally) {
  if (!backend().capabilities().interruptible)
    GTEST_SKIP() << "the backend is not interruptible";
  v1::SolveRequest request = LongRequest();
  request.mutable_params()->set_time_limit_seconds(0.3);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.termination(), v1::TIME_LIMIT);
  const BackendCapabilities can = backend().capabilities();
  if (!can.exact && !can.rules && !can.remote) {
    EXPECT_FALSE(run.samples.empty()) << "the cut reads did not come back";
  }
  EXPECT_EQ(run.summary.reads_done(),
            std::accumulate(run.samples.begin(), run.samples.end(), 0u,
                            [](uint32_t sum, const v1::SampleEvent& s) {
                              return sum + s.num_occurrences();
                            }));
  EXPECT_LE(run.summary.reads_cut_short(), run.summary.reads_done());
  auto compiler = *BuiltinCompilers().ForSpec(request.puzzle());
  v1::CompileOptions none;
  none.set_reduction(v1::REDUCTION_NONE);
  auto problem = compiler->Compile(request.puzzle(), none);
  ASSERT_TRUE(problem.ok()) << problem.status();
  for (const v1::SampleEvent& sample : run.samples) {
    auto bits = UnpackBits(sample.bits(), sample.num_variables());
    ASSERT_TRUE(bits.ok());
    EXPECT_NEAR(problem->full_model.Energy(*bits), sample.energy(), 1e-9)
        << "read " << sample.read_index();
  }
}

// Values each backend's parameter schema must refuse, derived from it: for
// every declared bound a value just past it, for every enum an undefined
// number. Each probe sets one field of params.<params_field> and names it.
struct ParamProbe {
  std::function<void(google::protobuf::Message&)> set;
  std::string field;
};

std::vector<ParamProbe> ProbesOf(const google::protobuf::Descriptor& type) {
  using google::protobuf::FieldDescriptor;
  std::vector<ParamProbe> probes;
  for (int k = 0; k < type.field_count(); ++k) {
    const FieldDescriptor* f = type.field(k);
    const v1::ParamOption* option = ParamOptionOf(*f);
    if (option == nullptr || f->is_repeated()) continue;
    const std::string name(f->name());
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
      probes.push_back(
          {[f](auto& m) { m.GetReflection()->SetEnumValue(&m, f, 99); }, name});
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
      if (option->has_min()) {
        const double v =
            option->min_exclusive() ? option->min() : option->min() - 1;
        if (v != 0 || f->has_presence()) {
          probes.push_back(
              {[f, v](auto& m) { m.GetReflection()->SetDouble(&m, f, v); },
               name});
        }
      }
      if (option->has_max()) {
        const double v = option->max() + 1;
        probes.push_back(
            {[f, v](auto& m) { m.GetReflection()->SetDouble(&m, f, v); },
             name});
      }
    } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32 &&
               option->has_max() && option->max() < 4e9) {
      const auto v = static_cast<uint32_t>(option->max() + 1);
      probes.push_back(
          {[f, v](auto& m) { m.GetReflection()->SetUInt32(&m, f, v); }, name});
    }
  }
  return probes;
}

TEST_P(BackendConformanceTest, BadParametersNameTheField) {
  v1::SolveRequest request = Request(RandomQubo(8, 2));
  request.mutable_params()->set_num_reads(0);
  EXPECT_THAT(Backends::Get().engine().CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.num_reads")));
  const std::string field(backend().params_field());
  if (field.empty()) return;
  const auto* message_field =
      v1::SolveParams::descriptor()->FindFieldByName(field);
  ASSERT_NE(message_field, nullptr) << "params." << field;
  const std::vector<ParamProbe> probes =
      ProbesOf(*message_field->message_type());
  ASSERT_FALSE(probes.empty())
      << "params." << field << " declares no bound or choice to refuse";
  for (const ParamProbe& probe : probes) {
    request = Request(RandomQubo(8, 2));
    probe.set(*request.mutable_params()->GetReflection()->MutableMessage(
        request.mutable_params(), message_field));
    const std::string named = absl::StrCat("params.", field, ".", probe.field);
    EXPECT_THAT(Backends::Get().engine().CheckSolveRequest(request),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(named)));
    if (&probe != &probes.front()) continue;
    Interrupter interrupter;
    EXPECT_THAT(Solve(request, interrupter).status,
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(named)));
  }
}

// Sets the number `value` (an enum's number, 1 for true) into `field`.
void SetLiteral(google::protobuf::Message& message,
                const google::protobuf::FieldDescriptor& field, double value) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection& r = *message.GetReflection();
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return r.SetInt32(&message, &field, static_cast<int32_t>(value));
    case FieldDescriptor::CPPTYPE_INT64:
      return r.SetInt64(&message, &field, static_cast<int64_t>(value));
    case FieldDescriptor::CPPTYPE_UINT32:
      return r.SetUInt32(&message, &field, static_cast<uint32_t>(value));
    case FieldDescriptor::CPPTYPE_UINT64:
      return r.SetUInt64(&message, &field, static_cast<uint64_t>(value));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return r.SetFloat(&message, &field, static_cast<float>(value));
    case FieldDescriptor::CPPTYPE_BOOL:
      return r.SetBool(&message, &field, value != 0);
    case FieldDescriptor::CPPTYPE_ENUM:
      return r.SetEnumValue(&message, &field, static_cast<int>(value));
    default:
      return r.SetDouble(&message, &field, value);
  }
}

// A default that a field's option states as a literal is the value the
// backend uses: set to it, the field gives the samples that leaving the whole
// message unset gives (deterministic backends; the other fields' defaults are
// rules, which the backend's own tests cover).
TEST_P(BackendConformanceTest, StatedDefaultsAreWhatTheBackendUses) {
  if (!backend().capabilities().deterministic)
    GTEST_SKIP() << "the backend is not seeded (not deterministic)";
  const std::string field(backend().params_field());
  if (field.empty()) GTEST_SKIP() << "the backend has no parameters";
  const auto* message_field =
      v1::SolveParams::descriptor()->FindFieldByName(field);
  ASSERT_NE(message_field, nullptr);
  const google::protobuf::Descriptor& type = *message_field->message_type();
  // A model and a budget on which the reads end in different states: where
  // every read reaches the ground state, a default the backend ignores
  // changes no sample and would pass unseen.
  const int max = backend().capabilities().max_variables;
  v1::SolveRequest unset =
      Request(RandomQubo(max > 0 && max < 200 ? max : 200, 6));
  unset.mutable_params()->set_num_sweeps(2);
  const SolveRun run = Solve(unset);
  const auto expected = SamplesByRead(run);
  ASSERT_FALSE(expected.empty());
  if (!rules()) {
    // The reads end at different energies, or (a population that resamples
    // to one state) one more sweep changes them: they stop short of where
    // their search would settle.
    std::set<double> energies;
    for (const v1::SampleEvent& s : run.samples) energies.insert(s.energy());
    v1::SolveRequest longer = unset;
    longer.mutable_params()->set_num_sweeps(3);
    ASSERT_TRUE(energies.size() >= 2 ||
                SamplesByRead(Solve(longer)) != expected)
        << "every read ends at one energy, whatever the budget";
  }
  for (int k = 0; k < type.field_count(); ++k) {
    const google::protobuf::FieldDescriptor& param = *type.field(k);
    const std::optional<double> literal = LiteralDefault(param);
    if (!literal || param.is_repeated()) continue;
    v1::SolveRequest request = unset;
    SetLiteral(*request.mutable_params()->GetReflection()->MutableMessage(
                   request.mutable_params(), message_field),
               param, *literal);
    EXPECT_EQ(SamplesByRead(Solve(request)), expected)
        << "params." << field << "." << param.name() << " set to its stated "
        << "default \"" << ParamOptionOf(param)->default_() << "\"";
  }
}

TEST_P(BackendConformanceTest, ModelsOverItsLimitAreRefused) {
  const int max = backend().capabilities().max_variables;
  if (rules() || max == 0 || max > 1000) GTEST_SKIP() << "no small limit";
  const SolveRun run = Solve(Request(RandomQubo(max + 1, 4)));
  EXPECT_THAT(run.status, StatusIs(absl::StatusCode::kResourceExhausted,
                                   HasSubstr(absl::StrCat(max))));
  EXPECT_TRUE(run.samples.empty());
}

// Binary-encoded 5-queens (15 variables, a higher-order model): a backend
// that takes such models returns bits scored by the Hubo, or else is refused
// naming params.backend; an exact one reaches the valid boards at energy 0.
TEST_P(BackendConformanceTest, HigherOrderModelsAreTakenOrRefused) {
  v1::SolveRequest request;
  request.mutable_puzzle()->mutable_queens()->set_rows(5);
  request.mutable_compile()->set_encoding(v1::ENCODING_BINARY);
  request.mutable_params()->set_backend(GetParam());
  request.mutable_params()->set_seed(5);
  request.mutable_params()->set_num_reads(10);
  const SolveRun run = Solve(request);
  if (!backend().capabilities().higher_order) {
    EXPECT_THAT(run.status, StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("params.backend")));
    return;
  }
  ASSERT_TRUE(run.status.ok()) << run.status;
  ASSERT_FALSE(run.samples.empty());
  auto compiler = *BuiltinCompilers().ForSpec(request.puzzle());
  auto problem = compiler->Compile(request.puzzle(), request.compile());
  ASSERT_TRUE(problem.ok() && problem->higher_order.has_value());
  for (const v1::SampleEvent& sample : run.samples) {
    auto bits = UnpackBits(sample.bits(), sample.num_variables());
    ASSERT_TRUE(bits.ok());
    EXPECT_EQ(problem->higher_order->Energy(*bits), sample.energy());
  }
  if (backend().capabilities().exact) {
    EXPECT_TRUE(run.summary.best_valid());
    EXPECT_EQ(run.summary.best_energy(), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, BackendConformanceTest,
                         ::testing::ValuesIn(Backends::Names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace qs
