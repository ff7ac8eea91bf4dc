// A backend's part of a solve summary (qs.v1.BackendInfo), shown without
// knowing the backend: every set field by proto reflection, its own message
// (BackendInfo.<backend>) included, for the text output and the --json line.
#ifndef QS_CLIENTS_CLI_BACKEND_DETAILS_H_
#define QS_CLIENTS_CLI_BACKEND_DETAILS_H_

#include <string>

#include "google/protobuf/struct.pb.h"
#include "qs/v1/solve.pb.h"

namespace qs::cli {

// One line: "name: field value, field value, ..." with the backend's own
// message's fields as "message.field"; long lists are cut to their first
// values and their length.
std::string BackendDetailsText(const v1::BackendInfo& info);

// Adds to a --json line: for the backend's own message `m` (the set message
// field of BackendInfo), "m" holding all of its fields, and "m_<field>" for
// each of its set scalar fields ("qaoa_expectation").
void AddBackendDetailsJson(const v1::BackendInfo& info,
                           google::protobuf::Struct& out);

// A backend's parameter table (ListBackends), for `qsolve backends --describe
// NAME`: one row per parameter with its type, default, range, unit and help.
std::string BackendParamsText(const v1::BackendDescription& backend);

// One backend's parameter table as Markdown (`qsolve backends --markdown
// --describe NAME`): the generated table of the backend's own page, so that
// no page restates a default by hand.
std::string BackendParamsMarkdownTable(const v1::BackendDescription& backend);

// Every backend's parameter table as Markdown, the generated reference of
// docs/backends.md (`qsolve backends --markdown`).
std::string BackendParamsMarkdown(const v1::ListBackendsResponse& backends);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_BACKEND_DETAILS_H_
