// The registered flags of qs_server as text: its `--help` listing and the
// markdown flag tables of the docs (`--print_flag_tables`), both read from
// the ABSL_FLAG definitions so that the docs never repeat a default by hand.
#ifndef QS_SERVER_FLAG_TABLES_H_
#define QS_SERVER_FLAG_TABLES_H_

#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qs::server {

// The server's own flags (server/) and those its backends declare
// (core/sample/), by name; Abseil's and gRPC's are left out.
std::vector<const absl::CommandLineFlag*> ServerFlags();

// The flag groups, in the order the tables are printed.
std::vector<std::string> FlagGroups();
// The group a flag belongs to (its longest prefix in the group table).
std::string FlagGroupOf(absl::string_view flag_name);

// A flag's default as the tables show it: the literal value (`empty` for an
// empty string), followed by what that value means when the help says so in
// a clause `; <value>: <meaning>` (`; 0: one per core`, `; empty: off`).
std::string DefaultCell(const absl::CommandLineFlag& flag);

// The markdown table (flag | default | meaning) of one group.
// INVALID_ARGUMENT naming the known groups for an unknown one.
absl::StatusOr<std::string> FlagTable(absl::string_view group);
// Every group's table between `<!-- flags:begin GROUP -->` and
// `<!-- flags:end -->` lines, as scripts/update-flag-docs.sh splices them
// into the docs.
std::string AllFlagTables();

// The `--help` text: every server flag with its default and its help,
// wrapped to 80 columns.
std::string ServerFlagsHelp();

}  // namespace qs::server

#endif  // QS_SERVER_FLAG_TABLES_H_
