// The one list of every built-in puzzle family (core/families/builtin.cc),
// the process-wide registry built from it, and the engines' views of it.
#ifndef QS_CORE_FAMILIES_BUILTIN_H_
#define QS_CORE_FAMILIES_BUILTIN_H_

#include "absl/status/status.h"
#include "core/compile/registry.h"
#include "core/exact/encoder.h"
#include "core/families/family.h"
#include "core/generate/generator.h"

namespace qs {

// Registers every built-in family.
absl::Status RegisterBuiltinFamilies(FamilyRegistry& registry);

// A registry with every built-in family, built once.
const FamilyRegistry& BuiltinFamilies();

// The built-in families' compilers, rules and generators.
const CompilerRegistry& BuiltinCompilers();
const EncoderRegistry& BuiltinEncoders();
const GeneratorRegistry& BuiltinGenerators();

}  // namespace qs

#endif  // QS_CORE_FAMILIES_BUILTIN_H_
