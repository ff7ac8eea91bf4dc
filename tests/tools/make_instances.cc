// Writes the reference QUBO instances (tests/testing/reference_instances.h)
// into a directory: NAME.qubo in the text format of `qsolve compile --export`
// (formats/qubo_text.h) and, for the puzzles whose reduction removes
// variables, NAME.map. From the repository root:
//
//   build/tests/tools/make_instances tests/data/instances
//
// The output is deterministic; reference_instances_test checks that the stored
// files are what this writes.
#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "formats/qubo_text.h"
#include "tests/testing/reference_instances.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: make_instances OUTPUT_DIR\n"
    "Writes the reference QUBO instances (NAME.qubo, and NAME.map where the\n"
    "reduction removes variables) into OUTPUT_DIR, e.g. tests/data/instances\n"
    "from the repository root.\n";

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (qs::tools::PrintUsageIfAsked(argc, argv, kUsage)) return 0;
  if (argc != 2) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  const std::string dir = argv[1];
  for (const auto& instance : qs::testing::ReferenceInstances()) {
    auto made = qs::testing::MakeInstance(instance);
    if (!made.ok()) {
      std::fprintf(stderr, "%s: %s\n", instance.name.c_str(),
                   std::string(made.status().message()).c_str());
      return 1;
    }
    auto text = qs::formats::FormatQuboText(made->model);
    if (!text.ok() || !WriteFile(dir + "/" + instance.name + ".qubo", *text))
      return 1;
    if (!made->variable_map.empty() &&
        !WriteFile(dir + "/" + instance.name + ".map",
                   qs::testing::FormatVariableMap(made->variable_map))) {
      return 1;
    }
    std::printf("%-18s n=%d terms=%d offset=%g ground=%s\n",
                instance.name.c_str(), made->model.num_variables(),
                made->model.w_size(), made->model.offset(),
                made->ground_energy ? absl::StrCat(*made->ground_energy).c_str()
                                    : "unknown");
  }
  return 0;
}
