// The window walk over a table of 2^slots least energies, one slot per
// frontier variable. A variable takes the slot of the neighbour it is the
// last window neighbour of (one pass that minimises the old value out as the
// new one comes in: the transfer-matrix step on a lattice), else a free
// slot; a variable whose window neighbours are all placed leaves its slot,
// minimised out. Each leave keeps its best value per state of the slots for
// the trace back. Ties keep the variable's current value.
#include "core/sample/lns/window_dp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qs {
namespace {

// Calls body(start, length) for runs of states [start, start + length) of
// `width` slots with bit `slot` clear, within which no bit of `steady`
// changes: the body's loop is then contiguous and branch-free.
template <typename Body>
void ForRuns(int width, int slot, uint64_t steady, Body&& body) {
  const uint64_t bit = uint64_t{1} << slot, size = uint64_t{1} << width;
  const uint64_t lowest = (steady | bit) & -(steady | bit);
  const uint64_t length = std::min(lowest, bit);
  for (uint64_t high = 0; high < size; high += 2 * bit) {
    for (uint64_t start = high; start < high + bit; start += length)
      body(start, length);
  }
}

// Whether to take value 1 over value 0 at costs (zero, one): ties go to the
// current value.
template <bool kKeepOne, typename Cost>
bool PickOne(Cost zero, Cost one, Cost tolerance) {
  return kKeepOne ? !(zero < one - tolerance) : one < zero - tolerance;
}

// Sums of the integer table stay below this.
constexpr double kIntegerTableBound = 1 << 30;

// The added energy of the entering variable at 1, per state of the other
// slots: its field plus its couplings to the slots at 1.
template <typename Cost>
struct Addend {
  Addend(const auto& couplings)
      : field(static_cast<Cost>(couplings.field)), count(couplings.count) {
    for (int k = 0; k < count; ++k) {
      mask[k] = uint64_t{1} << couplings.slot[k];
      weight[k] = static_cast<Cost>(couplings.weight[k]);
    }
  }
  Cost operator()(uint64_t s) const {
    Cost sum = field;
    for (int k = 0; k < count; ++k) sum += (s & mask[k]) ? weight[k] : Cost{0};
    return sum;
  }
  uint64_t steady() const {
    uint64_t all = 0;
    for (int k = 0; k < count; ++k) all |= mask[k];
    return all;
  }
  Cost field;
  int count;
  uint64_t mask[kMaxWindowFrontier];
  Cost weight[kMaxWindowFrontier];
};

// The loop of ReplaceRotating, over plain pointers so that it vectorises.
template <typename Cost>
struct RotatingPass {
  template <bool kKeepOne, typename Added>
  void Run(Added added) const {
    uint32_t k = 0;
    if constexpr (std::is_same_v<Cost, int32_t>) k = RunVector<kKeepOne>();
    const Cost* __restrict from = in;
    Cost* __restrict low = out;
    Cost* __restrict high = out + half;
    uint8_t* __restrict choice_low = choice;
    uint8_t* __restrict choice_high = choice + half;
    const Cost b = coupling, tol = tolerance;
    for (; k < half; ++k) {
      const Cost zero = from[2 * k], one = from[2 * k + 1];
      const bool one_at_0 = PickOne<kKeepOne>(zero, one, tol);
      const bool one_at_1 = PickOne<kKeepOne>(zero, one + b, tol);
      low[k] = one_at_0 ? one : zero;
      high[k] = (one_at_1 ? one + b : zero) + added(k);
      choice_low[k] = one_at_0;
      choice_high[k] = one_at_1;
    }
  }

