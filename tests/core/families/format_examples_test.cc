// Each format example of docs/formats.md ("Raw models and benchmark formats")
// compiles to the energy and objective the page states for its assignment.
// An example is a fenced block after a marker line
//   <!-- example kind=qubo format=qbsolv assignment=0111 energy=-2 objective=-2
//   -->
// so the page cannot drift from what the readers and compilers do.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_formats.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

struct Example {
  std::map<std::string, std::string> keys;
  std::string text;
};

std::vector<Example> ReadmeExamples() {
  std::ifstream in(testing::SourcePath("docs/formats.md"));
  EXPECT_TRUE(in) << "docs/formats.md not found";
  std::vector<Example> examples;
  std::string line;
  while (std::getline(in, line)) {
    absl::string_view marker = line;
    if (!absl::ConsumePrefix(&marker, "<!-- example ") ||
        !absl::ConsumeSuffix(&marker, " -->"))
      continue;
    Example example;
    for (absl::string_view pair :
         absl::StrSplit(marker, ' ', absl::SkipEmpty())) {
      std::vector<std::string> kv =
          absl::StrSplit(pair, absl::MaxSplits('=', 1));
      if (kv.size() == 2) example.keys[kv[0]] = kv[1];
    }
    std::getline(in, line);  // the opening fence
    while (std::getline(in, line) && line.rfind("```", 0) != 0)
      example.text += line + "\n";
    examples.push_back(std::move(example));
  }
  return examples;
}

absl::StatusOr<v1::PuzzleSpec> Parse(const Example& e) {
  if (e.keys.at("kind") != "qubo")
    return formats::ParsePuzzleText(e.keys.at("kind"), e.text);
  formats::QuboReadOptions options;
  auto format = formats::ParseQuboFormatName(e.keys.at("format"));
  if (!format.ok()) return format.status();
  // The page shows what auto-detection gives.
  EXPECT_EQ(*formats::DetectQuboFormat(e.text), *format) << e.text;
  options.format = *format;
  return formats::ParseQuboPuzzleText(e.text, options);
}

TEST(ReadmeFormatExamples, CompileToTheStatedEnergies) {
  const CompilerRegistry& registry = BuiltinCompilers();
  std::set<std::string> formats_seen;
  for (const Example& e : ReadmeExamples()) {
    SCOPED_TRACE(e.text);
    formats_seen.insert(e.keys.count("format") ? e.keys.at("format")
                                               : e.keys.at("kind"));
    auto spec = Parse(e);
    ASSERT_TRUE(spec.ok()) << spec.status();
    auto compiler = registry.ForSpec(*spec);
    ASSERT_TRUE(compiler.ok());
    auto problem = (*compiler)->Compile(*spec, {});
    ASSERT_TRUE(problem.ok()) << problem.status();
    const std::string& assignment = e.keys.at("assignment");
    ASSERT_EQ(assignment.size(),
              static_cast<size_t>(problem->full_model.num_variables()));
    std::vector<uint8_t> bits;
    for (char c : assignment) bits.push_back(c == '1');
    double energy, objective;
    ASSERT_TRUE(absl::SimpleAtod(e.keys.at("energy"), &energy));
    ASSERT_TRUE(absl::SimpleAtod(e.keys.at("objective"), &objective));
    EXPECT_DOUBLE_EQ(problem->full_model.Energy(bits), energy);
    EXPECT_DOUBLE_EQ(*(*compiler)->Objective(*spec, energy), objective);
  }
  EXPECT_EQ(formats_seen, (std::set<std::string>{"text", "qbsolv", "orlib",
                                                 "coo", "ising", "maxcut"}));
}

}  // namespace
}  // namespace qs
