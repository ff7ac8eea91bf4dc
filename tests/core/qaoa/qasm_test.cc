// The exported OpenQASM 2 and 3 circuits run through a small interpreter of
// their own gates (h, rz, rx, cx) on the reference statevector give the
// simulator's <C>; OpenQASM 2 uses only qelib1.inc gates; counts and depth
// match the text; Compile returns the circuit on request.
#include "core/qaoa/qasm.h"

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/backend/registry.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/qaoa/statevector.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gtest/gtest.h"
#include "tests/core/qaoa/qaoa_reference.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::BitsOf;
using ::qs::testing::ReferenceState;

// What the interpreter ran.
struct Interpreted {
  double expectation = 0;
  std::set<std::string> gates;
  uint64_t single = 0, two = 0;
  int qubits = 0;
  bool measured = false;
};

int QubitIndex(absl::string_view operand) {
  operand = absl::StripAsciiWhitespace(operand);
  EXPECT_TRUE(absl::ConsumePrefix(&operand, "q["));
  EXPECT_TRUE(absl::ConsumeSuffix(&operand, "]"));
  int k = -1;
  EXPECT_TRUE(absl::SimpleAtoi(operand, &k)) << operand;
  return k;
}

// Runs the statements of `qasm` one by one; energy(z) scores basis states.
Interpreted Interpret(const std::string& qasm, int version,
                      const std::function<double(uint64_t)>& energy) {
  Interpreted out;
  std::unique_ptr<ReferenceState> state;
  for (absl::string_view line : absl::StrSplit(qasm, '\n')) {
    line = absl::StripAsciiWhitespace(line.substr(0, line.find("//")));
    if (line.empty()) continue;
    EXPECT_TRUE(absl::ConsumeSuffix(&line, ";")) << line;
    if (absl::StartsWith(line, "OPENQASM")) {
      EXPECT_EQ(line, version == 2 ? "OPENQASM 2.0" : "OPENQASM 3.0");
      continue;
    }
    if (absl::StartsWith(line, "include")) {
      EXPECT_EQ(line, version == 2 ? "include \"qelib1.inc\""
                                   : "include \"stdgates.inc\"");
      continue;
    }
    if (absl::ConsumePrefix(&line, version == 2 ? "qreg q[" : "qubit[")) {
      EXPECT_TRUE(
          absl::SimpleAtoi(line.substr(0, line.find(']')), &out.qubits));
      state = std::make_unique<ReferenceState>(out.qubits);
      continue;
    }
    if (absl::StartsWith(line, version == 2 ? "creg" : "bit[")) continue;
    if (line == (version == 2 ? "measure q -> c" : "c = measure q")) {
      out.measured = true;
      continue;
    }
    EXPECT_FALSE(out.measured) << "gate after the measurement: " << line;
    // gate[(angle)] operands
    const size_t space = line.find(' ');
    std::string head(line.substr(0, space));
    const absl::string_view operands = line.substr(space + 1);
    double angle = 0;
    if (const size_t paren = head.find('('); paren != std::string::npos) {
      EXPECT_TRUE(absl::SimpleAtod(
          head.substr(paren + 1, head.size() - paren - 2), &angle));
      head = head.substr(0, paren);
    }
    out.gates.insert(head);
    std::vector<absl::string_view> qubits = absl::StrSplit(operands, ',');
    if (head == "cx") {
      EXPECT_EQ(qubits.size(), 2u);
      state->Cx(QubitIndex(qubits[0]), QubitIndex(qubits[1]));
      ++out.two;
      continue;
    }
    EXPECT_EQ(qubits.size(), 1u) << line;
    const int q = QubitIndex(qubits[0]);
    ++out.single;
    if (head == "h") {
      state->H(q);
    } else if (head == "rz") {
      state->Rz(angle, q);
    } else if (head == "rx") {
      state->Rx(angle, q);
    } else {
      ADD_FAILURE() << "unknown gate " << line;
    }
  }
  if (state != nullptr) out.expectation = state->Expectation(energy);
  return out;
}

Hubo RandomHubo(int n, uint64_t seed) {
  Xoshiro256 rng(seed);
  Hubo h;
  h.num_variables = n;
  h.offset = 2;
  for (int t = 0; t < 2 * n; ++t) {
    HuboTerm term;
    for (int v = 0; v < n; ++v)
      if (rng.NextBelow(3) == 0) term.variables.push_back(v);
    term.w = rng.NextDouble() * 2 - 1;
    h.terms.push_back(term);
  }
  return h;
}

