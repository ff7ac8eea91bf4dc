// QuboModel <-> Qubo.
#include "core/qubo/qubo_proto.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace qs {

absl::StatusOr<Qubo> QuboFromProto(const v1::QuboModel& model,
                                   absl::string_view field) {
  const uint32_t n = model.num_variables();
  if (model.i_size() != model.j_size() || model.i_size() != model.w_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ".i, .j and .w must have the same length, got ", model.i_size(),
        ", ", model.j_size(), ", ", model.w_size()));
  }
  if (model.labels_size() != 0 &&
      static_cast<uint32_t>(model.labels_size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".labels has ", model.labels_size(),
                     " entries, expected 0 or num_variables ", n));
  }
  if (!std::isfinite(model.offset())) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".offset is not finite"));
  }
  for (int k = 0; k < model.i_size(); ++k) {
    if (model.i(k) >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".i[", k, "]: ", model.i(k), " >= num_variables ", n));
    }
    if (model.j(k) >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".j[", k, "]: ", model.j(k), " >= num_variables ", n));
    }
    if (!std::isfinite(model.w(k))) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".w[", k, "] is not finite"));
    }
  }
  if (model.vartype() == v1::SPIN) {
    IsingModel ising;
    ising.num_variables = static_cast<int>(n);
    ising.offset = model.offset();
    ising.h.assign(n, 0.0);
    for (int k = 0; k < model.i_size(); ++k) {
      uint32_t i = model.i(k), j = model.j(k);
      if (i == j) {
        ising.h[i] += model.w(k);
      } else {
        if (i > j) std::swap(i, j);
        ising.couplings.push_back(
            {static_cast<int32_t>(i), static_cast<int32_t>(j), model.w(k)});
      }
    }
    auto qubo = FromIsing(ising);
    if (!qubo.ok() || model.labels_size() == 0) return qubo;
    QuboBuilder relabel(static_cast<int>(n));
    relabel.AddOffset(qubo->offset());
    for (uint32_t i = 0; i < n; ++i) {
      relabel.AddLinear(static_cast<int>(i), qubo->linear(static_cast<int>(i)));
      relabel.SetLabel(static_cast<int>(i), model.labels(static_cast<int>(i)));
    }
    for (const QuboTerm& t : qubo->QuadraticTerms())
      relabel.AddQuadratic(t.i, t.j, t.w);
    return std::move(relabel).Build();
  }
  QuboBuilder builder(static_cast<int>(n));
  builder.AddOffset(model.offset());
  for (int k = 0; k < model.i_size(); ++k) {
    builder.AddQuadratic(static_cast<int>(model.i(k)),
                         static_cast<int>(model.j(k)), model.w(k));
  }
  for (int k = 0; k < model.labels_size(); ++k)
    builder.SetLabel(k, model.labels(k));
  return std::move(builder).Build();
}

v1::QuboModel QuboToProto(const Qubo& qubo) {
  v1::QuboModel model;
  model.set_num_variables(static_cast<uint32_t>(qubo.num_variables()));
  model.set_offset(qubo.offset());
  model.set_vartype(v1::BINARY);
  for (int i = 0; i < qubo.num_variables(); ++i) {
    if (qubo.linear(i) == 0) continue;
    model.add_i(i);
    model.add_j(i);
    model.add_w(qubo.linear(i));
  }
  for (const QuboTerm& t : qubo.QuadraticTerms()) {
    model.add_i(t.i);
    model.add_j(t.j);
    model.add_w(t.w);
  }
  for (const std::string& label : qubo.labels()) model.add_labels(label);
  return model;
}

}  // namespace qs