  // The integer table four pairs at a time (SSE2, in every x86-64), for
  // the couplings of a lattice strip (at most one varying with k, the row
  // above); returns where the scalar loop goes on.
  template <bool kKeepOne>
  uint32_t RunVector() const {
#if defined(__SSE2__)
    if (half < 4 || varying_count > 1) return 0;
    const __m128i b = _mm_set1_epi32(coupling);
    const __m128i base = _mm_set1_epi32(field);
    const __m128i weight = _mm_set1_epi32(varying_count ? varying_weight : 0);
    const __m128i shift = _mm_cvtsi32_si128(varying_shift);
    const __m128i one_bit = _mm_set1_epi32(1);
    __m128i index = _mm_setr_epi32(0, 1, 2, 3);
    const __m128i four = _mm_set1_epi32(4);
    uint32_t k = 0;
    for (; k + 4 <= half; k += 4) {
      const __m128 pair_a = _mm_castsi128_ps(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * k)));
      const __m128 pair_b = _mm_castsi128_ps(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * k + 4)));
      const __m128i zero = _mm_castps_si128(
          _mm_shuffle_ps(pair_a, pair_b, _MM_SHUFFLE(2, 0, 2, 0)));
      const __m128i one = _mm_castps_si128(
          _mm_shuffle_ps(pair_a, pair_b, _MM_SHUFFLE(3, 1, 3, 1)));
      const __m128i one_b = _mm_add_epi32(one, b);
      // Masks of "take 1": ties keep the current value.
      const __m128i at_0 = kKeepOne ? _mm_xor_si128(_mm_cmplt_epi32(zero, one),
                                                    _mm_set1_epi32(-1))
                                    : _mm_cmplt_epi32(one, zero);
      const __m128i at_1 =
          kKeepOne
              ? _mm_xor_si128(_mm_cmplt_epi32(zero, one_b), _mm_set1_epi32(-1))
              : _mm_cmplt_epi32(one_b, zero);
      const __m128i bit = _mm_and_si128(_mm_srl_epi32(index, shift), one_bit);
      const __m128i added = _mm_add_epi32(
          base, _mm_and_si128(_mm_sub_epi32(_mm_setzero_si128(), bit), weight));
      const __m128i low_cost =
          _mm_or_si128(_mm_and_si128(at_0, one), _mm_andnot_si128(at_0, zero));
      const __m128i high_cost =
          _mm_add_epi32(_mm_or_si128(_mm_and_si128(at_1, one_b),
                                     _mm_andnot_si128(at_1, zero)),
                        added);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + k), low_cost);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + half + k), high_cost);
      const __m128i packed = _mm_and_si128(
          _mm_packs_epi16(_mm_packs_epi32(at_0, at_1), _mm_setzero_si128()),
          _mm_set1_epi8(1));
      const uint64_t bytes = static_cast<uint64_t>(_mm_cvtsi128_si64(packed));
      std::memcpy(choice + k, &bytes, 4);
      const uint32_t high_bytes = static_cast<uint32_t>(bytes >> 32);
      std::memcpy(choice + half + k, &high_bytes, 4);
      index = _mm_add_epi32(index, four);
    }
    return k;
#else
    return 0;
#endif
  }

  const Cost* in;
  Cost* out;
  uint8_t* choice;
  uint32_t half;
  Cost coupling;
  Cost tolerance;
  Cost field;
  // The one coupling that varies with the pair index, if any.
  int varying_count = 0;
  int varying_shift = 0;
  Cost varying_weight = 0;
};

}  // namespace

int WindowFrontier(const Qubo& model, std::span<const int32_t> order) {
  // Positions by binary search over the sorted window: no table of the
  // model's size per call.
  std::vector<std::pair<int32_t, int32_t>> sorted(order.size());
  for (size_t t = 0; t < order.size(); ++t)
    sorted[t] = {order[t], static_cast<int32_t>(t)};
  std::sort(sorted.begin(), sorted.end());
  auto position = [&](int32_t v) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(),
                                     std::make_pair(v, int32_t{-1}));
    return it != sorted.end() && it->first == v ? it->second : -1;
  };
  std::vector<int32_t> later(order.size(), 0);
  int frontier = 0, widest = 0;
  for (size_t t = 0; t < order.size(); ++t) {
    ++frontier;
    widest = std::max(widest, frontier);
    for (const Neighbor& nb : model.neighbors(order[t])) {
      const int32_t p = position(nb.j);
      if (p < 0) continue;
      if (static_cast<size_t>(p) > t) {
        ++later[t];
      } else if (p < static_cast<int32_t>(t) && --later[p] == 0) {
        --frontier;
      }
    }
    if (later[t] == 0) --frontier;
  }
  return widest;
}

WindowOptimizer::WindowOptimizer(const Qubo& model)
    : model_(model),
      position_(model.num_variables(), -1),
      unplaced_(model.num_variables(), 0),
      slot_of_(model.num_variables(), -1) {
  double scale = 1;
  bool integer = true;
  for (int i = 0; i < model.num_variables(); ++i) {
    scale += std::abs(model.linear(i));
    integer = integer && std::floor(model.linear(i)) == model.linear(i);
    for (const Neighbor& nb : model.neighbors(i)) {
      if (nb.j > i) scale += std::abs(nb.w);
      integer = integer && std::floor(nb.w) == nb.w;
    }
  }
  integer_ = integer && scale < kIntegerTableBound;
  tolerance_ = 1e-9 * scale;
}

