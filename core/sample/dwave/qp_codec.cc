// qp encoding and decoding (docs/dwave-protocol.md §1.4, §1.6).
#include "core/sample/dwave/qp_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace qs::dwave {
namespace {

static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559);

template <typename T>
void AppendLittleEndian(T value, std::string& out) {
  uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if constexpr (std::endian::native == std::endian::big)
    std::reverse(bytes, bytes + sizeof(T));
  out.append(reinterpret_cast<const char*>(bytes), sizeof(T));
}

template <typename T>
T ReadLittleEndian(const char* p) {
  uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, p, sizeof(T));
  if constexpr (std::endian::native == std::endian::big)
    std::reverse(bytes, bytes + sizeof(T));
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

absl::StatusOr<std::string> Unbase64(absl::string_view base64,
                                     absl::string_view field) {
  std::string raw;
  if (!absl::Base64Unescape(base64, &raw)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": not valid base64"));
  }
  return raw;
}

template <typename T>
absl::StatusOr<std::vector<T>> DecodeArray(absl::string_view base64,
                                           absl::string_view field) {
  auto raw = Unbase64(base64, field);
  if (!raw.ok()) return raw.status();
  if (raw->size() % sizeof(T) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": ", raw->size(), " bytes is not a multiple of ", sizeof(T)));
  }
  std::vector<T> values(raw->size() / sizeof(T));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = ReadLittleEndian<T>(raw->data() + i * sizeof(T));
  return values;
}

}  // namespace

std::string EncodeFloat64s(const std::vector<double>& values) {
  std::string raw;
  raw.reserve(values.size() * 8);
  for (double v : values) AppendLittleEndian(v, raw);
  return absl::Base64Escape(raw);
}

absl::StatusOr<std::vector<double>> DecodeFloat64s(absl::string_view base64,
                                                   absl::string_view field) {
  return DecodeArray<double>(base64, field);
}

std::string EncodeInt32s(const std::vector<int32_t>& values) {
  std::string raw;
  raw.reserve(values.size() * 4);
  for (int32_t v : values) AppendLittleEndian(v, raw);
  return absl::Base64Escape(raw);
}

absl::StatusOr<std::vector<int32_t>> DecodeInt32s(absl::string_view base64,
                                                  absl::string_view field) {
  return DecodeArray<int32_t>(base64, field);
}

absl::StatusOr<QpData> EncodeQp(
    const PhysicalProblem& problem, const std::vector<int>& qubits,
    const std::vector<std::pair<int, int>>& couplers) {
  absl::flat_hash_map<int, int> position;
  for (size_t i = 0; i < qubits.size(); ++i)
    position[qubits[i]] = static_cast<int>(i);
  absl::flat_hash_map<int, bool> active;
  for (const auto& [q, bias] : problem.linear) {
    if (!position.contains(q)) {
      return absl::InvalidArgumentError(
          absl::StrCat("qubit ", q, " is not a working qubit of the solver"));
    }
    active[q] = true;
  }
  // Biases per coupler, (a, b) and (b, a) summed.
  absl::flat_hash_map<std::pair<int, int>, double> quad;
  for (const auto& [edge, bias] : problem.quadratic) {
    const auto key = std::minmax(edge.first, edge.second);
    if (!position.contains(key.first) || !position.contains(key.second)) {
      return absl::InvalidArgumentError(
          absl::StrCat("coupler [", key.first, ",", key.second,
                       "] uses a qubit that is not working"));
    }
    quad[key] += bias;
    active[key.first] = true;
    active[key.second] = true;
  }
  absl::flat_hash_map<std::pair<int, int>, bool> known;
  for (const auto& [a, b] : couplers) known[std::minmax(a, b)] = true;
  for (const auto& [edge, bias] : quad) {
    if (!known.contains(edge)) {
      return absl::InvalidArgumentError(
          absl::StrCat("coupler [", edge.first, ",", edge.second,
                       "] is not a working coupler of the solver"));
    }
  }
  std::vector<double> lin(qubits.size());
  for (size_t i = 0; i < qubits.size(); ++i) {
    if (!active.contains(qubits[i])) {
      lin[i] = std::numeric_limits<double>::quiet_NaN();
    } else {
      auto it = problem.linear.find(qubits[i]);
      lin[i] = it == problem.linear.end() ? 0.0 : it->second;
    }
  }
  std::vector<double> quad_values;
  for (const auto& [a, b] : couplers) {
    if (!active.contains(a) || !active.contains(b)) continue;
    auto it = quad.find(std::minmax(a, b));
    quad_values.push_back(it == quad.end() ? 0.0 : it->second);
  }
  return QpData{EncodeFloat64s(lin), EncodeFloat64s(quad_values)};
}

