#include "jobs/sweep/case_result_codec.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace vibro {

namespace {

// Entries of an array up to its last one that is not all zero bits: a sample's arrays are sized for
// the largest model (24 state components, 32 counters, 32 aux values), and a model fills a few.
// Encoding only those (the rest decode as zero bits) keeps every value bit for bit and a conveyor
// case's record at a fifth of its full size: every case goes through the log and back.
template <class T, std::size_t N>
std::size_t used_entries(const std::array<T, N>& values) {
  const T zero{};
  std::size_t n = N;
  while (n > 0 && std::memcmp(&values[n - 1], &zero, sizeof(T)) == 0) --n;
  return n;
}

class Writer {
 public:
  explicit Writer(std::vector<char>& bytes) : bytes_(bytes) {}
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  void put(const std::string& text) {
    put(static_cast<std::uint64_t>(text.size()));
    bytes_.insert(bytes_.end(), text.begin(), text.end());
  }
  template <class T>
  void put(const std::vector<T>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    for (const auto& v : values) put(v);
  }
  // Counts as varints (7 bits a byte, zigzag for the sign): event counters are small and every case's
  // record holds three sets of them.
  void put_varint(std::uint64_t value) {
    while (value >= 0x80) {
      bytes_.push_back(static_cast<char>((value & 0x7f) | 0x80));
      value >>= 7;
    }
    bytes_.push_back(static_cast<char>(value));
  }
  void put_count(std::int64_t value) {
    put_varint((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
  }
  void put(const std::vector<std::int64_t>& counts) {
    put_varint(counts.size());
    for (const auto c : counts) put_count(c);
  }
  template <std::size_t N>
  void put_trimmed(const std::array<std::int64_t, N>& counts) {
    const std::size_t n = used_entries(counts);
    put(static_cast<std::uint8_t>(n));
    for (std::size_t i = 0; i < n; ++i) put_count(counts[i]);
  }
  // The first n entries of `values` (n <= N, stored before them, once for all arrays that share it).
  template <class T, std::size_t N>
  void put_first(const std::array<T, N>& values, std::size_t n) {
    const auto* p = reinterpret_cast<const char*>(values.data());
    bytes_.insert(bytes_.end(), p, p + n * sizeof(T));
  }
  template <class T, std::size_t N>
  void put_trimmed(const std::array<T, N>& values) {
    const std::size_t n = used_entries(values);
    put(static_cast<std::uint8_t>(n));
    put_first(values, n);
  }
  void put(const StrobeSample& s) {
    put(s.time);
    put(s.period);
    put(s.mode);
    put(s.drift_position);
    put_trimmed(s.state);
    put_trimmed(s.counters);
    put_trimmed(s.aux);
  }
  // A window's points share one width: the most state components any of them uses.
  void put(const std::vector<StrobePoint>& points) {
    std::size_t width = 0;
    for (const auto& p : points) width = std::max(width, used_entries(p.state));
    put(static_cast<std::uint64_t>(points.size()));
    put(static_cast<std::uint8_t>(width));
    for (const auto& p : points) {
      put_first(p.state, width);
      put(p.drift_position);
      put(p.mode);
    }
  }

 private:
  std::vector<char>& bytes_;
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
  void get(std::string& text) {
    const std::size_t n = skip_text();
    text.assign(data_ + at_ - n, n);
  }
  // Passes over a text; returns its length.
  std::size_t skip_text() {
    std::uint64_t n = 0;
    get(n);
    need(n);
    at_ += n;
    return static_cast<std::size_t>(n);
  }
  template <class T>
  void get(std::vector<T>& values) {
    std::uint64_t n = 0;
    get(n);
    if (n > size_) throw std::runtime_error("malformed case buffer (length)");
    values.resize(n);
    for (auto& v : values) get(v);
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
  void get(std::vector<std::int64_t>& counts) {
    const std::uint64_t n = get_varint();
    if (n > size_) throw std::runtime_error("malformed case buffer (length)");
    counts.resize(n);
    for (auto& c : counts) c = get_count();
  }
  template <std::size_t N>
  void get_trimmed(std::array<std::int64_t, N>& counts) {
    std::uint8_t n = 0;
    get(n);
    if (n > N) throw std::runtime_error("malformed case buffer (array length)");
    counts.fill(0);
    for (std::size_t i = 0; i < n; ++i) counts[i] = get_count();
  }
  // n entries (as put_first), the rest zero.
  template <class T, std::size_t N>
  void get_first(std::array<T, N>& values, std::size_t n) {
    if (n > N) throw std::runtime_error("malformed case buffer (array length)");
    need(n * sizeof(T));
    values.fill(T{});
    std::memcpy(values.data(), data_ + at_, n * sizeof(T));
    at_ += n * sizeof(T);
  }
  template <class T, std::size_t N>
  void get_trimmed(std::array<T, N>& values) {
    std::uint8_t n = 0;
    get(n);
    get_first(values, n);
  }
  void get(StrobeSample& s) {
    get(s.time);
    get(s.period);
    get(s.mode);
    get(s.drift_position);
    get_trimmed(s.state);
    get_trimmed(s.counters);
    get_trimmed(s.aux);
  }
  void get(std::vector<StrobePoint>& points) {
    std::uint64_t n = 0;
    get(n);
    if (n > size_) throw std::runtime_error("malformed case buffer (length)");
    std::uint8_t width = 0;
    get(width);
    points.resize(n);
    for (auto& p : points) {
      get_first(p.state, width);
      get(p.drift_position);
      get(p.mode);
    }
  }

 private:
  void need(std::size_t n) const {
    if (n > size_ || at_ > size_ - n) throw std::runtime_error("malformed case buffer (truncated)");
  }
  const char* data_;
  std::size_t size_;
  std::size_t at_;
};

}  // namespace

void encode_case(long long index, const CaseResult& r, std::vector<char>& bytes) {
  const std::size_t head = bytes.size();
  Writer w(bytes);
  w.put(std::uint32_t{0});  // the body's size, set below
  w.put(index);
  w.put(r.status);
  w.put(r.reason);
  w.put(r.class_code);
  w.put(r.periodicity);
  w.put(r.period);
  w.put(r.stopped_early);
  w.put(r.periods_run);
  w.put(r.jumps);
  w.put(r.window_periods);
  w.put(r.wall_seconds);
  w.put(r.observables);
  w.put(r.counters);
  w.put(r.window_counters);
  w.put(r.strobe);
  w.put(r.floquet);
  // The two full samples only where they hold something, trimmed (put(StrobeSample)): every case's
  // record goes through the checkpoint log.
  w.put(r.shooting);
  w.put(r.shooting_residual);
  if (r.shooting == 1) w.put(r.shot_state);
  w.put(r.lyapunov);
  w.put(r.stretch_exponent);
  w.put(r.stretch_resets);
  w.put(r.has_final_state);
  if (r.has_final_state) w.put(r.final_state);
  const std::size_t body = bytes.size() - head - sizeof(std::uint32_t);
  if (body > std::numeric_limits<std::uint32_t>::max()) throw std::runtime_error("case record over 4 GB");
  const auto body_size = static_cast<std::uint32_t>(body);
  std::memcpy(bytes.data() + head, &body_size, sizeof body_size);
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
  in_body.get(head.index);
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
  rd.get(index);
  rd.get(r.status);
  rd.get(r.reason);
  rd.get(r.class_code);
  rd.get(r.periodicity);
  rd.get(r.period);
  rd.get(r.stopped_early);
  rd.get(r.periods_run);
  rd.get(r.jumps);
  rd.get(r.window_periods);
  rd.get(r.wall_seconds);
  rd.get(r.observables);
  rd.get(r.counters);
  rd.get(r.window_counters);
  rd.get(r.strobe);
  rd.get(r.floquet);
  rd.get(r.shooting);
  rd.get(r.shooting_residual);
  // A sample the record does not hold is reset: a reader may decode case after case into one result.
  if (r.shooting == 1) rd.get(r.shot_state);
  else r.shot_state = StrobeSample{};
  rd.get(r.lyapunov);
  rd.get(r.stretch_exponent);
  rd.get(r.stretch_resets);
  rd.get(r.has_final_state);
  if (r.has_final_state) rd.get(r.final_state);
  else r.final_state = StrobeSample{};
  if (rd.at() != end) throw std::runtime_error("malformed case buffer (size)");
  at = end;
}

}  // namespace vibro
