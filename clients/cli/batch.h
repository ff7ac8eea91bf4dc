// `qsolve batch`: many puzzles from a batch file
// (formats/batch_lines.h) over SolveBatch streams to one or several
// servers, with bounded concurrency and retries, so that every input id gets
// exactly one JSON result line.
#ifndef QS_CLIENTS_CLI_BATCH_H_
#define QS_CLIENTS_CLI_BATCH_H_

namespace qs::cli {

// Runs the subcommand from the flags; returns the process exit code: 0 when
// every item was answered by a server (whatever the item's own status), 1 when
// some item ended without an answer (retries used up, deadline, refused
// stream), 2 for usage errors and unreadable input.
int Batch();

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_BATCH_H_