template <>
std::vector<double>& WindowOptimizer::Table<double>() {
  return real_cost_;
}
template <>
std::vector<int32_t>& WindowOptimizer::Table<int32_t>() {
  return integer_cost_;
}
template <>
std::vector<double>& WindowOptimizer::Spare<double>() {
  return real_spare_;
}
template <>
std::vector<int32_t>& WindowOptimizer::Spare<int32_t>() {
  return integer_spare_;
}

double WindowOptimizer::Optimize(std::span<const int32_t> order,
                                 std::vector<uint8_t>& state) {
  changed_ = 0;
  if (order.empty() || WindowFrontier(model_, order) > kMaxWindowFrontier)
    return 0;
  for (size_t t = 0; t < order.size(); ++t)
    position_[order[t]] = static_cast<int32_t>(t);
  // The window's part of the energy as it stands, which the walk's least
  // energy replaces.
  double before = 0;
  for (int32_t v : order) {
    unplaced_[v] = 0;
    for (const Neighbor& nb : model_.neighbors(v)) {
      if (position_[nb.j] > position_[v]) ++unplaced_[v];
      if (state[v] && state[nb.j])
        before += position_[nb.j] >= 0 ? 0.5 * nb.w : nb.w;
    }
    if (state[v]) before += model_.linear(v);
  }
  slot_var_.clear();
  steps_.clear();
  choices_used_ = 0;
  const double after =
      integer_ ? Walk<int32_t>(order, state) : Walk<double>(order, state);
  TraceBack(state);
  for (int32_t v : order) position_[v] = -1;
  return after - before;
}

template <typename Cost>
double WindowOptimizer::Walk(std::span<const int32_t> order,
                             const std::vector<uint8_t>& state) {
  Table<Cost>().assign(1, Cost{0});
  for (int32_t v : order) Place<Cost>(v, state);
  return static_cast<double>(Table<Cost>()[0]);
}

template <typename Cost>
void WindowOptimizer::Place(int32_t v, const std::vector<uint8_t>& state) {
  Couplings couplings;
  couplings.field = model_.linear(v);
  int32_t partner = -1;  // the neighbour whose slot v takes
  double partner_weight = 0;
  int32_t done[kMaxWindowFrontier];  // neighbours whose last neighbour is v
  int num_done = 0;
  for (const Neighbor& nb : model_.neighbors(v)) {
    const int32_t p = position_[nb.j];
    if (p < 0) {
      if (state[nb.j]) couplings.field += nb.w;
      continue;
    }
    if (p > position_[v]) continue;
    if (--unplaced_[nb.j] == 0 && partner < 0) {
      partner = nb.j;
      partner_weight = nb.w;
      continue;
    }
    couplings.slot[couplings.count] = slot_of_[nb.j];
    couplings.weight[couplings.count++] = nb.w;
    if (unplaced_[nb.j] == 0) done[num_done++] = nb.j;
  }
  int slot;
  if (partner >= 0 && slot_of_[partner] == 0 && slot_var_.size() > 1) {
    ReplaceRotating<Cost>(partner, partner_weight, couplings,
                          state[partner] != 0);
    slot = static_cast<int>(slot_var_.size()) - 1;
  } else if (partner >= 0) {
    slot = slot_of_[partner];
    Replace<Cost>(slot, partner, partner_weight, couplings,
                  state[partner] != 0);
  } else {
    const auto free = std::find(slot_var_.begin(), slot_var_.end(), -1);
    slot = static_cast<int>(free - slot_var_.begin());
    if (free == slot_var_.end()) slot_var_.push_back(-1);
    Enter<Cost>(v, slot, couplings);
  }
  slot_var_[slot] = v;
  slot_of_[v] = slot;
  for (int k = 0; k < num_done; ++k)
    Leave<Cost>(slot_of_[done[k]], state[done[k]] != 0);
  if (unplaced_[v] == 0) Leave<Cost>(slot, state[v] != 0);
}

