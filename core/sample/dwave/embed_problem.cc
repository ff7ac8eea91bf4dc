// Chain strength, bias spreading and majority-vote unembedding
// (docs/dwave-protocol.md §3.6).
#include "core/sample/dwave/embed_problem.h"

#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace qs::dwave {

double UniformTorqueCompensation(const IsingModel& logical, double prefactor) {
  if (logical.couplings.empty() || logical.num_variables == 0) return 1.0;
  double sum_squares = 0;
  for (const QuboTerm& t : logical.couplings) sum_squares += t.w * t.w;
  const double count = static_cast<double>(logical.couplings.size());
  const double rms = std::sqrt(sum_squares / count);
  const double average_degree = 2.0 * count / logical.num_variables;
  const double strength = prefactor * rms * std::sqrt(average_degree);
  return strength > 0 ? strength : 1.0;
}

ProblemGraph ProblemGraphOf(const Qubo& model) {
  ProblemGraph graph;
  graph.num_variables = model.num_variables();
  for (const QuboTerm& t : model.QuadraticTerms())
    graph.edges.emplace_back(t.i, t.j);
  return graph;
}

absl::StatusOr<EmbeddedProblem> EmbedIsing(const IsingModel& logical,
                                           const Embedding& embedding,
                                           const HardwareGraph& target,
                                           double chain_strength) {
  if (static_cast<int>(embedding.chains.size()) != logical.num_variables) {
    return absl::InvalidArgumentError(
        absl::StrCat("embedding has ", embedding.chains.size(), " chains for ",
                     logical.num_variables, " variables"));
  }
  EmbeddedProblem out;
  out.chain_strength = chain_strength;
  out.offset = logical.offset;
  absl::flat_hash_map<std::pair<int, int>, double> couplers;
  for (int v = 0; v < logical.num_variables; ++v) {
    const auto& chain = embedding.chains[v];
    const double share = logical.h[v] / static_cast<double>(chain.size());
    for (int q : chain) out.ising.linear[q] += share;
    for (size_t a = 0; a < chain.size(); ++a) {
      const int qa = target.IndexOf(chain[a]);
      for (size_t b = a + 1; b < chain.size(); ++b) {
        const int qb = target.IndexOf(chain[b]);
        if (qa >= 0 && qb >= 0 && target.HasEdge(qa, qb)) {
          couplers[std::minmax(chain[a], chain[b])] -= chain_strength;
          out.offset += chain_strength;
          ++out.chain_couplers;
        }
      }
    }
  }
  for (const QuboTerm& t : logical.couplings) {
    std::vector<std::pair<int, int>> between;
    for (int p : embedding.chains[t.i]) {
      const int qp = target.IndexOf(p);
      if (qp < 0) continue;
      for (int r : embedding.chains[t.j]) {
        const int qr = target.IndexOf(r);
        if (qr >= 0 && target.HasEdge(qp, qr))
          between.push_back(std::minmax(p, r));
      }
    }
    if (between.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no coupler between the chains of variables ", t.i, " and ", t.j));
    }
    const double share = t.w / static_cast<double>(between.size());
    for (const auto& edge : between) couplers[edge] += share;
  }
  for (const auto& [edge, bias] : couplers)
    out.ising.quadratic.push_back({edge, bias});
  std::sort(out.ising.quadratic.begin(), out.ising.quadratic.end());
  return out;
}

absl::StatusOr<ChainReader> ChainReader::Create(
    const Embedding& embedding, const std::vector<int>& active_variables) {
  absl::flat_hash_map<int, int> position;
  for (size_t i = 0; i < active_variables.size(); ++i)
    position[active_variables[i]] = static_cast<int>(i);
  ChainReader reader;
  for (size_t v = 0; v < embedding.chains.size(); ++v) {
    std::vector<int> positions;
    for (int q : embedding.chains[v]) {
      auto it = position.find(q);
      if (it == position.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("answer.active_variables lacks qubit ", q,
                         " of the chain of variable ", v));
      }
      positions.push_back(it->second);
    }
    reader.positions_.push_back(std::move(positions));
  }
  return reader;
}

std::vector<uint8_t> ChainReader::Read(std::span<const int8_t> physical,
                                       int* broken_chains) const {
  std::vector<uint8_t> bits(positions_.size());
  int broken = 0;
  for (size_t v = 0; v < positions_.size(); ++v) {
    int up = 0;
    for (int p : positions_[v]) up += physical[p] > 0 ? 1 : 0;
    const int size = static_cast<int>(positions_[v].size());
    if (up != 0 && up != size) ++broken;
    bits[v] = 2 * up >= size ? 1 : 0;
  }
  if (broken_chains != nullptr) *broken_chains = broken;
  return bits;
}

}  // namespace qs::dwave
