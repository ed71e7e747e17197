#include "engine/core/half_period_symmetry.hpp"

#include <algorithm>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"

namespace vibro {

HalfPeriodSymmetry HalfPeriodSymmetry::with_signs(const std::vector<double>& signs) {
  HalfPeriodSymmetry symmetry;
  const Eigen::Map<const Eigen::VectorXd> diagonal(signs.data(), static_cast<Eigen::Index>(signs.size()));
  symmetry.reflection = diagonal.asDiagonal();
  return symmetry;
}

HalfPeriodSymmetry& HalfPeriodSymmetry::swap_modes(std::string a, std::string b) {
  swapped_modes.emplace_back(std::move(a), std::move(b));
  return *this;
}

StrobeSample StateMirror::apply(const StrobeSample& sample) const {
  StrobeSample out = sample;
  const auto n = reflection.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j) sum += reflection(i, j) * sample.state[static_cast<std::size_t>(j)];
    out.state[static_cast<std::size_t>(i)] = sum;
  }
  if (sample.mode >= 0 && sample.mode < static_cast<int>(mode_image.size()))
    out.mode = mode_image[static_cast<std::size_t>(sample.mode)];
  return out;
}

namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

StateMirror resolve_mirror(const HalfPeriodSymmetry& symmetry, const StrobeLayout& layout, const std::string& model) {
  const std::string where = "model " + model + ": the half-period symmetry";
  const auto n = static_cast<Eigen::Index>(layout.dims());
  const Eigen::MatrixXd& r = symmetry.reflection;
  if (r.rows() != n || r.cols() != n) {
    std::ostringstream why;
    why << where << " maps " << r.rows() << " x " << r.cols() << " state components; expected " << n << " x " << n
        << ", over the section's components (" << listed(layout.state_names) << ")";
    throw InputError(why.str());
  }
  if (!r.allFinite() || !(r * r - Eigen::MatrixXd::Identity(n, n)).isZero(1e-12))
    throw InputError(where + " is not an involution (R R = I is required: the mirror applied twice gives the state back, "
                             "e.g. a sign +1 or -1 per component)");
  StateMirror mirror;
  mirror.reflection = r;
  mirror.mode_image.resize(layout.mode_names.size());
  for (std::size_t i = 0; i < mirror.mode_image.size(); ++i) mirror.mode_image[i] = static_cast<int>(i);
  std::vector<bool> named(layout.mode_names.size(), false);
  const auto index_of = [&](const std::string& mode) {
    const auto it = std::find(layout.mode_names.begin(), layout.mode_names.end(), mode);
    if (it == layout.mode_names.end())
      throw InputError(where + " swaps an unknown mode '" + echoed(mode) + "'" + did_you_mean(mode, layout.mode_names) +
                       "; its modes: " + listed(layout.mode_names));
    const auto k = static_cast<std::size_t>(it - layout.mode_names.begin());
    if (named[k]) throw InputError(where + " names the mode '" + mode + "' in more than one pair (each mode has one image)");
    named[k] = true;
    return k;
  };
  for (const auto& [a, b] : symmetry.swapped_modes) {
    if (a == b) throw InputError(where + " swaps the mode '" + a + "' with itself (a mode named in no pair is its own image)");
    const std::size_t i = index_of(a), j = index_of(b);
    mirror.mode_image[i] = static_cast<int>(j);
    mirror.mode_image[j] = static_cast<int>(i);
  }
  return mirror;
}

HalfPeriodMap* symmetric_half_period_map(Simulation& simulation) {
  auto* map = dynamic_cast<HalfPeriodMap*>(&simulation);
  return map && map->half_period_mirror() ? map : nullptr;
}

}  // namespace vibro
