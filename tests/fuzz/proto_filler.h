// Fills any protobuf message from fuzzer bytes through reflection, so every
// field of every puzzle family (proto/qs/v1/*.proto) is reached without a list
// to keep up to date: a family added to the PuzzleSpec oneof is fuzzed from
// the day it exists. Values lean towards what puzzle specs hold (small
// integers, square and fourth-power lengths for boards, the edges of each
// type) so that inputs get past the first checks, and the fuzzer's coverage
// feedback does the rest. The messages are well-formed protos; their contents
// are anything.
#ifndef QS_TESTS_FUZZ_PROTO_FILLER_H_
#define QS_TESTS_FUZZ_PROTO_FILLER_H_

#include <fuzzer/FuzzedDataProvider.h>

#include "google/protobuf/message.h"

namespace qs::fuzz {

class ProtoFiller {
 public:
  explicit ProtoFiller(FuzzedDataProvider& input) : input_(input) {}

  // Sets a fuzzer-chosen subset of `message`'s fields (one member of each
  // oneof at most), recursing into sub-messages up to `max_depth` levels.
  void Fill(google::protobuf::Message& message, int max_depth = 4);

 private:
  void FillField(google::protobuf::Message& message,
                 const google::protobuf::FieldDescriptor& field, int depth);
  void AddOrSetScalar(google::protobuf::Message& message,
                      const google::protobuf::FieldDescriptor& field);
  int RepeatedCount();
  uint64_t Unsigned(uint64_t max);
  int64_t Signed(int64_t min, int64_t max);
  double Double();

  FuzzedDataProvider& input_;
};

}  // namespace qs::fuzz

#endif  // QS_TESTS_FUZZ_PROTO_FILLER_H_
