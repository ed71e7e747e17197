#pragma once
// Periodic orbits by Newton shooting on the stroboscopic map: solve P^k(x) = x with the Jacobian
// M - I, M the monodromy matrix from the variational equations and saltation matrices (the model's
// Simulation::stroboscopic_map), so unstable orbits, which no simulation settles on, are found too.
// Where the model declares a half-period symmetry (engine/core/half_period_symmetry.hpp), a symmetric
// orbit is solved as a fixed point of the mirrored half-period map instead (analysis/symmetric_shooting).
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/model.hpp"

namespace vibro {

struct ShootingSettings {
  int max_iterations = 40;
  double tolerance = 1e-11;  // on |P^k(x) - x| in the layout's state scales (max-norm)
};

// A fixed point of the map is a periodic orbit only if it returns in the mode it started in (the
// sample's mode). A state carried over from a neighbouring orbit keeps that orbit's mode, which may not
// be the new orbit's (its state lies across a switching surface at the section): a converged state
// whose image is in another mode takes that mode and is corrected again, this many times at most.
inline constexpr int kModeRounds = 3;

struct PeriodicOrbit {
  bool converged = false;
  std::string reason;         // why not, when not converged
  StrobeSample state{};       // a point of the orbit on the section t = k T
  int periods = 1;            // k
  std::vector<std::complex<double>> multipliers;  // eigenvalues of the monodromy matrix, |.| descending
  double residual = 0;        // final |P^k(x) - x|, scaled
  // How far the orbit may lie from `state` (scaled max-norm): the residual Newton accepted over the
  // smallest singular value of the system it solved. Near a multiplier at +1 (a nearly neutral orbit,
  // not a fold) a state far off the orbit returns within the tolerance; 0: not estimated.
  double uncertainty = 0;
  int iterations = 0;
  long long events = 0;       // impacts along one period of the orbit
  long long switches = 0;     // mode changes located along it (MapStep::switches)
  // Solved as symmetric (x(t + kT/2) = R x(t)): a fixed point of G = S o P_{kT/2}, the mirrored
  // half-period map; `residual` and `uncertainty` are then G's, `multipliers` those of G's Jacobian
  // squared (the full-period monodromy), `events` and `switches` twice G's.
  bool symmetric = false;
  // G's multipliers (|.| descending) of a symmetric orbit, else empty: one through -1 breaks the
  // symmetry (a pitchfork of the full-period map, whose multiplier goes through +1).
  std::vector<std::complex<double>> half_multipliers;
  bool stable() const;        // every multiplier inside the unit circle
};

// What a shot knows of the orbit it looks for. Unknown: it solves P^k(x) = x and, where the model
// declares a half-period symmetry, takes the symmetric orbit when G has a fixed point within the found
// point's uncertainty. Symmetric: G alone (continuing a symmetric orbit). Asymmetric: P^k alone.
enum class OrbitSymmetry { Unknown, Symmetric, Asymmetric };

// What to expect of the next orbit along a branch whose orbit is `orbit`.
OrbitSymmetry symmetry_of(const PeriodicOrbit& orbit);

// Shoots from `guess` (e.g. the last stroboscopic sample of a near-periodic case) for a period-k
// orbit. Damped Newton: a step that does not reduce the residual is halved (up to 10 times). Models
// without a declared symmetry (and even k) take the full-period map whatever `expected` says.
PeriodicOrbit shoot_periodic_orbit(Simulation& simulation, const StrobeSample& guess, int periods,
                                   const ShootingSettings& settings = {},
                                   OrbitSymmetry expected = OrbitSymmetry::Unknown);

// The map whose fixed point a shot solves: the full-period map P^k, or the mirrored half-period map G
// (`half_period`: the full period's monodromy is its Jacobian squared, its impacts and mode changes
// twice the map's).
struct FixedPointMap {
  std::function<bool(const StrobeSample&, MapStep&)> apply;
  bool half_period = false;
};
FixedPointMap full_period_map(Simulation& simulation, int periods);

// Newton on map(x) - x from `guess` (shoot_periodic_orbit's corrector); `last`, when given, gets the
// map at the final state.
PeriodicOrbit solve_fixed_point(const FixedPointMap& map, const StrobeSample& guess, int periods,
                                const std::vector<double>& scales, const ShootingSettings& settings,
                                MapStep* last = nullptr);

// The full-period monodromy from a step of the map (its Jacobian, squared for a half-period map).
Eigen::MatrixXd full_period_jacobian(const MapStep& step, bool half_period);

// Whether the map leaves every state near this one where it is: M = I (to 1e-12). A state held for the
// whole period in a mode that freezes it (a sticking mode entered by a trial state with a velocity it
// then keeps) is such a "fixed point" with all its neighbours, none an orbit. Newton refuses such trial
// states. (At a fold M - I is singular in one direction only.) For a half-period map: M its Jacobian squared.
bool frozen_map(const MapStep& step, bool half_period = false);

// The residual Newton accepts over the smallest singular value of the Jacobian it solves with (in
// scaled units): how far from the found state the true fixed point may lie.
double fixed_point_uncertainty(double residual, double tolerance, const Eigen::MatrixXd& scaled_jacobian);

// The eigenvalues of a monodromy matrix, |.| descending (PeriodicOrbit::multipliers).
std::vector<std::complex<double>> sorted_multipliers(const Eigen::MatrixXd& monodromy);

}  // namespace vibro
