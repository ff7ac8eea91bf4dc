// docs/architecture.md against the build: its backend table names exactly the
// registered backends and its views table the registered generators and the
// families without rules, its layout names exactly the backend folders of
// core/sample/ and every file of proto/qs/v1/, every puzzle family (and its
// folder under core/families/) is named, the files it says declare metrics
// are those that do, its table of core's libraries is what
// core/CMakeLists.txt links, and its sections are numbered in order and every
// citation of one in the tree exists. A claim the page makes that the code
// does not back fails here.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

using Names = std::set<std::string>;

std::string ArchitectureDoc() {
  return testing::ReadSourceFile("docs/architecture.md");
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n');
}

// The `quoted` items of a markdown text.
std::vector<std::string> Quoted(absl::string_view text) {
  std::vector<std::string> items;
  std::vector<std::string> parts = absl::StrSplit(text, '`');
  for (size_t i = 1; i < parts.size(); i += 2) items.push_back(parts[i]);
  return items;
}

// The cells of a table row ("| a | b |" -> {"a", "b"}); empty for other lines.
std::vector<std::string> Cells(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  if (!absl::ConsumePrefix(&line, "|") || !absl::ConsumeSuffix(&line, "|"))
    return {};
  std::vector<std::string> cells = absl::StrSplit(line, '|');
  for (std::string& cell : cells) absl::StripAsciiWhitespace(&cell);
  return cells;
}

// The rows of the table whose header row starts with `first_header`.
std::vector<std::vector<std::string>> Table(const std::string& doc,
                                            absl::string_view first_header) {
  std::vector<std::vector<std::string>> rows;
  bool in_table = false;
  for (const std::string& line : Lines(doc)) {
    std::vector<std::string> cells = Cells(line);
    if (!in_table) {
      in_table = !cells.empty() && cells[0] == first_header;
      continue;
    }
    if (cells.empty()) break;
    if (absl::StartsWith(cells[0], "---")) continue;
    rows.push_back(std::move(cells));
  }
  return rows;
}

Names RegisteredBackends() {
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  EXPECT_TRUE(RegisterBuiltinBackends(registry, options).ok());
  Names names;
  for (const Backend* backend : registry.All())
    names.insert(std::string(backend->name()));
  return names;
}

std::string Show(const Names& names) {
  return "{" + absl::StrJoin(names, ", ") + "}";
}

TEST(ArchitectureDocTest, BackendTableNamesExactlyTheRegisteredBackends) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  Names documented;
  bool found = false;
  for (const auto& row : Table(doc, "extension point")) {
    if (row[0] != "solve backends") continue;
    found = true;
    for (const std::string& name : Quoted(row.back())) documented.insert(name);
  }
  ASSERT_TRUE(found) << "docs/architecture.md: no 'solve backends' row in "
                        "the registries table";
  const Names registered = RegisteredBackends();
  ASSERT_FALSE(registered.empty());
  EXPECT_EQ(documented, registered)
      << "the registries table of docs/architecture.md names "
      << Show(documented) << "; registered: " << Show(registered);
}

// §3's core/sample rows name each backend's folder: `cpu_sa/` in the
// core/sample/ row, or a row of its own (`core/sample/dwave/`).
TEST(ArchitectureDocTest, LayoutNamesExactlyTheBackendFolders) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  Names documented;
  for (const auto& row : Table(doc, "folder")) {
    const std::vector<std::string> folder = Quoted(row[0]);
    if (folder.size() != 1) continue;
    absl::string_view path = folder[0];
    if (path == "core/sample/") {
      for (const std::string& item : Quoted(row[1])) {
        if (absl::EndsWith(item, "/") && !absl::StrContains(item, ' '))
          documented.insert(std::string(absl::StripSuffix(item, "/")));
      }
    } else if (absl::ConsumePrefix(&path, "core/sample/")) {
      documented.insert(std::string(absl::StripSuffix(path, "/")));
    }
  }
  Names folders;
  for (const auto& entry : std::filesystem::directory_iterator(
           testing::SourcePath("core/sample"))) {
    if (entry.is_directory()) folders.insert(entry.path().filename().string());
  }
  ASSERT_FALSE(folders.empty()) << "core/sample/ not found";
  EXPECT_EQ(documented, folders)
      << "docs/architecture.md §3 names the backend folders "
      << Show(documented) << "; core/sample/ holds " << Show(folders);
  for (const std::string& backend : RegisteredBackends()) {
    EXPECT_TRUE(folders.contains(absl::StrReplaceAll(backend, {{"-", "_"}})))
        << "backend " << backend << " has no folder under core/sample/";
  }
}

