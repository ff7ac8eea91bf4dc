// The clients name no puzzle family (docs/architecture.md §2.3): no C++ file
// of clients/cli/ or clients/loadgen/ mentions a registered family or one of
// its text kinds, in code or in comments. They learn the kinds from
// ListFamilies and send the text to Parse, so that a new family reaches them
// without an edit. The exceptions are the two model kinds whose files the
// formats library reads for the clients (formats::kQuboModelKind, raw
// models, and formats::kModelKind, constrained models: the clients read
// their --format and the file's extension).
//
// The backends name no family either: no file of core/sample/ holds a string
// literal equal to a family's name, a text kind or a generator's name, the
// model kinds included. What a backend needs of a problem comes from what the
// family declares (PuzzleCompiler::Policy(), CompiledProblem), so that a new
// family gets the same treatment without an edit under core/sample/.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/families/builtin.h"
#include "core/generate/generator.h"
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

// A string literal of a C++ source and the line it starts on.
struct Literal {
  std::string text;
  int line = 0;
};

// The string literals of `source`, outside comments and character literals.
// Ordinary literals keep their escapes as written; raw literals (R"x(...)x")
// are read to their delimiter.
std::vector<Literal> StringLiterals(const std::string& source) {
  std::vector<Literal> literals;
  int line = 1;
  size_t i = 0;
  const size_t n = source.size();
  auto advance = [&](size_t to) {
    for (; i < to && i < n; ++i) line += source[i] == '\n';
  };
  while (i < n) {
    const char c = source[i];
    if (c == '/' && i + 1 < n && source[i + 1] == '/') {
      const size_t end = source.find('\n', i);
      advance(end == std::string::npos ? n : end);
    } else if (c == '/' && i + 1 < n && source[i + 1] == '*') {
      const size_t end = source.find("*/", i + 2);
      advance(end == std::string::npos ? n : end + 2);
    } else if (c == 'R' && i + 1 < n && source[i + 1] == '"' &&
               (i == 0 ||
                !(std::isalnum(static_cast<unsigned char>(source[i - 1])) ||
                  source[i - 1] == '_'))) {
      const size_t open = source.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = absl::StrCat(
          ")", absl::string_view(source).substr(i + 2, open - i - 2), "\"");
      const size_t end = source.find(close, open + 1);
      if (end == std::string::npos) break;
      literals.push_back({source.substr(open + 1, end - open - 1), line});
      advance(end + close.size());
    } else if (c == '\'' && i > 0 &&
               std::isxdigit(static_cast<unsigned char>(source[i - 1]))) {
      advance(i + 1);  // a digit separator (1'000), not a character literal
    } else if (c == '"' || c == '\'') {
      const int start_line = line;
      std::string text;
      size_t k = i + 1;
      for (; k < n && source[k] != c; ++k) {
        if (source[k] == '\\' && k + 1 < n) text += source[k++];
        text += source[k];
      }
      if (c == '"') literals.push_back({text, start_line});
      advance(k + 1);
    } else {
      advance(i + 1);
    }
  }
  return literals;
}

TEST(FamilyNamesTest, StringLiteralsAreFoundOutsideComments) {
  const std::vector<Literal> found = StringLiterals(
      "a = \"x\\\"y\";  // \"no\"\n"
      "/* \"no\" */ b = '\"'; c = R\"d(\"raw\")d\";\n"
      "d = 1'000; e = \"z\";\n");
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].text, "x\\\"y");
  EXPECT_EQ(found[0].line, 1);
  EXPECT_EQ(found[1].text, "\"raw\"");
  EXPECT_EQ(found[1].line, 2);
  EXPECT_EQ(found[2].text, "z");
  EXPECT_EQ(found[2].line, 3);
}

TEST(FamilyNamesTest, BackendsNameNoFamily) {
  // Every name a family is known by, the model kinds included: no
  // exemption.
  absl::flat_hash_set<std::string> names;
  for (const FamilyInfo* family : BuiltinFamilies().All()) {
    names.insert(family->name);
    names.insert(family->text_kinds.begin(), family->text_kinds.end());
    for (const PuzzleGenerator* generator : family->generators)
      names.insert(std::string(generator->family()));
  }
  for (const std::string& kind : BuiltinCompilers().Kinds()) names.insert(kind);
  names.insert(std::string(formats::kModelKind));
  names.insert(std::string(formats::kQuboModelKind));
  ASSERT_GT(names.size(), 10u);
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           testing::SourcePath("core/sample"))) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    ++files;
    std::ifstream in(entry.path());
    std::stringstream source;
    source << in.rdbuf();
    for (const Literal& literal : StringLiterals(source.str())) {
      EXPECT_FALSE(names.contains(absl::AsciiStrToLower(literal.text)))
          << entry.path().string() << ":" << literal.line << " names the family"
          << " or kind \"" << literal.text << "\"; a backend reads what the"
          << " family declares (PuzzleCompiler::Policy(), CompiledProblem)";
    }
  }
  // Every backend's folder is read, dwave's included.
  EXPECT_GT(files, 40);
}

}  // namespace
}  // namespace qs
