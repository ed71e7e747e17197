#pragma once
// Named, typed, range-checked model inputs. A model declares its parameters once; the command
// line (`vibro describe`), the sweep-file parser and the HDF5 writer all read the same table.
#include <limits>
#include <string>
#include <vector>

namespace vibro {

enum class ParameterKind { Real, Integer, Choice };

// Where a key lives in a sweep file: [parameters], [initial] or [numerics].
enum class ParameterGroup { Physics, Initial, Numerics };

const char* group_section(ParameterGroup group);

struct ParameterSpec {
  std::string name;
  ParameterGroup group = ParameterGroup::Physics;
  ParameterKind kind = ParameterKind::Real;
  std::string unit;         // as the user writes it in a sweep file ("deg", "m/s^2", "-")
  std::string description;
  double default_value = 0.0;  // for Choice: index into `choices`
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_inclusive = true;
  bool max_inclusive = true;
  std::vector<std::string> choices;  // Choice only

  static ParameterSpec real(std::string name, ParameterGroup group, std::string unit, double value,
                            double lo, double hi, std::string description);
  static ParameterSpec choice(std::string name, ParameterGroup group, std::vector<std::string> choices,
                              std::string default_choice, std::string description);
  ParameterSpec& open_below() { min_inclusive = false; return *this; }
  ParameterSpec& open_above() { max_inclusive = false; return *this; }
  ParameterSpec& integer() { kind = ParameterKind::Integer; return *this; }

  bool in_range(double value) const;
  // "[0, 1)" or "one of: drop, first_impact, state"; used verbatim in error messages.
  std::string accepted_range() const;
  std::string format_value(double value) const;
  // Parses user text (a number, or a choice name); throws InputError naming the key and the range.
  double parse(const std::string& text) const;
};

// The values of every declared parameter of one case, in declaration order.
class ParameterSet {
 public:
  explicit ParameterSet(const std::vector<ParameterSpec>* specs);
  const std::vector<ParameterSpec>& specs() const { return *specs_; }
  int index_of(const std::string& name) const;  // -1 if unknown
  double get(const std::string& name) const;
  double at(int index) const { return values_[static_cast<std::size_t>(index)]; }
  void set(const std::string& name, double value);  // range-checked
  void set_at(int index, double value);              // range-checked
  const std::string& choice(const std::string& name) const;
  const std::vector<double>& values() const { return values_; }

 private:
  const std::vector<ParameterSpec>* specs_;
  std::vector<double> values_;
};

}  // namespace vibro
