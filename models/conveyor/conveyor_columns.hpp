#pragma once
// The conveyor's case states as columns (structure of arrays) and the per-case work of the GPU's
// phase kernels (conveyor_phase_kernels.hpp): the flight kernel steps a case's free flight (its
// flights, in-flight samples and impacts: what most cases do most of the time) with its state in
// registers and, for the members it uses now and then, in place in the columns; the rare kernel the
// rest (the start, coupled motion with its stick and slip arcs) on a whole ConveyorState. Both
// take the steps of ConveyorKernel (conveyor_kernel.hpp), so a case stepped here is the CPU path's
// case bit for bit; the host runs these same functions in the tests (tests/conveyor/test_phase_steps.cpp).
//
// Why columns: one case copied into a thread is ~500 bytes of local memory, and every access to it
// an ld.local/st.local (bench/README.md); a column per member is read and written once per kernel,
// coalesced (neighbouring threads step neighbouring cases).
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "engine/core/host_device.hpp"
#include "models/conveyor/conveyor_kernel.hpp"

namespace vibro::conveyor {

// ConveyorState's members, each with its column's name: X(column, member). A flight's start and its gap
// function are one column each (a FlightStart, a PlateGap a case): one address reaches all their
// members, which saves the flight kernel registers (bench/README.md).
#define VIBRO_CONVEYOR_STATE_COLUMNS(X)                                                                     \
  X(next, next) X(stop, stop) X(stop_value, stop_value) X(theta, theta) X(vT, vT) X(x, x) X(periods, periods) \
  X(events_this_period, events_this_period) X(pending_u, pending_u) X(pending_grazing, pending_grazing)       \
  X(pending_flight, pending_flight) X(gap, gap) X(y_end, y_end) X(y_strobe, y_strobe) X(strobes, strobes)       \
  X(flight_grazing, flight_grazing) X(y_left, y_left) X(s, s) X(stick, stick) X(from_zero, from_zero)

template <class Member>
using ColumnOf = std::remove_cv_t<std::remove_reference_t<Member>>;

// n cases' states: one array per member, counters and aux as kCounterCount (kAuxCount) arrays of n
// (counter k of case i at [k * n + i]). Pointers into one block (columns_in): device or host memory.
struct ConveyorColumns {
  std::size_t n = 0;
#define VIBRO_COLUMN_POINTER(column, member) ColumnOf<decltype(std::declval<ConveyorState&>().member)>* column = nullptr;
  VIBRO_CONVEYOR_STATE_COLUMNS(VIBRO_COLUMN_POINTER)
#undef VIBRO_COLUMN_POINTER
  std::int64_t* counters = nullptr;
  double* aux = nullptr;
};

// Bytes of a block holding n cases' columns (each column aligned to 256 bytes).
inline std::size_t columns_bytes(std::size_t n) {
  std::size_t bytes = 0;
  const auto add = [&](std::size_t size) { bytes += (size * n + 255) / 256 * 256; };
#define VIBRO_COLUMN_SIZE(column, member) add(sizeof(ColumnOf<decltype(std::declval<ConveyorState&>().member)>));
  VIBRO_CONVEYOR_STATE_COLUMNS(VIBRO_COLUMN_SIZE)
#undef VIBRO_COLUMN_SIZE
  add(kCounterCount * sizeof(std::int64_t));
  add(kAuxCount * sizeof(double));
  return bytes;
}

// The columns of n cases carved out of `block` (columns_bytes(n) bytes, 256-byte aligned).
inline ConveyorColumns columns_in(void* block, std::size_t n) {
  ConveyorColumns cols;
  cols.n = n;
  auto* at = static_cast<unsigned char*>(block);
  const auto take = [&](auto*& column) {
    column = reinterpret_cast<std::remove_reference_t<decltype(column)>>(at);
    at += (sizeof(*column) * n + 255) / 256 * 256;
  };
#define VIBRO_COLUMN_TAKE(column, member) take(cols.column);
  VIBRO_CONVEYOR_STATE_COLUMNS(VIBRO_COLUMN_TAKE)
#undef VIBRO_COLUMN_TAKE
  cols.counters = reinterpret_cast<std::int64_t*>(at);
  at += (kCounterCount * sizeof(std::int64_t) * n + 255) / 256 * 256;
  cols.aux = reinterpret_cast<double*>(at);
  return cols;
}

// Case i's whole state from and to its columns (the rare kernel; the batch's uploads and restarts).
VIBRO_HD inline void load_state(const ConveyorColumns& cols, std::size_t i, ConveyorState& st) {
#define VIBRO_COLUMN_LOAD(column, member) st.member = cols.column[i];
  VIBRO_CONVEYOR_STATE_COLUMNS(VIBRO_COLUMN_LOAD)
#undef VIBRO_COLUMN_LOAD
  for (int k = 0; k < kCounterCount; ++k) st.counters[k] = cols.counters[static_cast<std::size_t>(k) * cols.n + i];
  for (int k = 0; k < kAuxCount; ++k) st.aux[k] = cols.aux[static_cast<std::size_t>(k) * cols.n + i];
}
VIBRO_HD inline void store_state(const ConveyorColumns& cols, std::size_t i, const ConveyorState& st) {
#define VIBRO_COLUMN_STORE(column, member) cols.column[i] = st.member;
  VIBRO_CONVEYOR_STATE_COLUMNS(VIBRO_COLUMN_STORE)
#undef VIBRO_COLUMN_STORE
  for (int k = 0; k < kCounterCount; ++k) cols.counters[static_cast<std::size_t>(k) * cols.n + i] = st.counters[k];
  for (int k = 0; k < kAuxCount; ++k) cols.aux[static_cast<std::size_t>(k) * cols.n + i] = st.aux[k];
}

// A case's entries of its columns, read and written in place by the flight kernel, for the members
// its steps use only now and then (the clock, the tangential motion, the event count, the counters,
// the aux values, a flight's start, gap function, end and samples, the pending impact, the failure):
// they take no registers across a flight's root search, and the steps' state machine carries none of
// them from step to step. Each holds the columns and the case, nothing more (every entry's address is computed
// where it is used, so that no register holds it). Reading back a stored double gives its bits.
// Bound to its entry when made; assigning one to another of the same column would copy the binding,
// not the value, so that is not allowed.
template <class T, T* ConveyorColumns::*kColumn>
struct ColumnValue {
  const ConveyorColumns* cols;
  std::size_t i;
  VIBRO_HD ColumnValue(const ConveyorColumns* columns, std::size_t case_index) : cols(columns), i(case_index) {}
  ColumnValue(const ColumnValue&) = default;
  ColumnValue& operator=(const ColumnValue&) = delete;
  VIBRO_HD T& at() const { return (cols->*kColumn)[i]; }
  VIBRO_HD operator T() const { return at(); }
  VIBRO_HD ColumnValue& operator=(T value) {
    at() = value;
    return *this;
  }
  VIBRO_HD ColumnValue& operator+=(T value) {
    at() += value;
    return *this;
  }
  VIBRO_HD ColumnValue& operator++() {
    ++at();
    return *this;
  }
};

// counters[k] and aux[k]: entry k of the case, in the k-th of kCounterCount (kAuxCount) columns.
template <class T, T* ConveyorColumns::*kColumns>
struct ColumnEntries {
  const ConveyorColumns* cols;
  std::size_t i;
  VIBRO_HD T& operator[](int k) const { return (cols->*kColumns)[static_cast<std::size_t>(k) * cols->n + i]; }
};

#if VIBRO_DEVICE_PASS
// Values the flight's root search reads where it uses them, each time, instead of holding them in
// registers across its loop: the compilers move no such load out of the loop (an inline-asm load for
// nvcc; ld.relaxed.cta for ptxas, which L1 still serves). The same bits as a plain load. The asm names
// no memory, so a caller that has just stored the value puts a compiler barrier between.
__device__ inline double reload(const double* p) {
  double v;
  asm volatile("ld.relaxed.cta.global.f64 %0, [%1];" : "=d"(v) : "l"(__cvta_generic_to_global(p)));
  return v;
}
// A case's constant (read-only in the kernels): through the read-only cache.
struct ConstantReader {
  const double* p;
  __device__ operator double() const { return __ldg(p); }
};
struct ColumnReader {
  const double* p;
  __device__ operator double() const { return reload(p); }
};
// The search's bounds -h'' <= G + A and h'' <= A - G (PlateGap::first_root), formed at each use.
struct GapBoundDown {
  const double* A;
  const double* G;
  __device__ operator double() const { return reload(G) + __ldg(A); }
};
struct GapBoundUp {
  const double* A;
  const double* G;
  __device__ operator double() const { return __ldg(A) - reload(G); }
};
struct GapBounds {
  ConstantReader K;
  GapBoundDown m_down;
  GapBoundUp m_up;
};
struct GapRootSettings {
  ConstantReader rtol;
  double initial_step = RootSettings{}.initial_step;
  double grazing_step = RootSettings{}.grazing_step;
};
#endif

// A flight's gap function, its coefficients read from its column at each evaluation.
struct ColumnGap {
  const ConveyorColumns* cols;
  std::size_t i;
  VIBRO_HD ColumnGap& operator=(const PlateGap& gap) {
    cols->gap[i] = gap;
    return *this;
  }
  VIBRO_HD Derivs operator()(double y) const {
    return cols->gap[i](y);
  }
  // PlateGap::first_root's search. On a GPU its limit (kept meanwhile where the flight's end goes), its
  // bounds and its accuracy are read where they are used; the same arithmetic.
  VIBRO_HD RootResult first_root(double y0, double y_max, const double& A, const double& rtol) const {
#if VIBRO_DEVICE_PASS
    cols->y_end[i] = y_max;
    asm volatile("" ::: "memory");  // the stores above (and the gap's) before the reloads below
    const double* G = &cols->gap[i].G;
    return certified_first_root(*this, y0, ColumnReader{&cols->y_end[i]}, GapBounds{{&A}, {&A, G}, {&A, G}},
                                GapRootSettings{{&rtol}});
#else
    const double G = cols->gap[i].G;
    RootSettings settings;
    settings.rtol = rtol;
    return certified_first_root(*this, y0, y_max, RootBounds{A, G + A, A - G}, settings);
#endif
  }
};

// What the flight steps of ConveyorKernel read and write (ConveyorState's members of the same names):
// the step to take next in a register (read at the start, written back at the end), the others in
// place in the columns.
struct FlightState {
  KernelNext next;
  ColumnValue<double, &ConveyorColumns::theta> theta;
  ColumnValue<KernelStop, &ConveyorColumns::stop> stop;
  ColumnValue<double, &ConveyorColumns::stop_value> stop_value;
  ColumnValue<double, &ConveyorColumns::vT> vT;
  ColumnValue<double, &ConveyorColumns::x> x;
  ColumnValue<std::int64_t, &ConveyorColumns::periods> periods;
  ColumnValue<double, &ConveyorColumns::events_this_period> events_this_period;
  ColumnValue<double, &ConveyorColumns::pending_u> pending_u;
  ColumnValue<bool, &ConveyorColumns::pending_grazing> pending_grazing;
  ColumnValue<FlightStart, &ConveyorColumns::pending_flight> pending_flight;
  ColumnGap gap;
  ColumnValue<double, &ConveyorColumns::y_end> y_end;
  ColumnValue<double, &ConveyorColumns::y_strobe> y_strobe;
  ColumnValue<int, &ConveyorColumns::strobes> strobes;
  ColumnValue<bool, &ConveyorColumns::flight_grazing> flight_grazing;
  ColumnEntries<std::int64_t, &ConveyorColumns::counters> counters;
  ColumnEntries<double, &ConveyorColumns::aux> aux;

