// DerivedCache: values computed from a compiled problem that every solve of it
// would compute again (the annealer's kernel model and beta range, the decoded
// and validated board of a state). With the compile cache, a puzzle solved
// many times computes them once. Keys name the value and whatever else it
// depends on; each entry is made once (concurrent first uses may both make it;
// one wins). Thread-safe. A copy of a CompiledProblem starts with an empty
// cache, so a problem changed after copying never sees values of another.
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
    {
      absl::MutexLock lock(&mu_);
      auto it = values_.find(key);
      if (it != values_.end())
        return std::static_pointer_cast<const T>(it->second);
    }
    auto value = std::make_shared<const T>(std::forward<Make>(make)());
    absl::MutexLock lock(&mu_);
    if (values_.size() >= kMaxEntries) return value;
    auto [it, inserted] = values_.emplace(key, value);
    return std::static_pointer_cast<const T>(it->second);
  }

  // The same for a `make()` that may fail (returning absl::StatusOr<T>): an
  // error is returned and not kept.
  template <typename T, typename Make>
  absl::StatusOr<std::shared_ptr<const T>> GetOrTryMake(const std::string& key,
                                                        Make&& make) {
    {
      absl::MutexLock lock(&mu_);
      auto it = values_.find(key);
      if (it != values_.end())
        return std::static_pointer_cast<const T>(it->second);
    }
    absl::StatusOr<T> made = std::forward<Make>(make)();
    if (!made.ok()) return made.status();
    auto value = std::make_shared<const T>(*std::move(made));
    absl::MutexLock lock(&mu_);
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
};

}  // namespace qs

#endif  // QS_CORE_COMPILE_DERIVED_CACHE_H_
