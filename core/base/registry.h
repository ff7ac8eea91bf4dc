// Registry<T>: the one shape of every extension point's registry (puzzle
// compilers, rules encoders, generators, backends): items by name in
// registration order, optionally also by PuzzleSpec oneof case, filled once at
// start-up by an explicit builtin list and read-only afterwards (so reads are
// thread-safe without a lock). BuildOnce makes the process-wide instance of a
// builtin list and stops the process with the reason when that list is wrong
// (a duplicate name is a programming error, found at the first start).
#ifndef QS_CORE_BASE_REGISTRY_H_
#define QS_CORE_BASE_REGISTRY_H_

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace qs {

template <typename T>
class Registry {
 public:
  // `what` names an item in messages: "backend", "puzzle kind", "family".
  explicit Registry(std::string what) : what_(std::move(what)) {}
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // ALREADY_EXISTS when the name, or the oneof case, is taken.
  absl::Status Register(std::unique_ptr<T> item, std::string name,
                        std::optional<int> oneof_case = std::nullopt) {
    if (by_name_.contains(name)) {
      return absl::AlreadyExistsError(
          absl::StrCat(what_, " '", name, "' registered twice"));
    }
    if (oneof_case && by_case_.contains(*oneof_case)) {
      return absl::AlreadyExistsError(absl::StrCat(
          what_, " '", name, "': puzzle case ", *oneof_case,
          " is already handled by '", names_[by_case_.at(*oneof_case)], "'"));
    }
    by_name_[name] = items_.size();
    if (oneof_case) by_case_[*oneof_case] = items_.size();
    names_.push_back(std::move(name));
    items_.push_back(std::move(item));
    return absl::OkStatus();
  }

  // The item of that name, or null.
  const T* Find(absl::string_view name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : items_[it->second].get();
  }
  // The item of that name; INVALID_ARGUMENT "<field>: unknown <what> 'x' (one
  // of a, b, c)" otherwise.
  absl::StatusOr<const T*> Get(absl::string_view name,
                               absl::string_view field) const {
    if (const T* item = Find(name)) return item;
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": unknown ", what_, " '", name, "' (one of ",
                     absl::StrJoin(SortedNames(), ", "), ")"));
  }
  // The item for a oneof case, or null.
  const T* FindCase(int oneof_case) const {
    auto it = by_case_.find(oneof_case);
    return it == by_case_.end() ? nullptr : items_[it->second].get();
  }

  // Every item, in registration order.
  std::vector<const T*> All() const {
    std::vector<const T*> all;
    all.reserve(items_.size());
    for (const auto& item : items_) all.push_back(item.get());
    return all;
  }
  // Every name, sorted.
  std::vector<std::string> SortedNames() const {
    std::vector<std::string> names = names_;
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string what_;
  std::vector<std::unique_ptr<T>> items_;
  std::vector<std::string> names_;
  absl::flat_hash_map<std::string, size_t> by_name_;
  absl::flat_hash_map<int, size_t> by_case_;
};

// The process-wide registry filled by `fill`, built on first use.
template <typename R>
const R& BuildOnce(absl::Status (*fill)(R&)) {
  static const R* const registry = [fill] {
    auto* r = new R();
    if (absl::Status status = fill(*r); !status.ok()) {
      std::fprintf(stderr, "builtin registry is inconsistent: %s\n",
                   status.ToString().c_str());
      std::abort();
    }
    return r;
  }();
  return *registry;
}

}  // namespace qs

#endif  // QS_CORE_BASE_REGISTRY_H_
