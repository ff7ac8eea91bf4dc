// A client source that reaches into the engine instead of calling the
// service: the tree's layering check must refuse it (tests/CMakeLists.txt,
// layering_* tests).
#include "clients/cli/cli_common.h"
#include "core/base/status_macros.h"
