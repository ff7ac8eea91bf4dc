// The Zip family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/zip/zip.h"

namespace qs {

// Defined in zip_rules.cc, zip_generator.cc and zip_drawing.cc.
std::unique_ptr<RulesEncoder> NewZipEncoder();
std::unique_ptr<PuzzleGenerator> NewZipGenerator();
absl::StatusOr<v1::BoardPicture> DrawZip(const v1::PuzzleSpec& puzzle,
                                         const v1::PuzzleSolution* solution);

Family NewZipFamily() {
  Family family;
  family.name = "zip";
  family.text_kinds = {"zip"};
  family.draw = &DrawZip;
  family.compiler = NewZipCompiler();
  family.rules = NewZipEncoder();
  family.generators.push_back(NewZipGenerator());
  return family;
}

}  // namespace qs
