#include "models/conveyor/conveyor_parameters.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "engine/core/reproducible_trig.hpp"

namespace vibro::conveyor {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
using G = ParameterGroup;

// The clock's phase (omega t mod 2 pi) where the plate's phase is theta in [0, 2 pi) (inf stays inf):
// theta itself when phase = 0.
double to_clock(double theta, double phase) {
  if (std::isinf(theta)) return theta;
  const double clock = theta - phase;
  const double reduced = clock < 0 ? clock + 2 * kPi : clock;
  return reduced >= 2 * kPi ? 0.0 : reduced;  // just below 0 rounds up to 2 pi
}

std::vector<ParameterSpec> make_specs() {
  return {
      ParameterSpec::real("a_hat", G::Physics, "m/s^2", 50, 0, 1e4,
                          "acceleration amplitude of the plate along its line of motion"),
      ParameterSpec::real("f", G::Physics, "Hz", 50, 0, 1e5, "excitation frequency").open_below(),
      ParameterSpec::real("phi", G::Physics, "deg", 12, 0, 90, "angle of throw (plate motion line vs trough)")
          .open_below(),
      ParameterSpec::real("c_r", G::Physics, "-", 0.6, 0, 1, "coefficient of restitution (Newton)").open_above(),
      ParameterSpec::real("mu", G::Physics, "-", 0.15, 0, 10, "Coulomb friction coefficient (sliding = static)"),
      ParameterSpec::real("m", G::Physics, "kg", 0.7e-3, 0, kInf, "part mass (cancels out of every law)")
          .open_below(),
      ParameterSpec::real("g", G::Physics, "m/s^2", 9.81, 0, 1e3, "gravity").open_below(),
      ParameterSpec::real("phase", G::Physics, "rad", 0, -1e3, 1e3,
                          "the plate's phase at t = 0: it moves as A sin(omega t + phase) (the stroboscopic section "
                          "t = k T at another phase of its motion)"),
      ParameterSpec::choice("start", G::Initial, {"drop", "first_impact", "state"}, "drop",
                            "drop: from height z0 at t = 0; first_impact: impact at phase psi1 with approach "
                            "speed v1; state: general flight state (theta0, h0, u0, vT0)"),
      ParameterSpec::real("z0", G::Initial, "m", 0, 0, 1, "drop: initial height above the plate (its mean position when phase = 0)"),
      ParameterSpec::real("v0", G::Initial, "m/s", 0, -100, 100, "drop: initial absolute normal velocity"),
      ParameterSpec::real("vT0", G::Initial, "m/s", 0, -100, 100, "initial tangential velocity (all starts)"),
      ParameterSpec::choice("on_plate", G::Initial, {"coupled", "impact"}, "coupled",
                            "drop with z0 = 0: rest on the plate (coupled motion) or an impact at t = 0"),
      ParameterSpec::real("v1", G::Initial, "m/s", 0.1, 0, 100,
                          "first_impact: absolute normal approach speed just before the first impact"),
      ParameterSpec::real("psi1", G::Initial, "deg", 90, 0, 360, "first_impact: the plate's phase at the first impact")
          .open_above(),
      ParameterSpec::real("theta0", G::Initial, "rad", 0, 0, 1e6, "state: start phase omega t (the plate's: omega t + phase; may exceed 2 pi)"),
      ParameterSpec::real("h0", G::Initial, "m", 0, 0, 1, "state: gap to the plate"),
      ParameterSpec::real("u0", G::Initial, "m/s", 0, -100, 100,
                          "state: relative normal velocity (> 0 separating; <= 0 with h0 = 0 means contact)"),
      ParameterSpec::real("u_tol", G::Numerics, "m/s", 1e-9, 0, 1e-3,
                          "accumulation (Zeno) threshold on the rebound velocity").open_below(),
      ParameterSpec::real("root_rtol", G::Numerics, "-", 1e-13, 1e-15, 1e-6, "relative accuracy of event times"),
      ParameterSpec::choice("coupled_friction", G::Numerics, {"coulomb", "eq62"}, "coulomb",
                            "coupled-motion friction: full Coulomb stick/slip, or the paper's Eq. 62 (fixed sign)"),
      ParameterSpec::real("event_cap", G::Numerics, "1/period", 1e4, 10, 1e8,
                          "events per period above which a case fails (guards against an unresolved Zeno)"),
  };
}
}  // namespace

const std::vector<ParameterSpec>& conveyor_parameter_specs() {
  static const std::vector<ParameterSpec> specs = make_specs();
  return specs;
}

namespace {

// A conveyor parameter read by its place in conveyor_parameter_specs(), found by name once: a case's
// twenty lookups by name (a string made, then compared with every name before it) were some 3 % of
// the CPU of a batched 10^6-case map, in making its cases. A set over another list is read by name.
class Parameter {
 public:
  explicit Parameter(const char* name) : name_(name) {
    const std::vector<ParameterSpec>& own = conveyor_parameter_specs();
    for (std::size_t i = 0; i < own.size(); ++i)
      if (own[i].name == name_) {
        index_ = static_cast<int>(i);  // the first of that name, as ParameterSet::index_of
        break;
      }
  }
  double value(const ParameterSet& p) const { return own(p) ? p.at(index_) : p.get(name_); }
  // As ParameterSet::choice.
  const std::string& choice(const ParameterSet& p) const {
    if (!own(p)) return p.choice(name_);
    return p.specs()[static_cast<std::size_t>(index_)].choices.at(static_cast<std::size_t>(p.at(index_)));
  }