template <typename Cost>
void WindowOptimizer::Enter(int32_t v, int slot, const Couplings& couplings) {
  std::vector<Cost>& cost = Table<Cost>();
  const int width = static_cast<int>(slot_var_.size());
  if (cost.size() < (uint64_t{1} << width)) cost.resize(uint64_t{1} << width);
  const uint64_t bit = uint64_t{1} << slot;
  const Addend<Cost> added(couplings);
  Cost* const c = cost.data();
  ForRuns(width, slot, added.steady(), [&](uint64_t start, uint64_t length) {
    const Cost a = added(start);
    const Cost* __restrict zero = c + start;
    Cost* __restrict one = c + start + bit;
    for (uint64_t t = 0; t < length; ++t) one[t] = zero[t] + a;
  });
  steps_.push_back({Op::kEnter, slot, v, 0});
}

uint8_t* WindowOptimizer::NewChoices(int slot, int32_t var, Op op,
                                     size_t size) {
  const size_t offset = choices_used_;
  choices_used_ += size;
  if (choices_.size() < choices_used_)
    choices_.resize(std::max(choices_used_, 2 * choices_.size()));
  steps_.push_back({op, slot, var, static_cast<int64_t>(offset)});
  return choices_.data() + offset;
}

template <typename Cost>
void WindowOptimizer::Replace(int slot, int32_t leaving, double coupling,
                              const Couplings& couplings, bool keep_one) {
  std::vector<Cost>& cost = Table<Cost>();
  uint8_t* const choice = NewChoices(slot, leaving, Op::kReplace, cost.size());
  const int width = static_cast<int>(slot_var_.size());
  const uint64_t bit = uint64_t{1} << slot;
  const Cost tol = std::is_integral_v<Cost> ? 0 : tolerance_;
  const Cost b = static_cast<Cost>(coupling);
  const Addend<Cost> added(couplings);
  // The couplings to slots below `slot` vary along a run: summed per state
  // with shifts, which vectorise; the others are constant over a run.
  const uint64_t varying_mask = bit - 1;
  Cost* const c = cost.data();
  int shifts[kMaxWindowFrontier];
  Cost weights[kMaxWindowFrontier];
  int varying = 0;
  uint64_t steady_masks[kMaxWindowFrontier];
  Cost steady_weights[kMaxWindowFrontier];
  int num_steady = 0;
  for (int k = 0; k < added.count; ++k) {
    if (added.mask[k] & varying_mask) {
      shifts[varying] = std::countr_zero(added.mask[k]);
      weights[varying++] = added.weight[k];
    } else {
      steady_masks[num_steady] = added.mask[k];
      steady_weights[num_steady++] = added.weight[k];
    }
  }
  auto walk = [&]<bool kKeepOne>() {
    ForRuns(width, slot, 0, [&](uint64_t start, uint64_t length) {
      Cost steady = added.field;
      for (int k = 0; k < num_steady; ++k)
        if (start & steady_masks[k]) steady += steady_weights[k];
      Cost* __restrict at0 = c + start;
      Cost* __restrict at1 = c + start + bit;
      uint8_t* __restrict choice0 = choice + start;
      uint8_t* __restrict choice1 = choice + start + bit;
      auto body = [&](uint64_t t, Cost a) {
        const Cost zero = at0[t], one = at1[t];
        // The entering variable at 0, then at 1 (coupled to the leaving one).
        const bool one_at_0 = PickOne<kKeepOne>(zero, one, tol);
        const bool one_at_1 = PickOne<kKeepOne>(zero, one + b, tol);
        at0[t] = one_at_0 ? one : zero;
        at1[t] = (one_at_1 ? one + b : zero) + a;
        choice0[t] = one_at_0;
        choice1[t] = one_at_1;
      };
      if (varying == 0) {
        for (uint64_t t = 0; t < length; ++t) body(t, steady);
      } else if (varying == 1) {
        const int shift = shifts[0];
        const Cost w = weights[0];
        for (uint64_t t = 0; t < length; ++t)
          body(t, steady + w * static_cast<Cost>((t >> shift) & 1));
      } else {
        for (uint64_t t = 0; t < length; ++t) {
          Cost a = steady;
          for (int k = 0; k < varying; ++k)
            a += weights[k] * static_cast<Cost>((t >> shifts[k]) & 1);
          body(t, a);
        }
      }
    });
  };
  keep_one ? walk.template operator()<true>()
           : walk.template operator()<false>();
}

