#include "jobs/sweep/case_result_codec.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <type_traits>

namespace vibro {

namespace {

// Entries of an array up to its last one that is not all zero bits: a sample's arrays are sized for
// the largest model (24 state components, 32 counters, 32 aux values), and a model fills a few.
// Encoding only those (the rest decode as zero bits) keeps every value bit for bit. Compared as
// 64-bit words (every sample array holds 8-byte entries), not by a memcmp call an entry (the calls
// were not inlined: 88 a final state).
template <class T, std::size_t N>
std::size_t used_entries(const std::array<T, N>& values) {
  static_assert(sizeof(T) == sizeof(std::uint64_t) && std::is_trivially_copyable_v<T>);
  const char* bytes = reinterpret_cast<const char*>(values.data());
  std::size_t n = N;
  for (; n > 0; --n) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes + (n - 1) * sizeof bits, sizeof bits);
    if (bits != 0) break;
  }
  return n;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Fields a record holds only where they differ from a fresh CaseResult's (bit for bit), flagged in
// one byte: a case without shooting, stretch exponents or a kept final state spends nothing on them.
enum Present : std::uint8_t { kResidual = 1, kStretch = 2, kFinalState = 4 };

// A sequence a record holds: a result's vector, or a summary's array.
template <class T>
struct Entries {
  const T* data = nullptr;
  std::size_t size = 0;
};
template <class T>
Entries<T> entries(const std::vector<T>& values) {
  return {values.data(), values.size()};
}

// The fields of a record, whoever holds them: one encoder for a CaseResult and for a SummaryCase,
// so that a case makes the same bytes either way.
struct RecordFields {
  CaseStatus status = CaseStatus::NotRun;
  std::string_view reason, class_code;
  Periodicity periodicity = Periodicity::NotConverged;
  int period = 0;
  bool stopped_early = false;
  int periods_run = 0, jumps = 0, window_periods = 0;
  double wall_seconds = 0;
  Entries<double> observables;
  Entries<std::int64_t> counters, window_counters;
  Entries<StrobePoint> strobe;
  Entries<std::complex<double>> floquet;
  Entries<double> lyapunov;
  std::int8_t shooting = -1;
  const StrobeSample* shot_state = nullptr;  // read only when shooting == 1
  double shooting_residual = 0;
  double stretch_exponent = 0;
  std::int32_t stretch_resets = -1;
  const StrobeSample* final_state = nullptr;  // null: not kept
};

RecordFields fields_of(const CaseResult& r, FinalState final_state) {
  RecordFields f;
  f.status = r.status;
  f.reason = r.reason;
  f.class_code = r.class_code;
  f.periodicity = r.periodicity;
  f.period = r.period;
  f.stopped_early = r.stopped_early;
  f.periods_run = r.periods_run;
  f.jumps = r.jumps;
  f.window_periods = r.window_periods;
  f.wall_seconds = r.wall_seconds;
  f.observables = entries(r.observables);
  f.counters = entries(r.counters);
  f.window_counters = entries(r.window_counters);
  f.strobe = entries(r.strobe);
  f.floquet = entries(r.floquet);
  f.lyapunov = entries(r.lyapunov);
  f.shooting = r.shooting;
  f.shot_state = &r.shot_state;
  f.shooting_residual = r.shooting_residual;
  f.stretch_exponent = r.stretch_exponent;
  f.stretch_resets = r.stretch_resets;
  f.final_state = final_state == FinalState::Kept && r.has_final_state ? &r.final_state : nullptr;
  return f;
}

// As record_summary_case's result would give them (no final state: see summary_case.hpp).
RecordFields fields_of(const SummaryCase& s) {
  const CaseResult& fresh = empty_case_result();
  RecordFields f;
  f.status = CaseStatus::Ok;
  f.class_code = s.class_code();
  f.periodicity = static_cast<Periodicity>(s.summary.periodicity);
  f.period = s.summary.period;
  f.periods_run = s.periods_run;
  f.window_periods = s.window_periods;
  f.wall_seconds = s.wall_seconds;
  f.observables = {s.summary.observables, static_cast<std::size_t>(s.summary.observable_count)};
  f.counters = {s.counters, static_cast<std::size_t>(s.counter_count)};
  f.window_counters = {s.window_counters, static_cast<std::size_t>(s.counter_count)};
  f.shooting = fresh.shooting;
  f.shooting_residual = fresh.shooting_residual;
  f.stretch_exponent = fresh.stretch_exponent;
  f.stretch_resets = fresh.stretch_resets;
  return f;
}

bool has_stretch(const RecordFields& f) {
  const CaseResult& fresh = empty_case_result();
  return f.stretch_resets != fresh.stretch_resets || !same_bits(f.stretch_exponent, fresh.stretch_exponent);
}

// Builds a record in a per-thread staging buffer through a raw pointer (one bounds check a field),
// then appends it to the caller's bytes in one copy: a vector::insert call a field was 3 % of a
// null-backend run's CPU.
class Writer {
 public:
  Writer() : buffer_(staging()), begin_(buffer_.data()), p_(begin_), end_(begin_ + buffer_.size()) {}
  char* data() const { return begin_; }
  std::size_t size() const { return static_cast<std::size_t>(p_ - begin_); }
  void put_bytes(const void* data, std::size_t n) {
    room(n);
    if (n > 0) std::memcpy(p_, data, n);
    p_ += n;
  }
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    put_bytes(&value, sizeof(T));
  }
  // Counts, sizes and small integers as varints (7 bits a byte): they are small, and every case's
  // record holds dozens of them.
  void put_varint(std::uint64_t value) {
    room(10);
    while (value >= 0x80) {
      *p_++ = static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    *p_++ = static_cast<char>(value);
  }
  // Signed, zigzagged: small of either sign, small in bytes.
  void put_count(std::int64_t value) {
    put_varint((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
  }
  void put(std::string_view text) {
    put_varint(text.size());
    put_bytes(text.data(), text.size());
  }
  template <class T>
  void put(Entries<T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put_varint(values.size);
    put_bytes(values.data, values.size * sizeof(T));
  }
  void put(Entries<std::int64_t> counts) {
    put_varint(counts.size);
    for (std::size_t i = 0; i < counts.size; ++i) put_count(counts.data[i]);
  }
  template <std::size_t N>
  void put_trimmed(const std::array<std::int64_t, N>& counts) {
    const std::size_t n = used_entries(counts);
    put(static_cast<std::uint8_t>(n));
    for (std::size_t i = 0; i < n; ++i) put_count(counts[i]);
  }
  template <class T, std::size_t N>
  void put_trimmed(const std::array<T, N>& values) {
    const std::size_t n = used_entries(values);
    put(static_cast<std::uint8_t>(n));
    put_bytes(values.data(), n * sizeof(T));
  }
  void put(const StrobeSample& s) {
    put(s.time);
    put_count(s.period);
    put_count(s.mode);
    put(s.drift_position);
    put_trimmed(s.state);
    put_trimmed(s.counters);
    put_trimmed(s.aux);
  }
  // A window's points share one width: the most state components any of them uses.
  void put(Entries<StrobePoint> points) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < points.size; ++i) width = std::max(width, used_entries(points.data[i].state));
    put_varint(points.size);
    put(static_cast<std::uint8_t>(width));
    for (std::size_t i = 0; i < points.size; ++i) {
      const StrobePoint& p = points.data[i];
      put_bytes(p.state.data(), width * sizeof(double));
      put(p.drift_position);
      put_count(p.mode);
    }
  }

 private:
  // Grown as records need, never shrunk: after the first few records no case allocates.
  static std::vector<char>& staging() {
    thread_local std::vector<char> bytes(4096);
    return bytes;
  }
  void room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(n);
  }
  void grow(std::size_t n) {
    const std::size_t used = size();
    buffer_.resize(std::max(2 * buffer_.size(), used + n));
    begin_ = buffer_.data();
    p_ = begin_ + used;
    end_ = begin_ + buffer_.size();
  }
  std::vector<char>& buffer_;
  char* begin_;
  char* p_;
  char* end_;
};

