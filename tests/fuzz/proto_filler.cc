// Reflection-driven filling of protobuf messages from fuzzer bytes (see
// proto_filler.h).
#include "tests/fuzz/proto_filler.h"

#include <cmath>
#include <limits>
#include <string>

#include "google/protobuf/descriptor.h"

namespace qs::fuzz {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

void ProtoFiller::Fill(Message& message, int max_depth) {
  const google::protobuf::Descriptor& descriptor = *message.GetDescriptor();
  // Real oneofs come first; proto3 `optional` fields' synthetic ones follow.
  for (int o = 0; o < descriptor.real_oneof_decl_count(); ++o) {
    const google::protobuf::OneofDescriptor& oneof = *descriptor.oneof_decl(o);
    // 0: leave unset; k: set the k-th member.
    const int pick = input_.ConsumeIntegralInRange<int>(0, oneof.field_count());
    if (pick > 0) FillField(message, *oneof.field(pick - 1), max_depth);
  }
  for (int f = 0; f < descriptor.field_count(); ++f) {
    const FieldDescriptor& field = *descriptor.field(f);
    if (field.real_containing_oneof() != nullptr) continue;
    if (input_.ConsumeBool()) FillField(message, field, max_depth);
  }
}

void ProtoFiller::FillField(Message& message, const FieldDescriptor& field,
                            int depth) {
  const Reflection& reflection = *message.GetReflection();
  if (field.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    if (depth <= 0) return;
    if (field.is_repeated()) {
      const int count = input_.ConsumeIntegralInRange<int>(0, 8);
      for (int k = 0; k < count; ++k)
        Fill(*reflection.AddMessage(&message, &field), depth - 1);
    } else {
      Fill(*reflection.MutableMessage(&message, &field), depth - 1);
    }
    return;
  }
  if (field.is_repeated()) {
    const int count = RepeatedCount();
    for (int k = 0; k < count && input_.remaining_bytes() > 0; ++k)
      AddOrSetScalar(message, field);
  } else {
    AddOrSetScalar(message, field);
  }
}

// Board-shaped lengths are likely: a k x k grid or a Sudoku's (b^2)^2 cells.
int ProtoFiller::RepeatedCount() {
  switch (input_.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return input_.ConsumeIntegralInRange<int>(0, 8);
    case 1: {
      const int side = input_.ConsumeIntegralInRange<int>(1, 26);
      return side * side;
    }
    case 2: {
      const int box = input_.ConsumeIntegralInRange<int>(1, 5);
      return box * box * box * box;
    }
    default:
      return input_.ConsumeIntegralInRange<int>(0, 1024);
  }
}

uint64_t ProtoFiller::Unsigned(uint64_t max) {
  switch (input_.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return input_.ConsumeIntegralInRange<uint64_t>(0, 9);
    case 1:
      return input_.ConsumeIntegralInRange<uint64_t>(0, 64);
    case 2: {
      // The edges: 0, 1, max, max - 1, 2^31, 2^32 - 1 (clipped to max).
      const uint64_t edges[] = {0,          1, max, max - 1, uint64_t{1} << 31,
                                0xffffffffu};
      const uint64_t v = edges[input_.ConsumeIntegralInRange<int>(0, 5)];
      return v > max ? max : v;
    }
    default:
      return input_.ConsumeIntegralInRange<uint64_t>(0, max);
  }
}

int64_t ProtoFiller::Signed(int64_t min, int64_t max) {
  switch (input_.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return input_.ConsumeIntegralInRange<int64_t>(-2, 9);
    case 1:
      return input_.ConsumeIntegralInRange<int64_t>(0, 64);
    case 2: {
      const int64_t edges[] = {min, max, -1, 0, 1, min + 1};
      return edges[input_.ConsumeIntegralInRange<int>(0, 5)];
    }
    default:
      return input_.ConsumeIntegralInRange<int64_t>(min, max);
  }
}

double ProtoFiller::Double() {
  switch (input_.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return static_cast<double>(input_.ConsumeIntegralInRange<int>(-8, 8));
    case 1:
      return static_cast<double>(input_.ConsumeIntegralInRange<int>(-8, 8)) /
             4.0;
    case 2: {
      const double edges[] = {std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::max(),
                              std::numeric_limits<double>::lowest(),
                              std::numeric_limits<double>::denorm_min(),
                              1e300,
                              -0.0};
      return edges[input_.ConsumeIntegralInRange<int>(0, 7)];
    }
    default:
      return input_.ConsumeFloatingPoint<double>();
  }
}

void ProtoFiller::AddOrSetScalar(Message& message,
                                 const FieldDescriptor& field) {
  const Reflection& r = *message.GetReflection();
  const bool rep = field.is_repeated();
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: {
      const auto v =
          static_cast<int32_t>(Signed(std::numeric_limits<int32_t>::min(),
                                      std::numeric_limits<int32_t>::max()));
      rep ? r.AddInt32(&message, &field, v) : r.SetInt32(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      const int64_t v = Signed(std::numeric_limits<int64_t>::min(),
                               std::numeric_limits<int64_t>::max());
      rep ? r.AddInt64(&message, &field, v) : r.SetInt64(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      const auto v = static_cast<uint32_t>(Unsigned(0xffffffffu));
      rep ? r.AddUInt32(&message, &field, v) : r.SetUInt32(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      const uint64_t v = Unsigned(std::numeric_limits<uint64_t>::max());
      rep ? r.AddUInt64(&message, &field, v) : r.SetUInt64(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      const double v = Double();
      rep ? r.AddDouble(&message, &field, v) : r.SetDouble(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_FLOAT: {
      const auto v = static_cast<float>(Double());
      rep ? r.AddFloat(&message, &field, v) : r.SetFloat(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      const bool v = input_.ConsumeBool();
      rep ? r.AddBool(&message, &field, v) : r.SetBool(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      // Mostly a declared value; sometimes any number (proto3 enums are open).
      const google::protobuf::EnumDescriptor& e = *field.enum_type();
      const int v = input_.ConsumeIntegralInRange<int>(0, 7) != 0
                        ? e.value(input_.ConsumeIntegralInRange<int>(
                                      0, e.value_count() - 1))
                              ->number()
                        : input_.ConsumeIntegral<int>();
      rep ? r.AddEnumValue(&message, &field, v)
          : r.SetEnumValue(&message, &field, v);
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string v = input_.ConsumeRandomLengthString(64);
      // Proto3 string fields must hold UTF-8 to be serializable; bytes fields
      // take anything.
      if (field.type() == FieldDescriptor::TYPE_STRING) {
        for (char& c : v) c = static_cast<char>(c & 0x7f);
      }
      rep ? r.AddString(&message, &field, std::move(v))
          : r.SetString(&message, &field, std::move(v));
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
}

}  // namespace qs::fuzz
