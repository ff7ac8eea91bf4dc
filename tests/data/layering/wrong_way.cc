// A source of the QUBO layer that reaches up into the solve engine: the
// layering check must refuse it (tests/CMakeLists.txt, layering_* tests).
#include "core/qubo/qubo.h"
#include "core/solve/solve_engine.h"
