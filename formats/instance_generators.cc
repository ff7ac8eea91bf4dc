// Random bqp-like QUBOs and G-set-like random and toroidal graphs (see the
// header).
#include "formats/instance_generators.h"

#include <algorithm>

namespace qs::formats {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [lo, hi] (the modulo bias is below 2^-56 here).
  int64_t Integer(int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

}  // namespace

v1::QuboModel RandomBqp(uint32_t n, double density, uint64_t seed) {
  SplitMix64 rng(seed);
  v1::QuboModel model;
  model.set_num_variables(n);
  model.set_vartype(v1::BINARY);
  model.set_sense(v1::MAXIMIZE);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i; j < n; ++j) {
      if (rng.Uniform() >= density) continue;
      const int64_t q = rng.Integer(-100, 100);
      if (q == 0) continue;
      // The symmetric matrix counts an off-diagonal entry twice; stored
      // negated because the objective is maximised.
      model.add_i(i);
      model.add_j(j);
      model.add_w(-static_cast<double>(i == j ? q : 2 * q));
    }
  }
  return model;
}

v1::PuzzleSpec RandomGsetGraph(uint32_t n, double density, bool signed_weights,
                               uint64_t seed) {
  SplitMix64 rng(seed);
  v1::PuzzleSpec spec;
  v1::MaxCutPuzzle* graph = spec.mutable_maxcut();
  graph->set_num_nodes(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i + 1; j < n; ++j) {
      if (rng.Uniform() >= density) continue;
      graph->add_u(i);
      graph->add_v(j);
      graph->add_w(signed_weights && (rng.Next() & 1) ? -1.0 : 1.0);
    }
  }
  return spec;
}

v1::PuzzleSpec RandomToroidalGraph(uint32_t rows, uint32_t cols,
                                   bool signed_weights, uint64_t seed) {
  SplitMix64 rng(seed);
  v1::PuzzleSpec spec;
  v1::MaxCutPuzzle* graph = spec.mutable_maxcut();
  graph->set_num_nodes(rows * cols);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint32_t v = r * cols + c;
      for (uint32_t u :
           {r * cols + (c + 1) % cols, ((r + 1) % rows) * cols + c}) {
        graph->add_u(std::min(u, v));
        graph->add_v(std::max(u, v));
        graph->add_w(signed_weights && (rng.Next() & 1) ? -1.0 : 1.0);
      }
    }
  }
  return spec;
}

}  // namespace qs::formats
