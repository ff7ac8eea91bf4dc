// Topology generators of docs/dwave-protocol.md §3.2 and the HardwareGraph
// container.
#include "core/sample/dwave/hardware_graph.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"

namespace qs::dwave {

absl::StatusOr<HardwareGraph> HardwareGraph::Create(
    std::vector<int> qubits, std::vector<std::pair<int, int>> couplers,
    int num_qubits) {
  HardwareGraph g;
  std::sort(qubits.begin(), qubits.end());
  qubits.erase(std::unique(qubits.begin(), qubits.end()), qubits.end());
  for (auto& [a, b] : couplers) {
    if (a > b) std::swap(a, b);
  }
  std::sort(couplers.begin(), couplers.end());
  couplers.erase(std::unique(couplers.begin(), couplers.end()), couplers.end());
  g.qubits_ = std::move(qubits);
  g.couplers_ = std::move(couplers);
  for (int i = 0; i < g.size(); ++i) {
    if (g.qubits_[i] < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("qubit label ", g.qubits_[i], " < 0"));
    g.index_of_[g.qubits_[i]] = i;
  }
  g.num_qubits_ =
      std::max(num_qubits, g.qubits_.empty() ? 0 : g.qubits_.back() + 1);
  g.adjacency_.resize(g.qubits_.size());
  for (const auto& [a, b] : g.couplers_) {
    const int ia = g.IndexOf(a), ib = g.IndexOf(b);
    if (a == b)
      return absl::InvalidArgumentError(
          absl::StrCat("coupler [", a, ",", b, "] is a self loop"));
    if (ia < 0 || ib < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("coupler [", a, ",", b, "] uses qubit ", ia < 0 ? a : b,
                       " which is not working"));
    }
    g.adjacency_[ia].push_back(ib);
    g.adjacency_[ib].push_back(ia);
  }
  for (auto& row : g.adjacency_) std::sort(row.begin(), row.end());
  return g;
}

int HardwareGraph::IndexOf(int label) const {
  auto it = index_of_.find(label);
  return it == index_of_.end() ? -1 : it->second;
}

bool HardwareGraph::HasEdge(int a_index, int b_index) const {
  const auto& row = adjacency_[a_index];
  return std::binary_search(row.begin(), row.end(), b_index);
}

namespace {

HardwareGraph MustCreate(std::vector<int> qubits,
                         std::vector<std::pair<int, int>> couplers,
                         int num_qubits) {
  auto g =
      HardwareGraph::Create(std::move(qubits), std::move(couplers), num_qubits);
  if (!g.ok()) {
    std::fprintf(stderr, "generated graph is inconsistent: %s\n",
                 std::string(g.status().message()).c_str());
    std::abort();
  }
  return *std::move(g);
}

}  // namespace

HardwareGraph ChimeraGraph(int m, int n, int t) {
  auto label = [&](int i, int j, int u, int k) {
    return ((i * n + j) * 2 + u) * t + k;
  };
  std::vector<int> qubits;
  std::vector<std::pair<int, int>> couplers;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int u = 0; u < 2; ++u) {
        for (int k = 0; k < t; ++k) qubits.push_back(label(i, j, u, k));
      }
      for (int a = 0; a < t; ++a) {
        for (int b = 0; b < t; ++b)
          couplers.emplace_back(label(i, j, 0, a), label(i, j, 1, b));
        if (i + 1 < m)
          couplers.emplace_back(label(i, j, 0, a), label(i + 1, j, 0, a));
        if (j + 1 < n)
          couplers.emplace_back(label(i, j, 1, a), label(i, j + 1, 1, a));
      }
    }
  }
  return MustCreate(std::move(qubits), std::move(couplers), m * n * 2 * t);
}

HardwareGraph PegasusGraph(int m) {
  static constexpr int kS0[12] = {2, 2, 2, 2, 10, 10, 10, 10, 6, 6, 6, 6};
  static constexpr int kS1[12] = {6, 6, 6, 6, 2, 2, 2, 2, 10, 10, 10, 10};
  auto label = [&](int u, int w, int k, int z) {
    return ((u * m + w) * 12 + k) * (m - 1) + z;
  };
  auto in_fabric = [&](int w, int k) {
    return !((w == 0 && k < 2) || (w == m - 1 && k >= 10));
  };
  std::vector<int> qubits;
  std::vector<std::pair<int, int>> couplers;
  for (int u = 0; u < 2; ++u) {
    for (int w = 0; w < m; ++w) {
      for (int k = 0; k < 12; ++k) {
        if (!in_fabric(w, k)) continue;
        for (int z = 0; z < m - 1; ++z) {
          qubits.push_back(label(u, w, k, z));
          if (z + 1 < m - 1)
            couplers.emplace_back(label(u, w, k, z), label(u, w, k, z + 1));
          if (k % 2 == 0 && in_fabric(w, k + 1))
            couplers.emplace_back(label(u, w, k, z), label(u, w, k + 1, z));
        }
      }
    }
  }
  // Internal couplers between a vertical qubit (0, w, k, z) and the horizontal
  // qubits it crosses.
  for (int w = 0; w < m; ++w) {
    for (int k = 0; k < 12; ++k) {
      if (!in_fabric(w, k)) continue;
      for (int z = 0; z < m - 1; ++z) {
        for (int k2 = 0; k2 < 12; ++k2) {
          const int w2 = z + (k2 < kS0[k] ? 1 : 0);
          const int z2 = w - (k < kS1[k2] ? 1 : 0);
          if (z2 < 0 || z2 >= m - 1 || w2 < 0 || w2 >= m || !in_fabric(w2, k2))
            continue;
          couplers.emplace_back(label(0, w, k, z), label(1, w2, k2, z2));
        }
      }
    }
  }
  return MustCreate(std::move(qubits), std::move(couplers), 24 * m * (m - 1));
}

