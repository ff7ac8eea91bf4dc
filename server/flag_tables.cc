// The registered flags of qs_server as --help text and markdown tables
// (flag_tables.h).
#include "server/flag_tables.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace qs::server {
namespace {

// The one place that sorts flags into the docs' tables: a flag belongs to the
// group of its longest matching prefix; "" takes every flag no other prefix
// claims. A new group needs a `<!-- flags:begin GROUP -->` block in some doc
// (scripts/update-flag-docs.sh --check fails until it has one).
struct GroupRule {
  absl::string_view prefix;
  absl::string_view group;
};
constexpr GroupRule kGroupRules[] = {
    {"", "server"},
    // What one request may ask for (docs/budgets.md).
    {"max_variables", "limits"},
    {"max_couplers", "limits"},
    {"max_model_mb", "limits"},
    {"max_reads", "limits"},
    {"max_sweeps", "limits"},
    {"max_attempts", "limits"},
    {"max_time_limit_seconds", "limits"},
    {"http_", "http"},
    {"dwave_", "dwave"},
    {"qaoa_", "qaoa"},
};

// Markdown table cells hold no unescaped pipe.
std::string Cell(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}});
}

// `text` broken into lines of at most `width` columns (a longer word stands
// alone), each starting with `indent`.
std::string Wrap(absl::string_view text, int indent, size_t width) {
  const std::string pad(indent, ' ');
  std::string out;
  std::string line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && pad.size() + line.size() + 1 + word.size() > width) {
      absl::StrAppend(&out, pad, line, "\n");
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? "" : " ", word);
  }
  if (!line.empty()) absl::StrAppend(&out, pad, line, "\n");
  return out;
}

}  // namespace

std::vector<const absl::CommandLineFlag*> ServerFlags() {
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    const std::string file = flag->Filename();
    if (absl::StrContains(file, "server/") ||
        absl::StrContains(file, "core/sample/")) {
      flags.push_back(flag);
    }
  }
  std::sort(flags.begin(), flags.end(),
            [](const absl::CommandLineFlag* a, const absl::CommandLineFlag* b) {
              return a->Name() < b->Name();
            });
  return flags;
}

std::vector<std::string> FlagGroups() {
  std::vector<std::string> groups;
  for (const GroupRule& rule : kGroupRules) {
    if (std::find(groups.begin(), groups.end(), rule.group) == groups.end())
      groups.emplace_back(rule.group);
  }
  return groups;
}

std::string FlagGroupOf(absl::string_view flag_name) {
  const GroupRule* best = nullptr;
  for (const GroupRule& rule : kGroupRules) {
    if (absl::StartsWith(flag_name, rule.prefix) &&
        (best == nullptr || rule.prefix.size() > best->prefix.size())) {
      best = &rule;
    }
  }
  return std::string(best->group);
}

std::string DefaultCell(const absl::CommandLineFlag& flag) {
  const std::string value = flag.DefaultValue();
  const std::string shown = value.empty() ? "empty" : value;
  std::string cell = value.empty() ? "empty" : absl::StrCat("`", value, "`");
  const std::string help = flag.Help();
  const std::string clause = absl::StrCat(shown, ": ");
  size_t start;
  if (absl::StartsWith(help, clause)) {
    start = clause.size();
  } else if (size_t at = help.find(absl::StrCat("; ", clause));
             at != std::string::npos) {
    start = at + 2 + clause.size();
  } else {
    return cell;
  }
  const size_t end = std::min(help.find("; ", start), help.find(". ", start));
  absl::StrAppend(&cell, " (", help.substr(start, end - start), ")");
  return cell;
}

absl::StatusOr<std::string> FlagTable(absl::string_view group) {
  const std::vector<std::string> groups = FlagGroups();
  if (std::find(groups.begin(), groups.end(), group) == groups.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--print_flag_tables: unknown group '", group,
                     "'; groups: ", absl::StrJoin(groups, ", ")));
  }
  std::string table = "| flag | default | meaning |\n| --- | --- | --- |\n";
  for (const absl::CommandLineFlag* flag : ServerFlags()) {
    if (FlagGroupOf(flag->Name()) != group) continue;
    absl::StrAppend(&table, "| `--", flag->Name(), "` | ",
                    Cell(DefaultCell(*flag)), " | ", Cell(flag->Help()),
                    " |\n");
  }
  return table;
}

std::string AllFlagTables() {
  std::string out;
  for (const std::string& group : FlagGroups()) {
    absl::StrAppend(&out, "<!-- flags:begin ", group, " -->\n\n",
                    *FlagTable(group), "\n<!-- flags:end -->\n");
  }
  return out;
}

std::string ServerFlagsHelp() {
  std::string out;
  for (const absl::CommandLineFlag* flag : ServerFlags()) {
    absl::StrAppend(&out, "  --", flag->Name(), " (default \"",
                    flag->DefaultValue(), "\")\n", Wrap(flag->Help(), 6, 80));
  }
  return out;
}

}  // namespace qs::server
