// BoardPicture cells as rows of characters, so that tests of the families'
// drawings compare whole boards at a glance.
#ifndef QS_TESTS_TESTING_PICTURE_ROWS_H_
#define QS_TESTS_TESTING_PICTURE_ROWS_H_

#include <map>
#include <string>
#include <vector>

#include "qs/v1/drawing.pb.h"

namespace qs::testing {

// A character per cell: `letters` of its glyph (else of its text), '#' for a
// blocked cell without either, '.' for an empty one; '?' for a glyph or text
// that `letters` lacks.
inline std::vector<std::string> GlyphRows(
    const v1::BoardPicture& picture,
    const std::map<std::string, char>& letters) {
  std::vector<std::string> rows(picture.rows());
  for (int i = 0; i < picture.cells_size(); ++i) {
    const v1::PictureCell& cell = picture.cells(i);
    const std::string& name = cell.glyph().empty() ? cell.text() : cell.glyph();
    char ch = cell.blocked() ? '#' : '.';
    if (!name.empty()) {
      auto it = letters.find(name);
      ch = it == letters.end() ? '?' : it->second;
    }
    rows[i / picture.cols()].push_back(ch);
  }
  return rows;
}

// 'G' for a given cell, '.' for the others.
inline std::vector<std::string> GivenRows(const v1::BoardPicture& picture) {
  std::vector<std::string> rows(picture.rows());
  for (int i = 0; i < picture.cells_size(); ++i)
    rows[i / picture.cols()].push_back(picture.cells(i).given() ? 'G' : '.');
  return rows;
}

// The region colour of every cell, one digit or letter per cell (1-9, then
// a-z; '.' for none).
inline std::vector<std::string> RegionRows(const v1::BoardPicture& picture) {
  static constexpr char kDigits[] = ".123456789abcdefghijklmnopqrstuvwxyz";
  std::vector<std::string> rows(picture.rows());
  for (int i = 0; i < picture.cells_size(); ++i) {
    const uint32_t region = picture.cells(i).region();
    rows[i / picture.cols()].push_back(
        region < sizeof(kDigits) - 1 ? kDigits[region] : '+');
  }
  return rows;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_PICTURE_ROWS_H_
