// SamplerRegistry.
#include "core/sample/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace qs {

absl::Status SamplerRegistry::Register(std::unique_ptr<Sampler> sampler) {
  const std::string name(sampler->name());
  if (by_name_.contains(name)) {
    return absl::AlreadyExistsError(
        absl::StrCat("backend '", name, "' registered twice"));
  }
  by_name_[name] = sampler.get();
  samplers_.push_back(std::move(sampler));
  return absl::OkStatus();
}

absl::StatusOr<const Sampler*> SamplerRegistry::Get(
    absl::string_view name) const {
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  std::vector<std::string> names;
  for (const auto& s : samplers_) names.emplace_back(s->name());
  return absl::InvalidArgumentError(
      absl::StrCat("params.backend: unknown backend '", name, "' (one of ",
                   absl::StrJoin(names, ", "), ")"));
}

std::vector<const Sampler*> SamplerRegistry::All() const {
  std::vector<const Sampler*> all;
  for (const auto& s : samplers_) all.push_back(s.get());
  return all;
}

}  // namespace qs
