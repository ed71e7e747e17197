#pragma once
// Which fields of a StrobeSample a batch kernel's to_strobe writes, when it says so: time, period,
// mode, drift_position, state[0, dims), counters[0, counters) and aux[0, aux), every one of them at
// every call, and no other field. read_row (engine/batch/read_row.hpp) then keeps a row's other
// fields by comparing them with the row's first sample's, not by copying each sample over the next.

namespace vibro {

struct StrobeFill {
  int dims = 0, counters = 0, aux = 0;
};

}  // namespace vibro