class Reader {
 public:
  Reader(const char* data, std::size_t size, std::size_t at) : data_(data), size_(size), at_(at) {}
  std::size_t at() const { return at_; }
  template <class T>
  void get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    std::memcpy(&value, data_ + at_, sizeof(T));
    at_ += sizeof(T);
  }
  std::uint64_t get_varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      need(1);
      const auto byte = static_cast<unsigned char>(data_[at_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    throw std::runtime_error("malformed case buffer (varint)");
  }
  std::int64_t get_count() {
    const std::uint64_t zigzag = get_varint();
    return static_cast<std::int64_t>(zigzag >> 1) ^ -static_cast<std::int64_t>(zigzag & 1);
  }
  // A signed varint into a narrower integer or enum; a value out of its range is malformed.
  template <class T>
  void get_small(T& value) {
    using Int = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
    const std::int64_t wide = get_count();
    if (wide < std::numeric_limits<typename Int::type>::min() || wide > std::numeric_limits<typename Int::type>::max())
      throw std::runtime_error("malformed case buffer (integer)");
    value = static_cast<T>(wide);
  }
  // A length of `bytes_each`-byte entries that must still lie within the record.
  std::size_t get_length(std::size_t bytes_each) {
    const std::uint64_t n = get_varint();
    if (n > size_ - at_ || (bytes_each > 0 && n * bytes_each > size_ - at_))
      throw std::runtime_error("malformed case buffer (length)");
    return static_cast<std::size_t>(n);
  }
  void get(std::string& text) {
    const std::size_t n = skip_text();
    text.assign(data_ + at_ - n, n);
  }
  // Passes over a text; returns its length.
  std::size_t skip_text() {
    const std::size_t n = get_length(1);
    at_ += n;
    return n;
  }
  template <class T>
  void get(std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    values.resize(get_length(sizeof(T)));
    get_bytes(values.data(), values.size() * sizeof(T));
  }
  void get(std::vector<std::int64_t>& counts) {
    counts.resize(get_length(1));  // a count takes a byte at least
    for (auto& c : counts) c = get_count();
  }
  template <std::size_t N>
  void get_trimmed(std::array<std::int64_t, N>& counts) {
    const std::size_t n = get_width(N);
    counts.fill(0);
    for (std::size_t i = 0; i < n; ++i) counts[i] = get_count();
  }
  template <class T, std::size_t N>
  void get_trimmed(std::array<T, N>& values) {
    const std::size_t n = get_width(N);
    values.fill(T{});
    get_bytes(values.data(), n * sizeof(T));
  }
  void get(StrobeSample& s) {
    get(s.time);
    get_small(s.period);
    get_small(s.mode);
    get(s.drift_position);
    get_trimmed(s.state);
    get_trimmed(s.counters);
    get_trimmed(s.aux);
  }
  void get(std::vector<StrobePoint>& points) {
    points.resize(get_length(sizeof(double) + 1));  // a point's drift and mode at least
    const std::size_t width = get_width(kMaxStrobeDims);
    for (auto& p : points) {
      p.state.fill(0.0);
      get_bytes(p.state.data(), width * sizeof(double));
      get(p.drift_position);
      get_small(p.mode);
    }
  }

 private:
  void need(std::size_t n) const {
    if (n > size_ || at_ > size_ - n) throw std::runtime_error("malformed case buffer (truncated)");
  }
  void get_bytes(void* out, std::size_t n) {
    need(n);
    if (n > 0) std::memcpy(out, data_ + at_, n);
    at_ += n;
  }
  // How many entries of an array of `most` the record holds.
  std::size_t get_width(std::size_t most) {
    std::uint8_t n = 0;
    get(n);
    if (n > most) throw std::runtime_error("malformed case buffer (array length)");
    return n;
  }
  const char* data_;
  std::size_t size_;
  std::size_t at_;
};

}  // namespace

