// Exact optimisation of a window of a QUBO's variables, the others held
// fixed: dynamic programming along an order of the window (a path
// decomposition), whose state is the frontier (variables placed whose window
// neighbours are not all placed yet). On a 2D lattice a strip of h rows,
// walked column by column, keeps a frontier of h + 1: the transfer-matrix
// method of lattice statistics [Kramers & Wannier 1941], minimising instead
// of summing. Backend "lns" (README.md) re-solves such windows in turn
// [Shaw 1998]; docs/references.md has the papers.
#ifndef QS_CORE_SAMPLE_LNS_WINDOW_DP_H_
#define QS_CORE_SAMPLE_LNS_WINDOW_DP_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/qubo/qubo.h"

namespace qs {

// The widest frontier a window may need: its table holds 2^frontier energies.
inline constexpr int kMaxWindowFrontier = 18;

// The largest frontier the order reaches when every listed variable is a
// window variable (duplicates and out-of-range indices are not allowed).
int WindowFrontier(const Qubo& model, std::span<const int32_t> order);

// Re-solves windows of one model; keeps its buffers between calls. Not
// thread-safe: one per thread.
class WindowOptimizer {
 public:
  explicit WindowOptimizer(const Qubo& model);

  // Sets the variables of `order` (distinct, in range, frontier at most
  // kMaxWindowFrontier) to an assignment of least energy with the rest of
  // `state` as it is, keeping the current values among equals where the
  // order's ties allow. Returns the energy change (<= 0 up to rounding).
  double Optimize(std::span<const int32_t> order, std::vector<uint8_t>& state);
  // Variables the last Optimize changed.
  int changed() const { return changed_; }

 private:
  // One step of the walk, undone in reverse by the trace back.
  enum class Op : uint8_t {
    kEnter,    // `var` takes slot `slot`
    kLeave,    // `var` leaves slot `slot`, its best value in the choices
    kReplace,  // `var` leaves slot `slot` as the next variable takes it
    // `var` leaves slot 0 as the next variable takes the top slot and the
    // others move down one (`slot` holds the width): the table's pairs are
    // then adjacent and its halves contiguous, whatever the order's rhythm.
    kReplaceRotating,
  };
  struct Step {
    Op op;
    int32_t slot;
    int32_t var;
    int64_t choice_offset;
  };
  // The couplings of a variable entering to the frontier's other slots.
  struct Couplings {
    double field = 0;  // its linear term plus its fixed neighbours'
    int count = 0;
    int slot[kMaxWindowFrontier];
    double weight[kMaxWindowFrontier];
  };
  // The table in Cost: int32_t for a model of integer weights small enough
  // that no sum overflows (exact, and twice the lanes), else double.
  template <typename Cost>
  std::vector<Cost>& Table();
  template <typename Cost>
  std::vector<Cost>& Spare();
  template <typename Cost>
  double Walk(std::span<const int32_t> order,
              const std::vector<uint8_t>& state);
  template <typename Cost>
  void Place(int32_t v, const std::vector<uint8_t>& state);
  template <typename Cost>
  void Enter(int32_t v, int slot, const Couplings& couplings);
  template <typename Cost>
  void Replace(int slot, int32_t leaving, double coupling,
               const Couplings& couplings, bool keep_one);
  template <typename Cost>
  void ReplaceRotating(int32_t leaving, double coupling,
                       const Couplings& couplings, bool keep_one);
  template <typename Cost>
  void Leave(int slot, bool keep_one);
  uint8_t* NewChoices(int slot, int32_t var, Op op, size_t size);
  void TraceBack(std::vector<uint8_t>& state);

  const Qubo& model_;
  double tolerance_ = 0;           // ties, from the weights
  std::vector<int32_t> position_;  // in the order, or -1
  std::vector<int32_t> unplaced_;  // window neighbours to come
  std::vector<int32_t> slot_of_;   // of a frontier variable
  std::vector<int32_t> slot_var_;  // -1: free
  bool integer_ = false;           // the table is in int32_t
  std::vector<double> real_cost_;  // 2^slots least energies
  std::vector<int32_t> integer_cost_;
  std::vector<double> real_spare_;  // the rotating replace's output
  std::vector<int32_t> integer_spare_;
  std::vector<uint8_t> choices_;  // per leave, by state; grows, never shrinks
  size_t choices_used_ = 0;
  std::vector<Step> steps_;
  int changed_ = 0;
};

}  // namespace qs

#endif  // QS_CORE_SAMPLE_LNS_WINDOW_DP_H_
