// `qsolve bench`: time-to-solution of one or more models on one or more
// backends over a sweep of budgets, through a server's Solve RPC (so any
// backend the server has can be measured). Prints a table (or JSON lines),
// writes CSV and an SVG plot on request; see docs/benchmarks.md.
#ifndef QS_CLIENTS_CLI_BENCH_H_
#define QS_CLIENTS_CLI_BENCH_H_

namespace qs::cli {

// Runs the subcommand from the flags; returns the process exit code (0, 1 for
// a failed RPC, 2 for usage errors or unreadable models).
int Bench();

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_BENCH_H_
