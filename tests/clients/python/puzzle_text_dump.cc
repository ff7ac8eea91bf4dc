// The C++ text parsers' answers for the Python parser tests
// (tests/clients/python/test_formats.py): for each file (a puzzle text,
// optionally followed by a NUL and a board text, as the fuzz corpora hold
// them) one line
//   FILE \t spec|error \t HEX \t board|board_error|none \t HEX
//        \t text|text_error|none \t HEX
// where HEX is the serialized PuzzleSpec / PuzzleSolution, the text that
// FormatPuzzleText writes for the parsed puzzle, or the error message,
// hex-encoded so that any byte survives.
//
//   qs_puzzle_text_dump KIND FILE...
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"
#include "google/protobuf/message.h"

namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string Bytes(const std::string& text) { return text; }
std::string Bytes(const google::protobuf::Message& message) {
  return message.SerializeAsString();
}

// "kind\tHEX" of a parse or format result.
template <typename T>
std::string Field(const absl::StatusOr<T>& result, absl::string_view ok,
                  absl::string_view failed) {
  if (!result.ok()) {
    return std::string(failed) + "\t" +
           absl::BytesToHexString(result.status().message());
  }
  return std::string(ok) + "\t" + absl::BytesToHexString(Bytes(*result));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s KIND FILE...\n", argv[0]);
    return 2;
  }
  const std::string kind = argv[1];
  for (int k = 2; k < argc; ++k) {
    const std::string input = ReadFile(argv[k]);
    const size_t nul = input.find('\0');
    const absl::string_view text = absl::string_view(input).substr(0, nul);
    const auto spec = qs::formats::ParsePuzzleText(kind, text);
    std::string board = "none\t", written = "none\t";
    if (spec.ok()) {
      written = Field(qs::formats::FormatPuzzleText(kind, *spec), "text",
                      "text_error");
    }
    if (spec.ok() && nul != std::string::npos) {
      board =
          Field(qs::formats::ParseBoardText(kind, *spec, input.substr(nul + 1)),
                "board", "board_error");
    }
    std::printf("%s\t%s\t%s\t%s\n", argv[k],
                Field(spec, "spec", "error").c_str(), board.c_str(),
                written.c_str());
  }
  return 0;
}
