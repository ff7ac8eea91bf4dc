// The table of the HTTP/JSON front's API routes (api_routes.h).
#include "server/http/api_routes.h"

#include "qs/v1/solve.pb.h"

namespace qs::server::http {

const std::vector<ApiRoute>& ApiRoutes() {
  using K = BodyKind;
  static const auto* const routes = new std::vector<ApiRoute>{
      {"/v1/solve", "POST", "Solve",
       "Compile and sample: a SolveHeader, SampleEvents as reads finish, "
       "Progress, then one SolveSummary, one JSON object per line",
       K::kJson, v1::SolveRequest::descriptor(), K::kNdjson,
       v1::SolveResponse::descriptor()},
      {"/v1/solve_batch", "POST", "SolveBatch",
       "Many puzzles: BatchItems in, BatchResults out in completion order",
       K::kNdjson, v1::BatchItem::descriptor(), K::kNdjson,
       v1::BatchResult::descriptor()},
      {"/v1/generate", "POST", "Generate",
       "Puzzles with proven-unique solutions, one per line as each is made",
       K::kJson, v1::GenerateRequest::descriptor(), K::kNdjson,
       v1::GeneratedPuzzle::descriptor()},
      {"/v1/compile", "POST", "Compile",
       "A puzzle's QUBO, its reduction stages and ground energy", K::kJson,
       v1::CompileRequest::descriptor(), K::kJson,
       v1::CompileResponse::descriptor()},
      {"/v1/validate", "POST", "Validate",
       "A board checked against the puzzle's rules", K::kJson,
       v1::ValidateRequest::descriptor(), K::kJson,
       v1::ValidateResponse::descriptor()},
      {"/v1/count", "POST", "Count",
       "A puzzle's solutions counted by the exact engines", K::kJson,
       v1::CountRequest::descriptor(), K::kJson,
       v1::CountResponse::descriptor()},
      {"/v1/draw", "POST", "Draw",
       "A puzzle and a solution of it drawn as a BoardPicture", K::kJson,
       v1::DrawRequest::descriptor(), K::kJson, v1::DrawResponse::descriptor()},
      {"/v1/backends", "GET", "ListBackends",
       "The sampling backends, their parameters and whether each is usable",
       K::kNone, nullptr, K::kJson, v1::ListBackendsResponse::descriptor()},
      {"/v1/families", "GET", "ListFamilies",
       "The puzzle families and raw model kinds, with their text formats",
       K::kNone, nullptr, K::kJson, v1::ListFamiliesResponse::descriptor()},
      {"/v1/parse", "POST", "Parse",
       "A puzzle text of a kind /v1/families lists, as its PuzzleSpec",
       K::kCustom, nullptr, K::kCustom, nullptr},
      {"/v1/format", "POST", "Format",
       "A PuzzleSpec as the text of a kind that has a writer", K::kCustom,
       nullptr, K::kCustom, nullptr},
      {"/v1/openapi.json", "GET", "OpenApi",
       "This document: the HTTP/JSON API, generated from the protos", K::kNone,
       nullptr, K::kCustom, nullptr},
  };
  return *routes;
}

std::string MethodOf(const std::string& path) {
  for (const ApiRoute& route : ApiRoutes()) {
    if (path == route.path) return route.rpc;
  }
  return "";
}

}  // namespace qs::server::http
