// Random bqp-like QUBOs and G-set-like random and toroidal graphs (see the
// header).
#include "formats/instance_generators.h"

#include <algorithm>
#include <utility>
#include <vector>

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

v1::PuzzleSpec RandomRegularGraph(uint32_t n, uint32_t degree,
                                  bool signed_weights, uint64_t seed) {
  SplitMix64 rng(seed);
  v1::PuzzleSpec spec;
  v1::MaxCutPuzzle* graph = spec.mutable_maxcut();
  graph->set_num_nodes(n);
  if (degree == 0 || degree >= n || (uint64_t{n} * degree) % 2 != 0) {
    return spec;  // no such graph: the nodes alone
  }
  const uint64_t points = uint64_t{n} * degree;
  std::vector<uint32_t> open(points);      // half-edges not yet paired
  std::vector<uint32_t> adjacent(points);  // node v's neighbours at v * degree
  std::vector<uint32_t> filled(n);
  auto linked = [&](uint32_t a, uint32_t b) {
    for (uint32_t k = 0; k < filled[a]; ++k) {
      if (adjacent[uint64_t{a} * degree + k] == b) return true;
    }
    return false;
  };
  for (;;) {
    for (uint64_t p = 0; p < points; ++p)
      open[p] = static_cast<uint32_t>(p / degree);
    std::fill(filled.begin(), filled.end(), 0);
    uint64_t left = points;
    bool stuck = false;
    while (left > 0 && !stuck) {
      // A bounded number of draws; near the end no valid pair may be left.
      int tries = 0;
      for (;; ++tries) {
        if (tries == 200) {
          stuck = true;
          break;
        }
        const uint64_t x = rng.Next() % left, y = rng.Next() % left;
        const uint32_t a = open[x], b = open[y];
        if (x == y || a == b || linked(a, b)) continue;
        adjacent[uint64_t{a} * degree + filled[a]++] = b;
        adjacent[uint64_t{b} * degree + filled[b]++] = a;
        // Drop both points: the higher index first keeps the other valid.
        const uint64_t hi = std::max(x, y), lo = std::min(x, y);
        open[hi] = open[--left];
        open[lo] = open[--left];
        break;
      }
    }
    if (!stuck) break;
  }
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t k = 0; k < degree; ++k) {
      const uint32_t b = adjacent[uint64_t{a} * degree + k];
      if (b < a) continue;
      graph->add_u(a);
      graph->add_v(b);
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
  graph->mutable_u()->Reserve(2 * rows * cols);
  graph->mutable_v()->Reserve(2 * rows * cols);
  graph->mutable_w()->Reserve(2 * rows * cols);
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