double SimulatedExpectation(const PhasePolynomial& cost,
                            const QaoaAngles& angles) {
  auto sim = QaoaStatevector::Create(cost, {}, nullptr);
  EXPECT_OK(sim.status());
  EXPECT_TRUE((*sim)->Run(angles.gammas, angles.betas, nullptr));
  return (*sim)->Expectation();
}

TEST(QaoaQasmTest,
     RoundTripThroughTheInterpreterGivesTheSimulatorsExpectation) {
  for (int version : {2, 3}) {
    const Hubo h = RandomHubo(8, 3);
    auto cost = PhasePolynomialFromHubo(h);
    ASSERT_OK(cost.status());
    const QaoaAngles angles{{0.3, -0.2, 0.45}, {0.7, 0.1, 0.33}};
    const QaoaCircuit circuit = QaoaQasm(*cost, angles, version);
    const Interpreted run = Interpret(circuit.qasm, version, [&](uint64_t z) {
      return h.Energy(BitsOf(z, 8));
    });
    EXPECT_EQ(run.qubits, 8);
    EXPECT_TRUE(run.measured);
    EXPECT_NEAR(run.expectation, SimulatedExpectation(*cost, angles), 1e-9)
        << version;
    EXPECT_EQ(run.single, circuit.single_qubit_gates);
    EXPECT_EQ(run.two, circuit.two_qubit_gates);
    // qelib1.inc and stdgates.inc both define these.
    EXPECT_EQ(run.gates, (std::set<std::string>{"cx", "h", "rx", "rz"}));
    EXPECT_EQ(circuit.layers, 3);
  }
}

TEST(QaoaQasmTest, CountsAndDepthOfATwoQubitModel) {
  QuboBuilder b(2);
  b.AddLinear(0, 1);
  b.AddQuadratic(0, 1, 2);
  auto cost = PhasePolynomialFromQubo(*std::move(b).Build());
  ASSERT_OK(cost.status());
  // Terms Z0, Z1, Z0Z1: per layer 2 rz + (cx rz cx) + 2 rx.
  const QaoaCircuit c = QaoaQasm(*cost, LinearRamp(2, *cost), 3);
  EXPECT_EQ(c.single_qubit_gates, 2u + 2 * (3 + 2));
  EXPECT_EQ(c.two_qubit_gates, 2u * 2);
  // h; rz q0 | rz q1; cx; rz; cx; rx: 1 + 1 + 3 + 1 per layer after h.
  EXPECT_EQ(c.depth, 1u + 2 * 5);
}

TEST(QaoaQasmTest, CompileReturnsTheCircuitOfTheReducedModel) {
  WorkerPool pool(1);
  BackendRegistry backends;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_OK(RegisterBuiltinBackends(backends, options));
  SolveEngine engine(&BuiltinCompilers(), &backends, SolveLimits());
  v1::CompileRequest request;
  v1::QuboModel& q = *request.mutable_puzzle()->mutable_qubo();
  q.set_num_variables(3);
  for (auto [i, j, w] : {std::tuple{0, 0, -1.0}, {0, 1, 2.0}, {1, 2, -0.5}}) {
    q.add_i(i);
    q.add_j(j);
    q.add_w(w);
  }
  request.mutable_options()->mutable_qaoa_circuit()->set_qasm_version(2);
  request.mutable_options()->mutable_qaoa_circuit()->set_layers(4);
  auto response = engine.Compile(request);
  ASSERT_OK(response.status());
  EXPECT_TRUE(absl::StartsWith(response->qasm(), "OPENQASM 2.0;"));
  EXPECT_EQ(response->stats().qaoa_qubits(), 3u);
  EXPECT_EQ(response->stats().qaoa_layers(), 4u);
  EXPECT_GT(response->stats().qaoa_depth(), 4u);
  EXPECT_EQ(response->stats().qaoa_two_qubit_gates(), 4u * 2 * 2);

  request.mutable_options()->mutable_qaoa_circuit()->set_qasm_version(4);
  EXPECT_THAT(engine.Compile(request).status(),
              ::qs::testing::StatusIs(
                  absl::StatusCode::kInvalidArgument,
                  ::testing::HasSubstr("options.qaoa_circuit.qasm_version")));
  request.mutable_options()->mutable_qaoa_circuit()->set_qasm_version(3);
  request.mutable_options()->mutable_qaoa_circuit()->add_gammas(0.1);
  EXPECT_THAT(engine.Compile(request).status(),
              ::qs::testing::StatusIs(
                  absl::StatusCode::kInvalidArgument,
                  ::testing::HasSubstr("options.qaoa_circuit.betas")));
}

}  // namespace
}  // namespace qs
