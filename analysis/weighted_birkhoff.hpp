#pragma once
// Weighted Birkhoff averages (S. Das, Y. Saiki, E. Sander, J. A. Yorke, "Quantitative quasiperiodicity",
// Nonlinearity 30 (2017) 4111): the time average of a smooth observable f along an orbit, weighted
// by the smooth bump w(t) = exp(-1 / (t (1 - t))) on t = n / N,
//   WB_N(f) = sum_n w(n/N) f(x_n) / sum_n w(n/N),  n = 0 .. N-1,
// converges faster than any power of 1/N on a quasi-periodic orbit (a smooth invariant circle or torus
// with a Diophantine rotation vector) but only like 1/sqrt(N) on a chaotic one. Comparing the averages
// over two consecutive stretches of N points therefore tells a torus from chaos (the "dig" test of Das,
// Dock, Saiki, Salgado-Flores, Sander, Wu, Yorke, "Measuring quasiperiodicity", EPL 114 (2016) 40005).
#include <vector>

#include "engine/core/strobe_sample.hpp"

namespace vibro {

// WB_N of the values f(x_0), ..., f(x_{N-1}).
double weighted_birkhoff_average(const std::vector<double>& values);

// Largest difference between the weighted Birkhoff averages over the first and the second half of a
// window of stroboscopic samples, over the observables "each state component in the layout's scales"
// (cos and sin of it for an angle, StrobeLayout::angular) and "the drift increment over the following
// period in units of drift_scale * period", divided by the orbit's extent (the largest spread of any
// of these observables over the window). Samples 0 .. n-2
// carry the observables (the last one only closes the drift increment): two halves of (n-1)/2 points.
// 0 for a window whose observables do not vary; infinity for a window too short to halve.
double birkhoff_discrepancy(const std::vector<StrobeSample>& window, const StrobeLayout& layout);

}  // namespace vibro