HardwareGraph ZephyrGraph(int m, int t) {
  const int width = 2 * m + 1;
  auto label = [&](int u, int w, int k, int j, int z) {
    return (((u * width + w) * t + k) * 2 + j) * m + z;
  };
  std::vector<int> qubits;
  std::vector<std::pair<int, int>> couplers;
  for (int u = 0; u < 2; ++u) {
    for (int w = 0; w < width; ++w) {
      for (int k = 0; k < t; ++k) {
        for (int j = 0; j < 2; ++j) {
          for (int z = 0; z < m; ++z) {
            qubits.push_back(label(u, w, k, j, z));
            if (z + 1 < m)
              couplers.emplace_back(label(u, w, k, j, z),
                                    label(u, w, k, j, z + 1));
          }
        }
        for (int z = 0; z < m; ++z) {
          couplers.emplace_back(label(u, w, k, 0, z), label(u, w, k, 1, z));
          if (z >= 1)
            couplers.emplace_back(label(u, w, k, 0, z),
                                  label(u, w, k, 1, z - 1));
        }
      }
    }
  }
  for (int w = 0; w < m; ++w) {
    for (int z = 0; z < m; ++z) {
      for (int k = 0; k < t; ++k) {
        for (int h = 0; h < t; ++h) {
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
              for (int a = 0; a < 2; ++a) {
                for (int b = 0; b < 2; ++b) {
                  couplers.emplace_back(
                      label(0, 2 * w + 1 + a * (2 * i - 1), k, j, z),
                      label(1, 2 * z + 1 + b * (2 * j - 1), h, i, w));
                }
              }
            }
          }
        }
      }
    }
  }
  return MustCreate(std::move(qubits), std::move(couplers), 4 * t * m * width);
}

HardwareGraph CliqueGraph(const std::vector<int>& labels, int num_qubits) {
  std::vector<std::pair<int, int>> couplers;
  for (size_t a = 0; a < labels.size(); ++a) {
    for (size_t b = a + 1; b < labels.size(); ++b)
      couplers.emplace_back(labels[a], labels[b]);
  }
  return MustCreate(labels, std::move(couplers), num_qubits);
}

HardwareGraph RemoveDefects(const HardwareGraph& graph, uint64_t seed,
                            double qubit_fraction, double coupler_fraction) {
  Xoshiro256 rng(seed);
  std::vector<int> qubits;
  absl::flat_hash_map<int, bool> kept;
  for (int q : graph.qubits()) {
    const bool keep = rng.NextDouble() >= qubit_fraction;
    kept[q] = keep;
    if (keep) qubits.push_back(q);
  }
  std::vector<std::pair<int, int>> couplers;
  for (const auto& [a, b] : graph.couplers()) {
    if (!kept[a] || !kept[b]) continue;
    if (rng.NextDouble() < coupler_fraction) continue;
    couplers.emplace_back(a, b);
  }
  return MustCreate(std::move(qubits), std::move(couplers), graph.num_qubits());
}

std::string GraphId(const HardwareGraph& graph) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the little-endian bytes of
                                       // every label
  auto mix = [&h](int v) {
    for (int b = 0; b < 4; ++b) {
      h ^= static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * b));
      h *= 0x100000001b3ULL;
    }
  };
  mix(graph.num_qubits());
  for (int q : graph.qubits()) mix(q);
  mix(-1);
  for (const auto& [a, b] : graph.couplers()) {
    mix(a);
    mix(b);
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(h));
  return std::string(buf, 10);
}

absl::StatusOr<HardwareGraph> GraphForTopology(absl::string_view type,
                                               const std::vector<int>& shape) {
  auto bad = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat("topology ", type, " with shape of ", shape.size(),
                     " numbers is not supported"));
  };
  if (type == "pegasus") {
    if (shape.size() != 1 || shape[0] < 2 || shape[0] > 64) return bad();
    return PegasusGraph(shape[0]);
  }
  if (type == "zephyr") {
    if (shape.size() != 2 || shape[0] < 1 || shape[0] > 64 || shape[1] < 1 ||
        shape[1] > 16)
      return bad();
    return ZephyrGraph(shape[0], shape[1]);
  }
  if (type == "chimera") {
    if (shape.size() != 3 || shape[0] < 1 || shape[1] < 1 || shape[2] < 1 ||
        shape[0] > 64 || shape[1] > 64 || shape[2] > 16) {
      return bad();
    }
    return ChimeraGraph(shape[0], shape[1], shape[2]);
  }
  return bad();
}

}  // namespace qs::dwave