TEST(ArchitectureDocTest, NamesEveryPuzzleFamily) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  const std::vector<const FamilyInfo*> families = BuiltinFamilies().All();
  ASSERT_FALSE(families.empty());
  for (const FamilyInfo* family : families) {
    const std::string quoted = "`" + family->name + "`";
    EXPECT_NE(doc.find(quoted), std::string::npos)
        << "docs/architecture.md does not name family " << quoted;
    const std::string folder = "`" + family->name + "/`";
    EXPECT_NE(doc.find(folder), std::string::npos)
        << "docs/architecture.md does not name the folder " << folder;
  }
}

// The views table's row of `view` (its first cell, e.g. "BuiltinGenerators()").
std::vector<std::string> ViewRow(const std::string& doc,
                                 absl::string_view view) {
  for (const auto& row : Table(doc, "view")) {
    const std::vector<std::string> quoted = Quoted(row[0]);
    if (quoted.size() == 1 && quoted[0] == view) return row;
  }
  return {};
}

TEST(ArchitectureDocTest, GeneratorsRowIsTheGeneratorRegistry) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  const std::vector<std::string> row = ViewRow(doc, "BuiltinGenerators()");
  ASSERT_FALSE(row.empty()) << "docs/architecture.md: no `BuiltinGenerators()` "
                               "row in the views table";
  Names documented;
  for (const std::string& name : Quoted(row.back())) documented.insert(name);
  Names registered;
  for (const std::string& name : BuiltinGenerators().Families())
    registered.insert(name);
  ASSERT_FALSE(registered.empty());
  EXPECT_EQ(documented, registered)
      << "the views table of docs/architecture.md names the generators "
      << Show(documented) << "; BuiltinGenerators() holds " << Show(registered);
}

// The encoders' row says "all but" the families that have no rules.
TEST(ArchitectureDocTest, EncodersRowNamesTheFamiliesWithoutRules) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  const std::vector<std::string> row = ViewRow(doc, "BuiltinEncoders()");
  ASSERT_FALSE(row.empty())
      << "docs/architecture.md: no `BuiltinEncoders()` row in the views table";
  ASSERT_TRUE(absl::StartsWith(row.back(), "all but "))
      << "docs/architecture.md: the encoders' row names the families without "
         "rules as \"all but ...\": "
      << row.back();
  Names documented;
  for (const std::string& name : Quoted(row.back())) documented.insert(name);
  Names without_rules;
  for (const FamilyInfo* family : BuiltinFamilies().All())
    if (family->rules == nullptr) without_rules.insert(family->name);
  EXPECT_EQ(documented, without_rules)
      << "the views table of docs/architecture.md says every family but "
      << Show(documented) << " has rules; the families without are "
      << Show(without_rules);
}

// §3's proto row names every file of proto/qs/v1/: a family's spec as
// `<family>.proto`, every other file by name.
TEST(ArchitectureDocTest, ProtoRowNamesEveryProtoFile) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  Names documented;
  for (const auto& row : Table(doc, "folder")) {
    const std::vector<std::string> folder = Quoted(row[0]);
    if (folder.size() != 1 || folder[0] != "proto/qs/v1/") continue;
    for (const std::string& item : Quoted(row[1])) documented.insert(item);
  }
  ASSERT_TRUE(documented.contains("<family>.proto"))
      << "docs/architecture.md §3: the proto/qs/v1/ row does not name the "
         "families' files as `<family>.proto`";
  Names families;
  for (const FamilyInfo* family : BuiltinFamilies().All())
    families.insert(family->name);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           testing::SourcePath("proto/qs/v1"))) {
    if (entry.path().extension() != ".proto") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(documented.contains(name) ||
                families.contains(entry.path().stem().string()))
        << "docs/architecture.md §3 does not name proto/qs/v1/" << name;
  }
  EXPECT_GT(files, 0) << "proto/qs/v1/ not found";
}