namespace {

// The record, in the calling thread's staging buffer (valid until its next record).
std::string_view encode_fields(long long index, const RecordFields& r) {
  Writer w;
  w.put(std::uint32_t{0});  // the body's size, set below
  w.put_count(index);
  w.put(r.status);
  w.put(r.reason);
  w.put(r.class_code);
  w.put_count(static_cast<std::int64_t>(r.periodicity));
  w.put_count(r.period);
  w.put(r.stopped_early);
  w.put_count(r.periods_run);
  w.put_count(r.jumps);
  w.put_count(r.window_periods);
  w.put(r.wall_seconds);
  w.put(r.observables);
  w.put(r.counters);
  w.put(r.window_counters);
  w.put(r.strobe);
  w.put(r.floquet);
  w.put(r.lyapunov);
  w.put(r.shooting);
  const bool residual = !same_bits(r.shooting_residual, empty_case_result().shooting_residual);
  const auto present =
      static_cast<std::uint8_t>((residual ? kResidual : 0) | (has_stretch(r) ? kStretch : 0) | (r.final_state ? kFinalState : 0));
  w.put(present);
  // The two full samples only where they hold something, trimmed (put(StrobeSample)): every case's
  // record goes through the checkpoint log.
  if (r.shooting == 1) w.put(*r.shot_state);
  if (present & kResidual) w.put(r.shooting_residual);
  if (present & kStretch) {
    w.put(r.stretch_exponent);
    w.put_count(r.stretch_resets);
  }
  if (r.final_state) w.put(*r.final_state);
  const std::size_t body = w.size() - sizeof(std::uint32_t);
  if (body > std::numeric_limits<std::uint32_t>::max()) throw std::runtime_error("case record over 4 GB");
  const auto body_size = static_cast<std::uint32_t>(body);
  std::memcpy(w.data(), &body_size, sizeof body_size);
  return {w.data(), w.size()};
}

}  // namespace

