// The clients name no puzzle family (docs/architecture.md §2.6): no C++ file
// of clients/cli/ or clients/loadgen/ mentions a registered family or one of
// its text kinds, in code or in comments. They learn the kinds from
// ListFamilies and send the text to Parse, so that a new family reaches them
// without an edit. The exceptions are the two model kinds whose files the
// formats library reads for the clients (formats::kQuboModelKind, raw
// models, and formats::kModelKind, constrained models: the clients read
// their --format and the file's extension).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "core/families/builtin.h"
#include "formats/model_text.h"
#include "formats/qubo_formats.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

TEST(FamilyNamesTest, ClientsNameNoFamily) {
  std::vector<std::string> names;
  for (const FamilyInfo* family : BuiltinFamilies().All()) {
    std::vector<std::string> own = family->text_kinds;
    own.push_back(family->name);
    for (const std::string& name : own) {
      if (name != formats::kQuboModelKind && name != formats::kModelKind)
        names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  ASSERT_GT(names.size(), 5u);
  std::vector<std::regex> patterns;
  for (const std::string& name : names)
    patterns.emplace_back("\\b" + name + "\\b", std::regex::icase);
  int files = 0;
  for (const char* dir : {"clients/cli", "clients/loadgen"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(
             testing::SourcePath(dir))) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        for (size_t k = 0; k < names.size(); ++k) {
          EXPECT_FALSE(std::regex_search(line, patterns[k]))
              << entry.path().string() << ":" << number << " names '"
              << names[k] << "': " << line;
        }
      }
    }
  }
  EXPECT_GT(files, 10);
}

}  // namespace
}  // namespace qs