absl::StatusOr<PhysicalProblem> DecodeQp(
    const QpData& data, const std::vector<int>& qubits,
    const std::vector<std::pair<int, int>>& couplers) {
  auto lin = DecodeFloat64s(data.lin, "data.lin");
  if (!lin.ok()) return lin.status();
  if (lin->size() != qubits.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("data.lin: ", lin->size(), " values for ", qubits.size(),
                     " working qubits"));
  }
  PhysicalProblem problem;
  for (size_t i = 0; i < qubits.size(); ++i) {
    const double v = (*lin)[i];
    if (std::isnan(v)) continue;
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("data.lin: infinite bias on qubit ", qubits[i]));
    }
    problem.linear[qubits[i]] = v;
  }
  auto quad = DecodeFloat64s(data.quad, "data.quad");
  if (!quad.ok()) return quad.status();
  size_t next = 0;
  for (const auto& [a, b] : couplers) {
    if (!problem.linear.contains(a) || !problem.linear.contains(b)) continue;
    if (next >= quad->size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("data.quad: ", quad->size(),
                       " values, fewer than the active couplers"));
    }
    const double v = (*quad)[next++];
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "data.quad: NaN or infinite bias on coupler [", a, ",", b, "]"));
    }
    problem.quadratic.push_back({{a, b}, v});
  }
  if (next != quad->size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "data.quad: ", quad->size(), " values for ", next, " active couplers"));
  }
  return problem;
}

absl::StatusOr<QpAnswer> DecodeQpAnswer(const QpAnswerFields& fields,
                                        QpProblemType type) {
  QpAnswer answer;
  answer.num_variables = fields.num_variables;
  auto active =
      DecodeInt32s(fields.active_variables, "answer.active_variables");
  if (!active.ok()) return active.status();
  answer.active_variables.assign(active->begin(), active->end());
  auto energies = DecodeFloat64s(fields.energies, "answer.energies");
  if (!energies.ok()) return energies.status();
  answer.energies = *std::move(energies);
  auto raw = Unbase64(fields.solutions, "answer.solutions");
  if (!raw.ok()) return raw.status();
  const size_t n = answer.active_variables.size();
  const size_t record = (n + 7) / 8;
  const size_t count = answer.energies.size();
  if (raw->size() != record * count) {
    return absl::InvalidArgumentError(
        absl::StrCat("answer.solutions: ", raw->size(), " bytes for ", count,
                     " solutions of ", n, " variables"));
  }
  const int8_t zero = type == QpProblemType::kQubo ? 0 : -1;
  answer.solutions.resize(count);
  for (size_t s = 0; s < count; ++s) {
    answer.solutions[s].resize(n);
    for (size_t v = 0; v < n; ++v) {
      const uint8_t byte = static_cast<uint8_t>((*raw)[s * record + v / 8]);
      answer.solutions[s][v] = ((byte >> (7 - v % 8)) & 1) ? 1 : zero;
    }
  }
  if (fields.num_occurrences.has_value()) {
    auto occ = DecodeInt32s(*fields.num_occurrences, "answer.num_occurrences");
    if (!occ.ok()) return occ.status();
    if (occ->size() != count) {
      return absl::InvalidArgumentError(
          absl::StrCat("answer.num_occurrences: ", occ->size(), " values for ",
                       count, " solutions"));
    }
    answer.num_occurrences.assign(occ->begin(), occ->end());
  } else {
    answer.num_occurrences.assign(count, 1);
  }
  return answer;
}

QpAnswerFields EncodeQpAnswer(const QpAnswer& answer) {
  QpAnswerFields fields;
  fields.num_variables = answer.num_variables;
  fields.active_variables = EncodeInt32s(std::vector<int32_t>(
      answer.active_variables.begin(), answer.active_variables.end()));
  const size_t n = answer.active_variables.size();
  const size_t record = (n + 7) / 8;
  std::string raw(record * answer.solutions.size(), '\0');
  for (size_t s = 0; s < answer.solutions.size(); ++s) {
    for (size_t v = 0; v < n; ++v) {
      if (answer.solutions[s][v] > 0)
        raw[s * record + v / 8] |= static_cast<char>(0x80 >> (v % 8));
    }
  }
  fields.solutions = absl::Base64Escape(raw);
  fields.energies = EncodeFloat64s(answer.energies);
  std::vector<int32_t> occ(answer.num_occurrences.begin(),
                           answer.num_occurrences.end());
  fields.num_occurrences = EncodeInt32s(occ);
  return fields;
}

}  // namespace qs::dwave