// Source files of the tree under `dir` with one of `extensions`, as paths
// relative to the source directory (node_modules and hidden folders skipped).
std::vector<std::string> SourceFiles(const std::string& dir,
                                     const Names& extensions) {
  std::vector<std::string> files;
  const std::filesystem::path root(testing::SourcePath(""));
  std::error_code error;
  std::filesystem::recursive_directory_iterator it(root / dir, error), end;
  for (; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() &&
        (name == "node_modules" || absl::StartsWith(name, "."))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() &&
        extensions.contains(it->path().extension().string()))
      files.push_back(std::filesystem::relative(it->path(), root).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A file declares metrics when it names a metric ("qs_...") and builds a
// Prometheus family or a backend's MetricSpec: the server's own metrics and
// those a backend declares through Backend::Metrics.
bool DeclaresMetrics(const std::string& text) {
  return absl::StrContains(text, "\"qs_") &&
         (absl::StrContains(text, "prometheus::Build") ||
          absl::StrContains(text, "std::vector<MetricSpec>"));
}

TEST(ArchitectureDocTest, NamesEveryFileThatDeclaresMetrics) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  Names documented;
  for (const std::string& paragraph :
       std::vector<std::string>(absl::StrSplit(doc, "\n\n"))) {
    if (!absl::StartsWith(paragraph, "Prometheus metrics are declared"))
      continue;
    const std::string text = absl::StrReplaceAll(paragraph, {{"\n", " "}});
    const size_t files = text.find("the files that declare metrics");
    if (files == std::string::npos) continue;
    const std::string rest = text.substr(files);
    for (const std::string& item : Quoted(rest)) documented.insert(item);
  }
  ASSERT_FALSE(documented.empty())
      << "docs/architecture.md: no paragraph \"Prometheus metrics are declared "
         "... the files that declare metrics are ...\"";
  Names declaring;
  for (const char* dir : {"core", "server", "clients", "formats"}) {
    for (const std::string& file : SourceFiles(dir, {".cc", ".h", ".inc"})) {
      if (DeclaresMetrics(testing::ReadSourceFile(file)))
        declaring.insert(file);
    }
  }
  ASSERT_TRUE(declaring.contains("server/metrics.cc")) << Show(declaring);
  EXPECT_EQ(documented, declaring)
      << "docs/architecture.md names the files that declare metrics "
      << Show(documented) << "; the tree's are " << Show(declaring);
}

// The section numbers of the page's "## N." and "### N.M" headings.
Names Sections(const std::string& doc) {
  Names sections;
  for (const std::string& line : Lines(doc)) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "## ") &&
        !absl::ConsumePrefix(&rest, "### "))
      continue;
    const std::string number(rest.substr(0, rest.find(' ')));
    if (!number.empty() && absl::ascii_isdigit(number[0]))
      sections.insert(std::string(absl::StripSuffix(number, ".")));
  }
  return sections;
}

TEST(ArchitectureDocTest, SectionsAreNumberedInOrder) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  int section = 0, subsection = 0;
  for (const std::string& line : Lines(doc)) {
    absl::string_view rest = line;
    const bool top = absl::ConsumePrefix(&rest, "## ");
    if (!top && !absl::ConsumePrefix(&rest, "### ")) continue;
    const std::string number(rest.substr(0, rest.find(' ')));
    if (number.empty() || !absl::ascii_isdigit(number[0])) continue;
    const std::vector<std::string> parts =
        absl::StrSplit(absl::StripSuffix(number, "."), '.');
    int first = 0, second = 0;
    ASSERT_TRUE(absl::SimpleAtoi(parts[0], &first)) << line;
    if (top) {
      EXPECT_EQ(first, section + 1)
          << "docs/architecture.md: " << line << " follows section " << section;
      section = first;
      subsection = 0;
      continue;
    }
    ASSERT_EQ(parts.size(), 2u) << line;
    ASSERT_TRUE(absl::SimpleAtoi(parts[1], &second)) << line;
    EXPECT_TRUE(first == section && second == subsection + 1)
        << "docs/architecture.md: " << line << " follows section " << section
        << "." << subsection;
    subsection = second;
  }
  EXPECT_GT(section, 0) << "docs/architecture.md has no numbered section";
}

// Every "architecture.md §N.M" in the tree (across a comment's line break
// too) names a section of the page.
TEST(ArchitectureDocTest, EveryCitationNamesASection) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  const Names sections = Sections(doc);
  std::vector<std::string> files = {"README.md", "CMakeLists.txt"};
  for (const char* dir : {"core", "server", "clients", "formats", "proto",
                          "tests", "docs", "cmake", "scripts", "deploy"}) {
    for (const std::string& file :
         SourceFiles(dir, {".cc", ".h", ".inc", ".md", ".txt", ".cmake",
                           ".proto", ".py", ".sh", ".js", ".html"}))
      files.push_back(file);
  }
  int citations = 0;
  for (const std::string& file : files) {
    const std::string text = testing::ReadSourceFile(file);
    for (size_t at = text.find("architecture.md"); at != std::string::npos;
         at = text.find("architecture.md", at + 1)) {
      size_t next = at + std::string("architecture.md").size();
      while (next < text.size() && absl::StrContains(" \t\n/#`", text[next]))
        ++next;
      absl::string_view rest = absl::string_view(text).substr(next);
      if (!absl::ConsumePrefix(&rest, "§")) continue;
      size_t length = 0;
      while (length < rest.size() &&
             (absl::ascii_isdigit(rest[length]) || rest[length] == '.'))
        ++length;
      const std::string section(absl::StripSuffix(rest.substr(0, length), "."));
      if (section.empty()) continue;  // "§N.M", the form, not a citation
      ++citations;
      EXPECT_TRUE(sections.contains(section))
          << file << " cites docs/architecture.md §" << section
          << ", which has no such section; it has " << Show(sections);
    }
  }
  EXPECT_GT(citations, 5);
}

