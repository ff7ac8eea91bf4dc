// The batch file format of `qsolve batch` and `qs_loadgen --mix`: one puzzle
// per line, each line carrying its kind and an optional id, so that one file
// can mix puzzle families.
//
//   [ID<TAB>]KIND<TAB>TEXT    tab-separated; TEXT may itself contain spaces
//   [ID ]KIND TEXT            space-separated: the first word is the id when
//                             the second word is a known kind
//
// KIND is a --kind of the CLI (sudoku, nqueens, queens, qubo, ...) and TEXT
// that kind's puzzle text; a ';' in TEXT stands for a line break (for the
// multi-line qubo format). Blank lines and lines starting with '#' are
// skipped. A line without an id gets its 1-based line number as id. Ids must
// be unique within a file, because each id gets exactly one result.
#ifndef QS_CLIENTS_FORMATS_BATCH_LINES_H_
#define QS_CLIENTS_FORMATS_BATCH_LINES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qs::formats {

struct BatchLine {
  int line_number = 0;  // 1-based line of the file
  std::string id;
  std::string kind;
  std::string text;  // ';' already turned into '\n'
};

// The puzzle lines of a batch file. Lines are split, not parsed as puzzles:
// a line with a bad kind or text still comes back (ParsePuzzleText reports
// it, so one bad line does not stop a batch). INVALID_ARGUMENT naming the
// lines when two lines share an id.
absl::StatusOr<std::vector<BatchLine>> ParseBatchLines(
    absl::string_view content);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_BATCH_LINES_H_
