// CnfBuilder: the ladder, sequential-counter and difference encodings of
// [Bryant 2019]'s chains, and unit propagation.
#include "core/exact/cnf.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace qs {
namespace {

// Lines this short get pairwise clauses: k(k-1)/2 <= 3k - 4 for k <= 4, with no
// auxiliary variable.
constexpr size_t kPairwiseAtMostOne = 4;

// Stand-ins for the constants of a counter's border (r_{i,0} is true, r_{i,j}
// with j > i is false) while its clauses are written.
constexpr int kTrue = 0x7fffffff;
constexpr int kFalse = -kTrue;

}  // namespace

EncodingStats Cnf::Stats() const {
  EncodingStats stats;
  stats.primary_variables = num_primary;
  stats.auxiliary_variables = num_variables - num_primary;
  stats.clauses = num_clauses;
  stats.literals = static_cast<int64_t>(literals.size()) - num_clauses;
  return stats;
}

CnfBuilder::CnfBuilder(int num_primary) {
  cnf_.num_primary = num_primary;
  cnf_.num_variables = num_primary;
}

int CnfBuilder::NewVariable() { return ++cnf_.num_variables; }

void CnfBuilder::AddClause(std::span<const int> literals) {
  // Constants from the counter's border: a true literal satisfies the clause,
  // a false one drops out.
  for (int lit : literals) {
    if (lit == kTrue) return;
  }
  for (int lit : literals) {
    if (lit != kFalse) cnf_.literals.push_back(lit);
  }
  cnf_.literals.push_back(0);
  ++cnf_.num_clauses;
}

void CnfBuilder::AddAtMostOne(std::span<const int> x) {
  const size_t k = x.size();
  if (k <= 1) return;
  if (k <= kPairwiseAtMostOne) {
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = i + 1; j < k; ++j) AddClause({-x[i], -x[j]});
    }
    return;
  }
  // s_i (i = 0..k-2): one of x_0..x_i holds.
  std::vector<int> s(k - 1);
  for (int& v : s) v = NewVariable();
  for (size_t i = 0; i + 1 < k; ++i) AddClause({-x[i], s[i]});
  for (size_t i = 1; i + 1 < k; ++i) AddClause({-s[i - 1], s[i]});
  for (size_t i = 1; i < k; ++i) AddClause({-x[i], -s[i - 1]});
}

void CnfBuilder::AddExactlyOne(std::span<const int> x) {
  AddClause(x);
  AddAtMostOne(x);
}

void CnfBuilder::AddCardinality(std::span<const int> x, int min, int max) {
  const int k = static_cast<int>(x.size());
  min = std::max(min, 0);
  if (min > k || min > max) {
    AddClause(std::span<const int>());
    return;
  }
  max = std::min(max, k);
  if (min == 0 && max == k) return;
  if (max == 0 || min == k) {
    for (int lit : x) AddUnit(max == 0 ? -lit : lit);
    return;
  }
  if (max == 1) {
    if (min == 1) {
      AddExactlyOne(x);
    } else {
      AddAtMostOne(x);
    }
    return;
  }
  if (min == 1 && max == k) {
    AddClause(x);
    return;
  }
  // Count the false literals instead when that needs a narrower register.
  const int width = max < k ? max + 1 : min;
  const int negated_width = min > 0 ? k - min + 1 : k - max;
  if (negated_width < width) {
    std::vector<int> negated(x.begin(), x.end());
    for (int& lit : negated) lit = -lit;
    AddCardinality(negated, k - max, k - min);
    return;
  }
  // Sequential counter: reg[i][j] = "at least j of x_0..x_i hold", j =
  // 1..min(i + 1, width), defined in both directions.
  std::vector<std::vector<int>> reg(k);
  auto r = [&](int i, int j) -> int {
    if (j == 0) return kTrue;
    if (i < 0 || j > i + 1 || j > width) return kFalse;
    return reg[i][j];
  };
  for (int i = 0; i < k; ++i) {
    reg[i].assign(std::min(i + 1, width) + 1, 0);
    for (int j = 1; j < static_cast<int>(reg[i].size()); ++j) {
      reg[i][j] = (i == 0) ? x[0] : NewVariable();
    }
    if (i == 0) continue;
    for (int j = 1; j < static_cast<int>(reg[i].size()); ++j) {
      const int here = r(i, j), above = r(i - 1, j), diag = r(i - 1, j - 1);
      AddClause({-above, here});        // r_{i-1,j} -> r_{i,j}
      AddClause({-x[i], -diag, here});  // x_i & r_{i-1,j-1} -> r_{i,j}
      AddClause({-here, above, x[i]});  // r_{i,j} -> r_{i-1,j} v x_i
      AddClause({-here, above, diag});  // r_{i,j} -> r_{i-1,j} v r_{i-1,j-1}
    }
  }
  if (max < k) AddUnit(-r(k - 1, max + 1));
  if (min >= 1) AddUnit(r(k - 1, min));
}

