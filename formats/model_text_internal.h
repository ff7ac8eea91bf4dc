// What the model kind's readers and writers share (core/families/model/
// *_text.cc): a polynomial that merges equal monomials, the variables of a
// model being read with the line each first appears on, and the checks every
// writer makes; the kind's scoring (core/families/model/model.cc) evaluates
// and prints constraints with the same helpers. Not for use outside that
// folder.
#ifndef QS_FORMATS_MODEL_TEXT_INTERNAL_H_
#define QS_FORMATS_MODEL_TEXT_INTERNAL_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "qs/v1/model.pb.h"

namespace qs::formats::model_text {

// A polynomial being read: terms keep the order they first appear in, and a
// monomial met twice adds to its first coefficient (x*y and y*x are one).
class PolynomialBuilder {
 public:
  void Add(double coefficient, std::vector<uint32_t> variables);
  void AddConstant(double value) { constant_ += value; }
  void AddScaled(const PolynomialBuilder& other, double factor);
  double constant() const { return constant_; }
  bool has_terms() const { return !terms_.empty(); }
  // Terms whose coefficients cancelled are left out.
  v1::ModelPolynomial Build() const;

 private:
  std::vector<std::pair<std::vector<uint32_t>, double>> terms_;
  absl::flat_hash_map<std::vector<uint32_t>, size_t> index_;
  double constant_ = 0;
};

// The variables of a model being read, in order of first appearance.
class VariableTable {
 public:
  uint32_t Index(absl::string_view name, int line);
  size_t size() const { return names_.size(); }
  const std::string& name(uint32_t v) const { return names_[v]; }
  int first_line(uint32_t v) const { return lines_[v]; }

 private:
  std::vector<std::string> names_;
  std::vector<int> lines_;
  absl::flat_hash_map<std::string, uint32_t> index_;
};

// Variable indices in range, names present and unique: what a writer needs.
absl::Status CheckWritable(const v1::ConstrainedModel& model,
                           absl::string_view format);

// The polynomial's value at `values` (one per variable).
double Evaluate(const v1::ModelPolynomial& polynomial,
                std::span<const int64_t> values);

// The comparison of a constraint sense: "<=", ">=", or `equal` for an
// equality, which LP writes "=" and the violation messages "==".
absl::string_view SenseText(v1::ConstraintSense sense, absl::string_view equal);

}  // namespace qs::formats::model_text

#endif  // QS_FORMATS_MODEL_TEXT_INTERNAL_H_
