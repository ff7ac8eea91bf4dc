// Loads a reference instance of tests/data/instances (README.md there) as a
// Qubo, for the samplers' tests.
#ifndef QS_TESTS_TESTING_INSTANCE_QUBO_H_
#define QS_TESTS_TESTING_INSTANCE_QUBO_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/base/status_macros.h"
#include "core/qubo/qubo_proto.h"
#include "formats/qubo_text.h"
#include "tests/testing/source_files.h"

namespace qs::testing {

// "queens8" -> the model of tests/data/instances/queens8.qubo.
inline absl::StatusOr<Qubo> LoadInstance(const std::string& name) {
  ASSIGN_OR_RETURN(v1::QuboModel wire,
                   formats::ReadQuboFile(
                       SourcePath("tests/data/instances/" + name + ".qubo")));
  return QuboFromProto(wire);
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_INSTANCE_QUBO_H_
