#include "analysis/stretch_exponent.hpp"

#include <cmath>

namespace vibro {

StretchExponent largest_exponent_between_resets(Simulation& simulation, const StrobeSample& from, int periods,
                                                double period) {
  StretchExponent result;
  StrobeSample x = from;
  const auto fresh = [](Eigen::Index n) { return Eigen::VectorXd::Ones(n).normalized(); };
  Eigen::VectorXd v;
  double sum = 0;
  for (int p = 0; p < periods; ++p) {
    MapStep step;
    if (!simulation.stroboscopic_map(x, 1, step)) return result;  // NaN: the model has no map here
    if (v.size() == 0) v = fresh(step.jacobian.cols());
    x = step.image;
    if (step.resets > 0) {
      ++result.resets;
      v = fresh(v.size());
      continue;
    }
    const Eigen::VectorXd w = step.jacobian * v;
    const double growth = w.norm();
    if (!(growth > 0)) {  // the vector fell into a direction the map annihilates: start afresh
      v = fresh(v.size());
      continue;
    }
    sum += std::log(growth);
    ++result.periods_counted;
    v = w / growth;
  }
  if (result.periods_counted > 0) result.exponent = sum / (result.periods_counted * period);
  return result;
}

}  // namespace vibro
