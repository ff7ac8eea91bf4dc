// DerivedCache: values computed from a compiled problem that every solve of it
// would compute again (the annealer's kernel model and beta range, the decoded
// and validated board of a state). With the compile cache, a puzzle solved
// many times computes them once. Keys name the value and whatever else it
// depends on; each entry is made once (concurrent first uses wait for the
// one that makes it). Thread-safe. A copy of a CompiledProblem starts with an
// empty cache, so a problem changed after copying never sees values of another.
#ifndef QS_CORE_COMPILE_DERIVED_CACHE_H_
#define QS_CORE_COMPILE_DERIVED_CACHE_H_

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace qs {

class DerivedCache {
 public:
  // At most this many entries; past it values are made and not kept.
  static constexpr size_t kMaxEntries = 256;

  DerivedCache() = default;
  DerivedCache(const DerivedCache&) {}
  DerivedCache& operator=(const DerivedCache&) {
    absl::MutexLock lock(&mu_);
    values_.clear();
    return *this;
  }

  // The value under `key`, made by `make()` (returning T) on first use.
  template <typename T, typename Make>
  std::shared_ptr<const T> GetOrMake(const std::string& key, Make&& make) {
    return *GetOrTryMake<T>(key, [&]() -> absl::StatusOr<T> { return make(); });
  }

  // The same for a `make()` that may fail (returning absl::StatusOr<T>): an
  // error is returned and not kept. Concurrent first uses of a key make it
  // once: the others wait for it (eight solves of one large model arriving
  // together would otherwise each derive everything, on cores they share).
  template <typename T, typename Make>
  absl::StatusOr<std::shared_ptr<const T>> GetOrTryMake(const std::string& key,
                                                        Make&& make) {
    std::shared_ptr<absl::Mutex> maker;
    {
      absl::MutexLock lock(&mu_);
      auto it = values_.find(key);
      if (it != values_.end())
        return std::static_pointer_cast<const T>(it->second);
      std::shared_ptr<absl::Mutex>& slot = making_[key];
      if (slot == nullptr) slot = std::make_shared<absl::Mutex>();
      maker = slot;
    }
    absl::MutexLock making(maker.get());
    if (auto kept = Find<T>(key)) return kept;  // made while this one waited
    absl::StatusOr<T> made = std::forward<Make>(make)();
    absl::MutexLock lock(&mu_);
    if (making_[key] == maker) making_.erase(key);
    if (!made.ok()) return made.status();
    auto value = std::make_shared<const T>(*std::move(made));
    if (values_.size() >= kMaxEntries) return value;
    auto [it, inserted] = values_.emplace(key, value);
    return std::static_pointer_cast<const T>(it->second);
  }

  // The value under `key` if one was kept, else null.
  template <typename T>
  std::shared_ptr<const T> Find(const std::string& key) const {
    absl::MutexLock lock(&mu_);
    auto it = values_.find(key);
    return it == values_.end() ? nullptr
                               : std::static_pointer_cast<const T>(it->second);
  }
  // How many values are kept.
  size_t size() const {
    absl::MutexLock lock(&mu_);
    return values_.size();
  }
  // Keeps `value` under `key` unless one is there or the cache holds
  // `max_entries` values already. A caller that may put many values (one per
  // distinct board) passes a bound below kMaxEntries, so that they never take
  // the room of what the samplers derive.
  template <typename T>
  void PutShared(const std::string& key, std::shared_ptr<const T> value,
                 size_t max_entries = kMaxEntries) {
    absl::MutexLock lock(&mu_);
    if (values_.size() < std::min(max_entries, kMaxEntries) &&
        !values_.contains(key))
      values_.emplace(key, std::move(value));
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<const void>> values_
      ABSL_GUARDED_BY(mu_);
  // A lock per key being made, held by its maker.
  absl::flat_hash_map<std::string, std::shared_ptr<absl::Mutex>> making_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace qs

#endif  // QS_CORE_COMPILE_DERIVED_CACHE_H_
