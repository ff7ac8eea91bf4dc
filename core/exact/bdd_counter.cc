// BddBuilder: the constraints of a puzzle as one BuDDy BDD, conjoined bottom-up
// with the chains of [Bryant 2019], and its model count.
#include "core/exact/bdd_counter.h"

#include <bdd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"

namespace qs {
namespace {

// BuDDy's state is global; this lock serializes every use of it.
absl::Mutex& BuddyMutex() {
  static absl::Mutex* const mu = new absl::Mutex();
  return *mu;
}

// The first error BuDDy reported since the last check (guarded by BuddyMutex;
// BuDDy calls the hook on the thread that holds it).
int buddy_error = 0;

void RecordBuddyError(int code) {
  if (buddy_error == 0) buddy_error = code;
}

// Starts BuDDy once per process. The table starts small and grows by doubling
// up to kMaxBddNodes.
void EnsureBuddy() ABSL_EXCLUSIVE_LOCKS_REQUIRED(BuddyMutex()) {
  if (bdd_isrunning()) return;
  bdd_init(1 << 20, 1 << 18);
  bdd_error_hook(&RecordBuddyError);
  bdd_gbc_hook(nullptr);     // no garbage-collection messages on stdout
  bdd_resize_hook(nullptr);  // no resize messages either
  bdd_setmaxnodenum(kMaxBddNodes);
  bdd_setmaxincrease(1 << 20);
  bdd_setcacheratio(4);
}

// The BDD operations of one count, counted as [Bryant 2019]'s Table 1 counts
// its "Boolean operations".
class Ops {
 public:
  bdd Literal(int lit) const {
    return lit > 0 ? bdd_ithvar(lit - 1) : bdd_nithvar(-lit - 1);
  }
  bdd And(const bdd& a, const bdd& b) {
    ++count_;
    return a & b;
  }
  bdd Or(const bdd& a, const bdd& b) {
    ++count_;
    return a | b;
  }
  bdd Xor(const bdd& a, const bdd& b) {
    ++count_;
    return a ^ b;
  }
  bdd Ite(const bdd& f, const bdd& g, const bdd& h) {
    ++count_;
    return bdd_ite(f, g, h);
  }
  int64_t count() const { return count_; }

