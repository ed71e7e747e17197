#include "engine/core/model_legend.hpp"

namespace vibro {

ClassCode quasi_periodic_class() {
  return {"Q", "quasi-periodic: the stroboscopic points fill an invariant circle or torus (periodicity 3)"};
}

ClassCode not_converged_class() {
  return {"X", "no steady state: chaotic or not converged within the period budget (periodicity 2), or a "
          "window whose event count per orbit is not a whole number"};
}

}  // namespace vibro