// A walk that places a variable per row along columns (a lattice strip)
// replaces slot 0 at every step after a rotation: pairs (2k, 2k + 1) in,
// halves [0, half) and [half, 2 half) out, both streams contiguous.
template <typename Cost>
void WindowOptimizer::ReplaceRotating(int32_t leaving, double coupling,
                                      const Couplings& couplings,
                                      bool keep_one) {
  std::vector<Cost>& cost = Table<Cost>();
  std::vector<Cost>& out = Spare<Cost>();
  out.resize(cost.size());
  const int width = static_cast<int>(slot_var_.size());
  uint8_t* const choice =
      NewChoices(width, leaving, Op::kReplaceRotating, cost.size());
  const uint32_t half = uint32_t{1} << (width - 1);
  const Cost tol = std::is_integral_v<Cost> ? 0 : tolerance_;
  const Cost b = static_cast<Cost>(coupling);
  // Slot p of the old table is bit p - 1 of the pair index.
  int shifts[kMaxWindowFrontier];
  Cost weights[kMaxWindowFrontier];
  for (int k = 0; k < couplings.count; ++k) {
    shifts[k] = couplings.slot[k] - 1;
    weights[k] = static_cast<Cost>(couplings.weight[k]);
  }
  const int count = couplings.count;
  const Cost field = static_cast<Cost>(couplings.field);
  RotatingPass<Cost> pass{cost.data(), out.data(), choice, half, b, tol, field};
  pass.varying_count = count;
  if (count == 1) {
    pass.varying_shift = shifts[0];
    pass.varying_weight = weights[0];
  }
  auto dispatch = [&](auto added) {
    keep_one ? pass.template Run<true>(added) : pass.template Run<false>(added);
  };
  if (count == 0) {
    dispatch([field](uint32_t) { return field; });
  } else if (count == 1) {
    dispatch([field, shift = shifts[0], w = weights[0]](uint32_t k) {
      return field + w * static_cast<Cost>((k >> shift) & 1);
    });
  } else {
    dispatch([&](uint32_t k) {
      Cost sum = field;
      for (int j = 0; j < count; ++j)
        sum += weights[j] * static_cast<Cost>((k >> shifts[j]) & 1);
      return sum;
    });
  }
  cost.swap(out);
  slot_var_.erase(slot_var_.begin());
  slot_var_.push_back(-1);
  for (int p = 0; p + 1 < width; ++p)
    if (slot_var_[p] >= 0) slot_of_[slot_var_[p]] = p;
}

template <typename Cost>
void WindowOptimizer::Leave(int slot, bool keep_one) {
  std::vector<Cost>& cost = Table<Cost>();
  uint8_t* const choice =
      NewChoices(slot, slot_var_[slot], Op::kLeave, cost.size());
  const int width = static_cast<int>(slot_var_.size());
  const uint64_t bit = uint64_t{1} << slot;
  const Cost tol = std::is_integral_v<Cost> ? 0 : tolerance_;
  Cost* const c = cost.data();
  auto walk = [&]<bool kKeepOne>() {
    ForRuns(width, slot, 0, [&](uint64_t start, uint64_t length) {
      Cost* __restrict at0 = c + start;
      const Cost* __restrict at1 = c + start + bit;
      uint8_t* __restrict chosen = choice + start;
      for (uint64_t t = 0; t < length; ++t) {
        const bool pick_one = PickOne<kKeepOne>(at0[t], at1[t], tol);
        at0[t] = pick_one ? at1[t] : at0[t];
        chosen[t] = pick_one;
      }
    });
  };
  keep_one ? walk.template operator()<true>()
           : walk.template operator()<false>();
  slot_var_[slot] = -1;
  // Free slots at the top go: their clear halves hold the minima.
  while (!slot_var_.empty() && slot_var_.back() == -1) slot_var_.pop_back();
  cost.resize(uint64_t{1} << slot_var_.size());
}
void WindowOptimizer::TraceBack(std::vector<uint8_t>& state) {
  uint64_t s = 0;  // the slots' values, slot k at bit k
  for (auto step = steps_.rbegin(); step != steps_.rend(); ++step) {
    const uint64_t bit = uint64_t{1} << step->slot;
    if (step->op == Op::kEnter) {
      s &= ~bit;
      continue;
    }
    if (step->op == Op::kReplaceRotating) {
      const uint64_t rest = s & ((uint64_t{1} << (step->slot - 1)) - 1);
      const uint8_t value = choices_[step->choice_offset + s];
      s = (rest << 1) | value;
      changed_ += state[step->var] != value;
      state[step->var] = value;
      continue;
    }
    const uint8_t value = choices_[step->choice_offset + s];
    s = (s & ~bit) | (value ? bit : 0);
    changed_ += state[step->var] != value;
    state[step->var] = value;
  }
}

}  // namespace qs