 private:
  int64_t count_ = 0;
};

int Var(int lit) { return std::abs(lit) - 1; }

}  // namespace

BddBuilder::BddBuilder(int num_primary) : num_primary_(num_primary) {}
BddBuilder::~BddBuilder() = default;

void BddBuilder::AddClause(std::span<const int> literals) {
  Piece piece;
  piece.kind = PieceKind::kClause;
  piece.literals.assign(literals.begin(), literals.end());
  piece.key = num_primary_;  // an empty clause is conjoined first
  for (int lit : literals) piece.key = std::min(piece.key, Var(lit));
  pieces_.push_back(std::move(piece));
}

void BddBuilder::AddAtMostOne(std::span<const int> literals) {
  std::vector<int> line(literals.begin(), literals.end());
  std::sort(line.begin(), line.end(),
            [](int a, int b) { return Var(a) < Var(b); });
  const int index = static_cast<int>(lines_.size());
  for (size_t p = 0; p + 1 < line.size(); ++p) {
    Piece piece;
    piece.kind = PieceKind::kLineTail;
    piece.key = Var(line[p]);
    piece.line = index;
    piece.position = static_cast<int>(p);
    pieces_.push_back(std::move(piece));
  }
  lines_.push_back(std::move(line));
}

void BddBuilder::AddExactlyOne(std::span<const int> literals) {
  AddAtMostOne(literals);
  AddClause(literals);
}

void BddBuilder::AddCardinality(std::span<const int> literals, int min,
                                int max) {
  Piece piece;
  piece.kind = PieceKind::kCardinality;
  piece.literals.assign(literals.begin(), literals.end());
  std::sort(piece.literals.begin(), piece.literals.end(),
            [](int a, int b) { return Var(a) < Var(b); });
  piece.key = piece.literals.empty() ? num_primary_ : Var(piece.literals[0]);
  piece.min = min;
  piece.max = max;
  pieces_.push_back(std::move(piece));
}

void BddBuilder::AddDifferent(std::span<const int> a, std::span<const int> b) {
  Piece piece;
  piece.kind = PieceKind::kDifferent;
  piece.literals.assign(a.begin(), a.end());
  piece.other.assign(b.begin(), b.end());
  piece.key = num_primary_;
  for (int lit : piece.literals) piece.key = std::min(piece.key, Var(lit));
  for (int lit : piece.other) piece.key = std::min(piece.key, Var(lit));
  pieces_.push_back(std::move(piece));
}

namespace {

// The status of a BuDDy error, cleared for the next count.
absl::Status BuddyStatus() ABSL_EXCLUSIVE_LOCKS_REQUIRED(BuddyMutex()) {
  const int code = buddy_error;
  bdd_clear_error();
  buddy_error = 0;
  return code == BDD_NODENUM || code == BDD_MEMORY
             ? absl::ResourceExhaustedError(
                   absl::StrCat("the BDD outgrew ", kMaxBddNodes,
                                " nodes; count with the SAT method instead"))
             : absl::InternalError(
                   absl::StrCat("BuDDy: ", bdd_errstring(code)));
}

// Each node's BDD, released after its last use.
absl::StatusOr<BddCount> EvaluateCircuit(const BoolCircuit& circuit,
                                         Interrupter* interrupter)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(BuddyMutex()) {
  const int first_gate = circuit.num_primary() + 2;
  const std::vector<BoolCircuit::Gate>& gates = circuit.gates();
  std::vector<size_t> last_use(first_gate + gates.size(), SIZE_MAX);
  for (size_t i = 0; i < gates.size(); ++i) {
    last_use[BoolCircuit::Node(gates[i].a)] = i;
    last_use[BoolCircuit::Node(gates[i].b)] = i;
  }
  for (int ref : circuit.asserted())
    last_use[BoolCircuit::Node(ref)] = SIZE_MAX;
  std::vector<bdd> node(last_use.size(), bddtrue);
  for (int v = 1; v <= circuit.num_primary(); ++v)
    node[circuit.Var(v)] = bdd_ithvar(v - 1);
  auto value = [&](int ref) {
    const bdd& b = node[BoolCircuit::Node(ref)];
    return ref < 0 ? bdd_not(b) : b;
  };
  BddCount result;
  int64_t peak = 1;
  for (size_t i = 0; i < gates.size(); ++i) {
    const BoolCircuit::Gate& g = gates[i];
    const bdd a = value(g.a), b = value(g.b);
    bdd& out = node[first_gate + i];
    out = g.is_and ? (a & b) : (a | b);
    if (buddy_error != 0) return BuddyStatus();
    peak = std::max<int64_t>(peak, bdd_nodecount(out));
    for (int input : {g.a, g.b}) {
      const int n = BoolCircuit::Node(input);
      if (n >= first_gate && last_use[n] == i) node[n] = bddtrue;
    }
    if ((i & 1023) == 1023 && interrupter != nullptr &&
        interrupter->ShouldStop()) {
      result.stopped = true;
      return result;
    }
  }
  bdd all = bddtrue;
  for (int ref : circuit.asserted()) all &= value(ref);
  if (buddy_error != 0) return BuddyStatus();
  std::vector<int> vars(std::max(circuit.num_primary(), 1));
  std::iota(vars.begin(), vars.end(), 0);
  const bdd varset = bdd_makeset(vars.data(), circuit.num_primary());
  // Without variables (1-queens in bits(1) = 0 per row) the formula is a
  // constant.
  if (circuit.num_primary() == 0) {
    result.count = all == bddtrue ? 1 : 0;
  } else {
    result.count = all == bddfalse ? 0 : bdd_satcountset(all, varset);
  }
  result.stats.primary_variables = circuit.num_primary();
  result.stats.bdd_nodes = bdd_nodecount(all);
  result.stats.bdd_peak_nodes = std::max<int64_t>(peak, result.stats.bdd_nodes);
  result.stats.bdd_operations = static_cast<int64_t>(gates.size());
  return result;
}

}  // namespace

absl::StatusOr<BddCount> CountCircuit(const BoolCircuit& circuit,
                                      Interrupter* interrupter) {
  absl::MutexLock lock(&BuddyMutex());
  EnsureBuddy();
  const int vars = std::max(circuit.num_primary(), 1);
  if (bdd_varnum() < vars) bdd_setvarnum(vars);
  buddy_error = 0;
  absl::StatusOr<BddCount> result = EvaluateCircuit(circuit, interrupter);
  bdd_gbc();
  return result;
}

absl::StatusOr<BddCount> BddBuilder::Count(Interrupter* interrupter) const {
  // Bottom-up: the piece with the largest first variable first; a line's tails
  // from its last position to its first, so that each extends the chain of the
  // positions after it.
  std::vector<int> order(pieces_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const Piece& pa = pieces_[a];
    const Piece& pb = pieces_[b];
    if (pa.key != pb.key) return pa.key > pb.key;
    return pa.position > pb.position;
  });