// What core/CMakeLists.txt links from outside core/: link item (absl::* for
// any Abseil target) -> the folders (`exact/`) whose libraries name it.
using Links = std::map<std::string, Names>;

Links CoreLinks(const std::string& cmake) {
  // Comments out, then every qs_cc_library(...) and target_link_libraries(...)
  // call as its words.
  std::string text;
  for (const std::string& line : Lines(cmake))
    text += line.substr(0, line.find('#')) + "\n";
  struct Call {
    std::string function;
    std::vector<std::string> words;
  };
  std::vector<Call> calls;
  for (const char* function : {"qs_cc_library(", "target_link_libraries("}) {
    for (size_t at = text.find(function); at != std::string::npos;
         at = text.find(function, at + 1)) {
      if (at > 0 && (absl::ascii_isalnum(text[at - 1]) || text[at - 1] == '_'))
        continue;
      const size_t open = at + std::string(function).size();
      const size_t close = text.find(')', open);
      calls.push_back({function, absl::StrSplit(text.substr(open, close - open),
                                                absl::ByAnyChar(" \t\n"),
                                                absl::SkipEmpty())});
    }
  }
  // Libraries of core/ and the folder of each.
  std::map<std::string, std::string> folder_of;
  Names own = {"qs_core"};
  for (const Call& call : calls) {
    if (call.function != "qs_cc_library(") continue;
    std::string name, dir;
    for (size_t i = 0; i + 1 < call.words.size(); ++i) {
      if (call.words[i] == "NAME") name = call.words[i + 1];
      if (call.words[i] == "DIR") dir = call.words[i + 1];
    }
    own.insert(name);
    folder_of[name] = dir + "/";
  }
  const Names keywords = {"NAME",    "DIR",       "SUBDIRS",
                          "EXCLUDE", "DEPS",      "PUBLIC",
                          "PRIVATE", "INTERFACE", "PRIVATE_DEPS"};
  Links links;
  for (const Call& call : calls) {
    std::string library;
    bool deps = false;
    std::vector<std::string> items;
    if (call.function == "qs_cc_library(") {
      for (size_t i = 0; i < call.words.size(); ++i) {
        const std::string& word = call.words[i];
        if (word == "NAME") library = call.words[i + 1];
        if (keywords.contains(word)) {
          deps = word == "DEPS" || word == "PRIVATE_DEPS";
          continue;
        }
        if (deps) items.push_back(word);
      }
    } else {
      if (call.words.empty()) continue;
      library = call.words[0];
      for (size_t i = 1; i < call.words.size(); ++i)
        if (!keywords.contains(call.words[i])) items.push_back(call.words[i]);
    }
    if (!own.contains(library)) continue;  // a target outside core/
    for (std::string item : items) {
      if (own.contains(item)) continue;
      if (absl::StartsWith(item, "absl::")) item = "absl::*";
      links[item].insert(folder_of.contains(library) ? folder_of[library]
                                                     : "(" + library + ")");
    }
  }
  return links;
}

std::string Show(const Links& links) {
  std::string text;
  for (const auto& [item, folders] : links)
    text += "\n  " + item + " by " + Show(folders);
  return text;
}

TEST(ArchitectureDocTest, LinkTableIsWhatCoreLinks) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  Links documented;
  for (const auto& row : Table(doc, "library")) {
    ASSERT_EQ(row.size(), 3u) << "docs/architecture.md §2.1: a row of the "
                                 "link table without three cells";
    const std::vector<std::string> item = Quoted(row[1]);
    ASSERT_EQ(item.size(), 1u) << "docs/architecture.md §2.1: the link table's "
                                  "second cell names one link item: "
                               << row[1];
    Names& folders = documented[item[0]];
    for (const std::string& folder : Quoted(row[2])) folders.insert(folder);
  }
  ASSERT_FALSE(documented.empty())
      << "docs/architecture.md §2.1 has no link table";
  const std::string cmake = testing::ReadSourceFile("core/CMakeLists.txt");
  ASSERT_FALSE(cmake.empty()) << "core/CMakeLists.txt not found";
  const Links linked = CoreLinks(cmake);
  ASSERT_TRUE(linked.contains("absl::*")) << Show(linked);
  EXPECT_EQ(documented, linked)
      << "docs/architecture.md §2.1 says core/ links:" << Show(documented)
      << "\ncore/CMakeLists.txt links:" << Show(linked);
}

}  // namespace
}  // namespace qs