 private:
  bool own(const ParameterSet& p) const { return index_ >= 0 && &p.specs() == &conveyor_parameter_specs(); }
  std::string name_;
  int index_ = -1;
};

// The parameters from() reads, found once.
struct NamedParameters {
  const Parameter a_hat{"a_hat"};
  const Parameter c_r{"c_r"};
  const Parameter coupled_friction{"coupled_friction"};
  const Parameter event_cap{"event_cap"};
  const Parameter f{"f"};
  const Parameter g{"g"};
  const Parameter h0{"h0"};
  const Parameter mu{"mu"};
  const Parameter on_plate{"on_plate"};
  const Parameter phase{"phase"};
  const Parameter phi{"phi"};
  const Parameter psi1{"psi1"};
  const Parameter root_rtol{"root_rtol"};
  const Parameter start{"start"};
  const Parameter theta0{"theta0"};
  const Parameter u0{"u0"};
  const Parameter u_tol{"u_tol"};
  const Parameter v0{"v0"};
  const Parameter v1{"v1"};
  const Parameter vT0{"vT0"};
  const Parameter z0{"z0"};
};

const NamedParameters& named_parameters() {
  static const NamedParameters named;
  return named;
}

}  // namespace

ConveyorConstants ConveyorConstants::from(const ParameterSet& p) {
  const NamedParameters& named = named_parameters();
  ConveyorConstants c{};
  const double f = named.f.value(p);
  const double phi = named.phi.value(p) * kDeg;
  const double a_hat = named.a_hat.value(p);
  c.omega = 2 * kPi * f;
  c.period = 1.0 / f;
  // The same sin and cos as the shared kernel: the constants do not depend on the C library either.
  const reproducible::SinCos throw_angle = reproducible::sincos(phi);
  c.A = a_hat * throw_angle.sin / (c.omega * c.omega);
  c.B = a_hat * throw_angle.cos / (c.omega * c.omega);
  c.g = named.g.value(p);
  c.G = c.g / (c.omega * c.omega);
  c.Gamma = c.A / c.G;
  c.c_r = named.c_r.value(p);
  c.mu = named.mu.value(p);
  c.lifts_off = c.Gamma > 1.0;
  c.phase = std::fmod(named.phase.value(p), 2 * kPi);
  if (c.phase < 0) c.phase += 2 * kPi;
  if (c.phase >= 2 * kPi) c.phase = 0;  // a phase just below 0 rounds up to 2 pi
  c.theta_L = c.lifts_off ? std::asin(1.0 / c.Gamma) : kInf;
  c.lift_off_clock = to_clock(c.theta_L, c.phase);
  // Stick band of the coupled motion (the phases where friction can hold the part on the plate), with
  // every division guarded: the resting plate a_hat = 0 is valid.
  const double w2 = c.omega * c.omega;
  const double plus_den = (c.B + c.mu * c.A) * w2;
  const double minus_den = (c.B - c.mu * c.A) * w2;
  c.sigma_plus = plus_den > 0 ? c.mu * c.g / plus_den : kInf;
  c.sigma_minus = minus_den > 0 ? c.mu * c.g / minus_den : kInf;
  c.stick_exits[0] = c.sigma_plus < 1 ? to_clock(std::asin(c.sigma_plus), c.phase) : kInf;
  c.stick_exits[1] = c.sigma_minus < 1 ? to_clock(kPi + std::asin(c.sigma_minus), c.phase) : kInf;
  c.u_tol = named.u_tol.value(p);
  c.root_rtol = named.root_rtol.value(p);
  c.coupled_friction = named.coupled_friction.choice(p) == "eq62" ? CoupledFriction::Eq62 : CoupledFriction::Coulomb;
  c.events_per_period_cap = named.event_cap.value(p);
  return c;
}

ConveyorStart ConveyorStart::from(const ParameterSet& p) {
  const NamedParameters& named = named_parameters();
  ConveyorStart s{};
  const std::string& mode = named.start.choice(p);
  s.mode = mode == "first_impact" ? StartMode::FirstImpact : mode == "state" ? StartMode::State : StartMode::Drop;
  s.on_plate = named.on_plate.choice(p) == "impact" ? OnPlateMode::Impact : OnPlateMode::Coupled;
  s.z0 = named.z0.value(p);
  s.v0 = named.v0.value(p);
  s.vT0 = named.vT0.value(p);
  s.v1 = named.v1.value(p);
  s.psi1 = named.psi1.value(p) * kDeg;
  s.theta0 = named.theta0.value(p);
  s.h0 = named.h0.value(p);
  s.u0 = named.u0.value(p);
  return s;
}

}  // namespace vibro::conveyor
