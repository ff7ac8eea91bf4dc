// docs/architecture.md against the registries: every registered backend and
// every puzzle family (and its folder under core/families/) is named in it, so
// the page cannot fall behind a new registration.
#include <string>

#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

std::string ArchitectureDoc() {
  return testing::ReadSourceFile("docs/architecture.md");
}

TEST(ArchitectureDocTest, NamesEveryRegisteredBackend) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_TRUE(RegisterBuiltinBackends(registry, options).ok());
  ASSERT_FALSE(registry.All().empty());
  for (const Backend* backend : registry.All()) {
    const std::string quoted = "`" + std::string(backend->name()) + "`";
    EXPECT_NE(doc.find(quoted), std::string::npos)
        << "docs/architecture.md does not name backend " << quoted;
  }
}

TEST(ArchitectureDocTest, NamesEveryPuzzleFamily) {
  const std::string doc = ArchitectureDoc();
  ASSERT_FALSE(doc.empty()) << "docs/architecture.md not found";
  const std::vector<const FamilyInfo*> families = BuiltinFamilies().All();
  ASSERT_FALSE(families.empty());
  for (const FamilyInfo* family : families) {
    const std::string quoted = "`" + family->name + "`";
    EXPECT_NE(doc.find(quoted), std::string::npos)
        << "docs/architecture.md does not name family " << quoted;
    const std::string folder = "`" + family->name + "/`";
    EXPECT_NE(doc.find(folder), std::string::npos)
        << "docs/architecture.md does not name the folder " << folder;
  }
}

}  // namespace
}  // namespace qs