  absl::MutexLock lock(&BuddyMutex());
  EnsureBuddy();
  if (bdd_varnum() < std::max(num_primary_, 1))
    bdd_setvarnum(std::max(num_primary_, 1));
  buddy_error = 0;
  BddCount result;
  absl::Status status;
  {
    Ops ops;
    bdd acc = bddtrue;
    // The seed's D / L / R chain of each line: "no literal after the current
    // position holds".
    std::vector<bdd> tail(lines_.size(), bddtrue);
    int64_t peak = 1;
    // The pieces of one block of ceil(sqrt(n)) variables (a row of a square
    // board)
    // are conjoined among themselves first, and the block then into the
    // accumulated BDD: the paper's V_r, joined once per row, so that the large
    // BDD takes one conjunction per row rather than one per piece.
    const int block_size = std::max(
        1, static_cast<int>(std::ceil(std::sqrt(std::max(num_primary_, 1)))));
    bdd block = bddtrue;
    int current_block = -1;
    bool interrupted = false;
    auto flush_block = [&] {
      acc = ops.And(acc, block);
      block = bddtrue;
      peak = std::max<int64_t>(peak, bdd_nodecount(acc));
    };
    for (int index : order) {
      const Piece& piece = pieces_[index];
      if (piece.key / block_size != current_block) {
        if (current_block >= 0) flush_block();
        current_block = piece.key / block_size;
        if (buddy_error != 0 || acc == bddfalse) break;
        if (interrupter != nullptr && interrupter->ShouldStop()) {
          interrupted = true;
          break;
        }
      }
      bdd conjunct = bddfalse;
      switch (piece.kind) {
        case PieceKind::kClause:
          for (int lit : piece.literals)
            conjunct = ops.Or(conjunct, ops.Literal(lit));
          break;
        case PieceKind::kLineTail: {
          const std::vector<int>& line = lines_[piece.line];
          const int next = line[piece.position + 1];
          tail[piece.line] = ops.And(tail[piece.line], ops.Literal(-next));
          conjunct =
              ops.Or(ops.Literal(-line[piece.position]), tail[piece.line]);
          break;
        }
        case PieceKind::kCardinality: {
          // f[c]: the literals from the current one on, with c already
          // counted (c capped at max + 1).
          const int k = static_cast<int>(piece.literals.size());
          const int cap = std::min(piece.max, k) + 1;
          std::vector<bdd> f(cap + 1);
          for (int c = 0; c <= cap; ++c)
            f[c] = (c >= piece.min && c <= piece.max) ? bddtrue : bddfalse;
          for (int i = k - 1; i >= 0; --i) {
            const int lit = piece.literals[i];
            std::vector<bdd> g(cap + 1);
            for (int c = 0; c <= cap; ++c) {
              const bdd& counted = f[std::min(c + 1, cap)];
              const bdd& skipped = f[c];
              g[c] = lit > 0 ? ops.Ite(bdd_ithvar(lit - 1), counted, skipped)
                             : ops.Ite(bdd_ithvar(-lit - 1), skipped, counted);
            }
            f = std::move(g);
          }
          conjunct = f[0];
          break;
        }
        case PieceKind::kDifferent:
          for (size_t i = 0;
               i < piece.literals.size() && i < piece.other.size(); ++i) {
            conjunct = ops.Or(conjunct, ops.Xor(ops.Literal(piece.literals[i]),
                                                ops.Literal(piece.other[i])));
          }
          break;
      }
      block = ops.And(block, conjunct);
      if (buddy_error != 0) break;
    }
    if (buddy_error == 0 && current_block >= 0 && block != bddtrue)
      flush_block();
    if (buddy_error != 0) {
      status = BuddyStatus();
    } else if (interrupted) {
      result.stopped = true;
    } else {
      std::vector<int> vars(std::max(num_primary_, 1));
      std::iota(vars.begin(), vars.end(), 0);
      const bdd varset = bdd_makeset(vars.data(), num_primary_);
      result.count = acc == bddfalse ? 0 : bdd_satcountset(acc, varset);
      result.stats.primary_variables = num_primary_;
      result.stats.bdd_nodes = bdd_nodecount(acc);
      result.stats.bdd_peak_nodes =
          std::max<int64_t>(peak, result.stats.bdd_nodes);
      result.stats.bdd_operations = ops.count();
    }
  }
  // Every BDD of this count has been released; reclaim their nodes now rather
  // than in the next count.
  bdd_gbc();
  if (!status.ok()) return status;
  return result;
}

}  // namespace qs
