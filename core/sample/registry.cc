// SamplerRegistry.
#include "core/sample/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace qs {

absl::Status SamplerRegistry::Register(std::unique_ptr<Sampler> sampler) {
  const std::string name(sampler->name());
  if (by_name_.contains(name) || solvers_by_name_.contains(name)) {
    return absl::AlreadyExistsError(
        absl::StrCat("backend '", name, "' registered twice"));
  }
  by_name_[name] = sampler.get();
  samplers_.push_back(std::move(sampler));
  return absl::OkStatus();
}

absl::Status SamplerRegistry::RegisterPuzzleSolver(
    std::unique_ptr<PuzzleSolver> solver) {
  const std::string name(solver->name());
  if (by_name_.contains(name) || solvers_by_name_.contains(name)) {
    return absl::AlreadyExistsError(
        absl::StrCat("backend '", name, "' registered twice"));
  }
  solvers_by_name_[name] = solver.get();
  puzzle_solvers_.push_back(std::move(solver));
  return absl::OkStatus();
}

absl::StatusOr<const Sampler*> SamplerRegistry::Get(
    absl::string_view name) const {
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  if (solvers_by_name_.contains(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("params.backend: '", name,
                     "' solves the puzzle's rules and cannot sample a QUBO"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("params.backend: unknown backend '", name, "' (one of ",
                   absl::StrJoin(Names(), ", "), ")"));
}

const PuzzleSolver* SamplerRegistry::FindPuzzleSolver(
    absl::string_view name) const {
  auto it = solvers_by_name_.find(name);
  return it == solvers_by_name_.end() ? nullptr : it->second;
}

std::vector<const Sampler*> SamplerRegistry::All() const {
  std::vector<const Sampler*> all;
  for (const auto& s : samplers_) all.push_back(s.get());
  return all;
}

std::vector<const PuzzleSolver*> SamplerRegistry::PuzzleSolvers() const {
  std::vector<const PuzzleSolver*> all;
  for (const auto& s : puzzle_solvers_) all.push_back(s.get());
  return all;
}

std::vector<std::string> SamplerRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& s : samplers_) names.emplace_back(s->name());
  for (const auto& s : puzzle_solvers_) names.emplace_back(s->name());
  return names;
}

}  // namespace qs
