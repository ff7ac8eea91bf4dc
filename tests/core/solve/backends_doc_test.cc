// docs/backends.md against the backend registry: its opening names every
// registered backend beside a page that exists, and its "Samplers" section
// counts and names the CPU samplers, lists them (and auto) in its table of
// the common flags and gives each one a section. Adding a backend without
// its place on the page fails here.
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/base/worker_pool.h"
#include "core/solve/builtin_backends.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

using Names = std::set<std::string>;

std::string BackendsDoc() {
  return testing::ReadSourceFile("docs/backends.md");
}

std::string Show(const Names& names) {
  return "{" + absl::StrJoin(names, ", ") + "}";
}

// The `quoted` items of a markdown text.
Names Quoted(absl::string_view text) {
  Names items;
  std::vector<std::string> parts = absl::StrSplit(text, '`');
  for (size_t i = 1; i < parts.size(); i += 2) items.insert(parts[i]);
  return items;
}

// The paragraphs of a markdown text (blocks between blank lines).
std::vector<std::string> Paragraphs(const std::string& text) {
  return absl::StrSplit(text, "\n\n", absl::SkipWhitespace());
}

struct Registered {
  Names all;
  // The heuristic QUBO samplers of this machine: neither exact, remote,
  // working on the rules, taking higher-order models (qaoa's simulator) nor
  // sizing its own rounds (auto). docs/backends.md's "Samplers" is about them.
  Names cpu_samplers;
  Names own_rounds;  // auto
};

Registered RegisteredBackends() {
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  EXPECT_TRUE(RegisterBuiltinBackends(registry, options).ok());
  Registered registered;
  for (const Backend* backend : registry.All()) {
    const std::string name(backend->name());
    registered.all.insert(name);
    const BackendCapabilities caps = backend->capabilities();
    if (caps.sizes_own_rounds) registered.own_rounds.insert(name);
    if (!caps.exact && !caps.remote && !caps.rules && !caps.higher_order &&
        !caps.sizes_own_rounds)
      registered.cpu_samplers.insert(name);
  }
  return registered;
}

// The page's opening paragraph links each backend's page and names the
// backends it covers: `name` after each link.
TEST(BackendsDocTest, OpeningNamesEveryBackendBesideItsPage) {
  const std::string doc = BackendsDoc();
  ASSERT_FALSE(doc.empty()) << "docs/backends.md not found";
  std::string opening;
  for (const std::string& paragraph : Paragraphs(doc)) {
    // The names after the phrase (the sentence before it names `Solve`).
    const size_t at = paragraph.find("Each backend has its own page");
    if (at != std::string::npos) {
      opening = paragraph.substr(at);
      break;
    }
  }
  ASSERT_FALSE(opening.empty())
      << "docs/backends.md: no opening \"Each backend has its own page\"";
  const Names registered = RegisteredBackends().all;
  ASSERT_FALSE(registered.empty());
  EXPECT_EQ(Quoted(opening), registered)
      << "the opening of docs/backends.md names the backends "
      << Show(Quoted(opening)) << "; registered: " << Show(registered);
  // Every link there leads to a page of the tree.
  int links = 0;
  for (size_t at = opening.find("]("); at != std::string::npos;
       at = opening.find("](", at + 1)) {
    const size_t end = opening.find(')', at);
    const std::string target = opening.substr(at + 2, end - at - 2);
    ++links;
    EXPECT_TRUE(
        std::filesystem::is_regular_file(testing::SourcePath("docs/" + target)))
        << "docs/backends.md links " << target << ", which does not exist";
  }
  EXPECT_GT(links, 5);
}

constexpr absl::string_view kNumbers[] = {
    "no",    "one",   "two",  "three", "four",   "five",   "six",
    "seven", "eight", "nine", "ten",   "eleven", "twelve", "thirteen"};

// "Beside `cpu-sa`, six CPU samplers ...: `pt`, ... and `lns`." counts and
// names the CPU samplers.
TEST(BackendsDocTest, SamplersSectionCountsAndNamesTheCpuSamplers) {
  const std::string doc = BackendsDoc();
  ASSERT_FALSE(doc.empty()) << "docs/backends.md not found";
  std::string sentence;
  for (const std::string& paragraph : Paragraphs(doc)) {
    if (!absl::StartsWith(paragraph, "Beside `")) continue;
    sentence = paragraph.substr(0, paragraph.find(". "));
    break;
  }
  ASSERT_FALSE(sentence.empty())
      << "docs/backends.md: no paragraph \"Beside `cpu-sa`, N CPU samplers "
         "...: `a`, `b` ...\"";
  const Names cpu_samplers = RegisteredBackends().cpu_samplers;
  ASSERT_TRUE(cpu_samplers.contains("cpu-sa")) << Show(cpu_samplers);
  const Names named = Quoted(sentence);
  EXPECT_EQ(named, cpu_samplers)
      << "docs/backends.md: \"" << sentence << "\" names " << Show(named)
      << "; the CPU samplers are " << Show(cpu_samplers);
  // The count written in words: every CPU sampler but cpu-sa.
  const size_t others = cpu_samplers.size() - 1;
  ASSERT_LT(others, std::size(kNumbers));
  const std::string count =
      absl::StrCat(", ", kNumbers[others], " CPU samplers");
  EXPECT_TRUE(absl::StrContains(sentence, count))
      << "docs/backends.md: \"" << sentence << "\" should say \"" << count
      << "\" (" << Show(cpu_samplers) << ")";
}

// The table of the common flags has a row for auto and for every CPU
// sampler, and every CPU sampler but cpu-sa (whose page is annealer.md) a
// section of its own.
TEST(BackendsDocTest, SamplersTableAndSectionsNameEveryCpuSampler) {
  const std::string doc = BackendsDoc();
  ASSERT_FALSE(doc.empty()) << "docs/backends.md not found";
  Names rows, sections;
  bool in_table = false;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(doc, '\n'))) {
    if (absl::StartsWith(line, "| backend | `--reads` |")) {
      in_table = true;
      continue;
    }
    if (in_table) {
      if (!absl::StartsWith(line, "|")) {
        in_table = false;
      } else if (!absl::StartsWith(line, "| ---")) {
        const std::string first = line.substr(1, line.find('|', 1) - 1);
        for (const std::string& name : Quoted(first)) rows.insert(name);
      }
    }
    // "### `tabu`: ..." or "### Parallel tempering (`pt`)"; not the headings
    // of the generated reference ("### `pt` (`params.pt`)").
    if (absl::StartsWith(line, "### ") &&
        !absl::StrContains(line, "(`params.")) {
      for (const std::string& name : Quoted(line)) sections.insert(name);
    }
  }
  const Registered registered = RegisteredBackends();
  Names expected_rows = registered.cpu_samplers;
  expected_rows.insert(registered.own_rounds.begin(),
                       registered.own_rounds.end());
  EXPECT_EQ(rows, expected_rows)
      << "the table of --reads and --sweeps in docs/backends.md names "
      << Show(rows) << "; it should name auto and the CPU samplers "
      << Show(expected_rows);
  for (const std::string& name : registered.cpu_samplers) {
    if (name == "cpu-sa") continue;
    EXPECT_TRUE(sections.contains(name))
        << "docs/backends.md has no section (### ...`" << name << "`...)";
  }
}

}  // namespace
}  // namespace qs