  VIBRO_HD FlightState(const ConveyorColumns& cols, std::size_t i)
      : next(cols.next[i]), theta(&cols, i), stop(&cols, i), stop_value(&cols, i), vT(&cols, i), x(&cols, i),
        periods(&cols, i), events_this_period(&cols, i), pending_u(&cols, i), pending_grazing(&cols, i),
        pending_flight(&cols, i), gap{&cols, i}, y_end(&cols, i), y_strobe(&cols, i), strobes(&cols, i),
        flight_grazing(&cols, i), counters{&cols, i}, aux{&cols, i} {}

  // The member held in a register back into its column.
  VIBRO_HD void store(const ConveyorColumns& cols, std::size_t i) const {
    cols.next[i] = next;
  }
};

// The steps kSteps of state `st` until `periods` samples have been taken in this launch (`taken` so
// far; the first `unkept` of them are not written, the others go to row[taken - unkept]), the case
// fails, or its next step is not in kSteps. Returns how it ended.
template <unsigned kSteps, class State>
VIBRO_HD Stepped take_samples(const ConveyorConstants& c, State& st, const ConveyorStart* start, ConveyorSample* row,
                              int periods, int unkept, int& taken) {
  ConveyorKernel<NoObserver, State> kernel(c, st);
  Stepped how = Stepped::Sample;
  while (taken < periods) {
    how = kernel.template step<kSteps>(start, taken < unkept ? nullptr : row + (taken - unkept));
    if (how != Stepped::Sample) break;
    ++taken;
  }
  return how;
}
// Case i of the columns stepped so (take_samples), its state loaded before and stored after.
template <unsigned kSteps>
VIBRO_HD Stepped step_case(const ConveyorConstants& c, const ConveyorStart& start, const ConveyorColumns& cols,
                           std::size_t i, ConveyorSample* row, int periods, int unkept, int& taken) {
  if constexpr (kSteps == kFlightSteps) {
    FlightState st(cols, i);
    const Stepped how = take_samples<kSteps>(c, st, nullptr, row, periods, unkept, taken);
    st.store(cols, i);
    return how;
  } else {
    ConveyorState st;
    load_state(cols, i, st);
    const Stepped how = take_samples<kSteps>(c, st, &start, row, periods, unkept, taken);
    store_state(cols, i, st);
    return how;
  }
}

// Which kernel steps case i next: true the flight kernel, false the rare one (or none: failed).
VIBRO_HD inline bool in_flight(const ConveyorColumns& cols, std::size_t i) {
  return (kFlightSteps & step_bit(cols.next[i])) != 0;
}

}  // namespace vibro::conveyor