std::string_view case_record(long long index, const CaseResult& r, FinalState final_state) {
  return encode_fields(index, fields_of(r, final_state));
}

std::string_view summary_record(const SummaryCase& s) { return encode_fields(s.index, fields_of(s)); }

void encode_case(long long index, const CaseResult& r, std::vector<char>& bytes, FinalState final_state) {
  const std::string_view record = case_record(index, r, final_state);
  bytes.insert(bytes.end(), record.begin(), record.end());
}

CaseHead read_case_head(const char* data, std::size_t size, std::size_t at) {
  Reader rd(data, size, at);
  std::uint32_t body = 0;
  rd.get(body);
  CaseHead head;
  head.next = rd.at() + body;
  if (head.next > size) throw std::runtime_error("malformed case buffer (truncated)");
  Reader in_body(data, head.next, rd.at());  // the head must lie within the body its size gives
  CaseStatus status{};
  in_body.get_small(head.index);
  in_body.get(status);
  head.reason_size = in_body.skip_text();
  head.class_size = in_body.skip_text();
  return head;
}

void decode_case(const char* data, std::size_t size, std::size_t& at, long long& index, CaseResult& r) {
  std::uint32_t body = 0;
  Reader prefix(data, size, at);
  prefix.get(body);
  const std::size_t end = prefix.at() + body;
  if (end > size) throw std::runtime_error("malformed case buffer (truncated)");
  Reader rd(data, end, prefix.at());
  rd.get_small(index);
  rd.get(r.status);
  rd.get(r.reason);
  rd.get(r.class_code);
  rd.get_small(r.periodicity);
  rd.get_small(r.period);
  rd.get(r.stopped_early);
  rd.get_small(r.periods_run);
  rd.get_small(r.jumps);
  rd.get_small(r.window_periods);
  rd.get(r.wall_seconds);
  rd.get(r.observables);
  rd.get(r.counters);
  rd.get(r.window_counters);
  rd.get(r.strobe);
  rd.get(r.floquet);
  rd.get(r.lyapunov);
  rd.get(r.shooting);
  std::uint8_t present = 0;
  rd.get(present);
  if (present & ~(kResidual | kStretch | kFinalState)) throw std::runtime_error("malformed case buffer (flags)");
  // What the record does not hold is reset: a reader may decode case after case into one result.
  const CaseResult& fresh = empty_case_result();
  if (r.shooting == 1) rd.get(r.shot_state);
  else r.shot_state = StrobeSample{};
  r.shooting_residual = fresh.shooting_residual;
  if (present & kResidual) rd.get(r.shooting_residual);
  r.stretch_exponent = fresh.stretch_exponent;
  r.stretch_resets = fresh.stretch_resets;
  if (present & kStretch) {
    rd.get(r.stretch_exponent);
    rd.get_small(r.stretch_resets);
  }
  r.has_final_state = (present & kFinalState) != 0;
  if (r.has_final_state) rd.get(r.final_state);
  else r.final_state = StrobeSample{};
  if (rd.at() != end) throw std::runtime_error("malformed case buffer (size)");
  at = end;
}

}  // namespace vibro