void CnfBuilder::AddDifferent(std::span<const int> a, std::span<const int> b) {
  std::vector<int> any;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const int d = NewVariable();
    AddClause({-d, a[i], b[i]});
    AddClause({-d, -a[i], -b[i]});
    any.push_back(d);
  }
  AddClause(any);
}

std::vector<int8_t> Propagate(const Cnf& cnf,
                              std::span<const int> assumptions) {
  const int n = cnf.num_variables;
  std::vector<int8_t> value(n, -1);
  // Literal index: 2 (v - 1) for +v, 2 (v - 1) + 1 for -v.
  auto index = [](int lit) { return 2 * (std::abs(lit) - 1) + (lit < 0); };
  std::vector<int> trail;
  trail.reserve(n);
  auto assign = [&](int lit) -> bool {
    const int v = std::abs(lit) - 1;
    const int8_t want = lit > 0 ? 1 : 0;
    if (value[v] >= 0) return value[v] == want;
    value[v] = want;
    trail.push_back(lit);
    return true;
  };
  auto is_false = [&](int lit) {
    const int8_t v = value[std::abs(lit) - 1];
    return v >= 0 && v != (lit > 0 ? 1 : 0);
  };

  // Clause starts; the two watched literals of a clause sit in its first two
  // positions, which are swapped in a private copy.
  std::vector<int> lits = cnf.literals;
  std::vector<size_t> starts;
  std::vector<std::vector<int>> watches(2 * static_cast<size_t>(n));
  for (size_t pos = 0; pos < lits.size();) {
    size_t end = pos;
    while (lits[end] != 0) ++end;
    const size_t length = end - pos;
    if (length == 0) return {};
    if (length == 1) {
      if (!assign(lits[pos])) return {};
    } else {
      const int c = static_cast<int>(starts.size());
      watches[index(lits[pos])].push_back(c);
      watches[index(lits[pos + 1])].push_back(c);
    }
    starts.push_back(pos);
    pos = end + 1;
  }
  for (int lit : assumptions) {
    if (!assign(lit)) return {};
  }
  for (size_t head = 0; head < trail.size(); ++head) {
    const int falsified = -trail[head];
    std::vector<int>& list = watches[index(falsified)];
    for (size_t w = 0; w < list.size();) {
      const size_t start = starts[list[w]];
      int* c = &lits[start];
      if (c[0] == falsified) std::swap(c[0], c[1]);
      // c[1] is the falsified watch; look for a replacement.
      bool moved = false;
      for (int* p = c + 2; *p != 0; ++p) {
        if (!is_false(*p)) {
          std::swap(c[1], *p);
          watches[index(c[1])].push_back(list[w]);
          list[w] = list.back();
          list.pop_back();
          moved = true;
          break;
        }
      }
      if (moved) continue;
      if (!assign(c[0])) return {};
      ++w;
    }
  }
  return value;
}

}  // namespace qs
