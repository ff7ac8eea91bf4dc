// The implication network of a posiform and its persistencies.
#include "core/preprocess/roof_duality.h"

#include <cmath>

#include "core/preprocess/max_flow.h"

namespace qs {
namespace {

constexpr int kMaxBinaryExponent = 40;
constexpr int kMaxDecimalExponent = 9;
// Total capacity stays below this so that no flow sum overflows.
constexpr double kMaxTotal = 4.0e18;

// Whether every coefficient times `factor` is an integer (within `slack`:
// zero for powers of two, where the product is exact) and the capacities fit.
bool Scales(const Qubo& model, double factor, double slack) {
  double total = 0;
  auto fits = [&](double w) {
    const double s = w * factor;
    total += 2 * std::fabs(s);
    return std::fabs(s - std::nearbyint(s)) <= slack;
  };
  for (double a : model.linear_terms()) {
    if (!fits(a)) return false;
  }
  for (const Neighbor& nb : model.adjacency()) {
    if (!fits(nb.w)) return false;
  }
  return total <= kMaxTotal;
}

// The factor that makes every coefficient an integer: the smallest power of
// two, else the smallest power of ten for weights written with a few decimals
// (0.1 has no exact binary form; the network is then that of the decimal
// model the weights stand for). 0 when there is none.
double IntegerScale(const Qubo& model) {
  for (int k = 0; k <= kMaxBinaryExponent; ++k) {
    if (Scales(model, std::ldexp(1.0, k), 0)) return std::ldexp(1.0, k);
  }
  double factor = 1;
  for (int k = 1; k <= kMaxDecimalExponent; ++k) {
    factor *= 10;
    if (Scales(model, factor, 1e-6)) return factor;
  }
  return 0;
}

// Literal nodes: 2v for x_v and 2v + 1 for its complement, with v = 0 the
// constant 1 (x_0, the source; its complement the sink) and v = i + 1 for
// variable i.
int Literal(int variable, bool negated) {
  return 2 * (variable + 1) + (negated ? 1 : 0);
}
constexpr int kSource = 0;
constexpr int kSink = 1;

// The network of the posiform phi = constant + sum c * u * w over literals
// (u, w; x_0 = 1 stands in for linear terms). Each term gives the arcs u ->
// not w and w -> not u, each of capacity c (twice the textbook c / 2, so
// every flow is doubled too). Arcs are added in mirror pairs 2k, 2k + 1.
struct Network {
  MaxFlow flow;
  int64_t constant = 0;  // of the posiform, scaled
};

void AddTerm(int u, int w, int64_t c, MaxFlow& flow) {
  flow.AddArc(u, w ^ 1, c);
  flow.AddArc(w, u ^ 1, c);
}

Network BuildNetwork(const Qubo& model, double scale) {
  const int n = model.num_variables();
  Network net{MaxFlow(2 * n + 2)};
  auto scaled = [scale](double w) {
    return static_cast<int64_t>(std::llround(w * scale));
  };
  std::vector<int64_t> linear(n);
  for (int i = 0; i < n; ++i) linear[i] = scaled(model.linear(i));
  for (int i = 0; i < n; ++i) {
    for (const Neighbor& nb : model.neighbors(i)) {
      if (nb.j <= i) continue;
      const int64_t b = scaled(nb.w);
      if (b > 0) {
        AddTerm(Literal(i, false), Literal(nb.j, false), b, net.flow);
      } else if (b < 0) {
        // b x_i x_j = b x_i + |b| x_i (1 - x_j).
        AddTerm(Literal(i, false), Literal(nb.j, true), -b, net.flow);
        linear[i] += b;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (linear[i] > 0) {
      AddTerm(Literal(i, false), kSource, linear[i], net.flow);
    } else if (linear[i] < 0) {
      // a x_i = a + |a| (1 - x_i).
      net.constant += linear[i];
      AddTerm(Literal(i, true), kSource, -linear[i], net.flow);
    }
  }
  return net;
}

// Nodes reachable from the source in the residual network of the symmetrised
// flow g_e = f_e + f_mirror(e) on capacities 2 c_e: a maximum flow whose
// residual network is skew-symmetric, so that a literal and its complement are
// never both reached.
std::vector<bool> ReachableFromSource(const MaxFlow& flow) {
  const int arcs = flow.num_arcs();
  std::vector<std::vector<int>> out(flow.num_nodes());
  for (int e = 0; e < arcs; ++e) {
    const int64_t g = flow.flow(e) + flow.flow(e ^ 1);
    if (g < 2 * flow.capacity(e)) out[flow.from(e)].push_back(flow.to(e));
    if (g > 0) out[flow.to(e)].push_back(flow.from(e));
  }
  std::vector<bool> seen(flow.num_nodes(), false);
  std::vector<int> stack = {kSource};
  seen[kSource] = true;
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    for (int v : out[u]) {
      if (!seen[v]) {
        seen[v] = true;
        stack.push_back(v);
      }
    }
  }
  return seen;
}

}  // namespace

RoofDualityResult RoofDuality(const Qubo& model) {
  const int n = model.num_variables();
  RoofDualityResult result;
  result.fixed.assign(n, -1);
  const double scale = IntegerScale(model);
  if (scale == 0) return result;
  Network net = BuildNetwork(model, scale);
  const int64_t twice_flow = net.flow.Solve(kSource, kSink);
  result.lower_bound = model.offset() + (static_cast<double>(net.constant) +
                                         static_cast<double>(twice_flow) / 2) /
                                            scale;
  const std::vector<bool> reached = ReachableFromSource(net.flow);
  for (int i = 0; i < n; ++i) {
    const bool one = reached[Literal(i, false)];
    const bool zero = reached[Literal(i, true)];
    if (one != zero) result.fixed[i] = one ? 1 : 0;
  }
  return result;
}

}  // namespace qs
