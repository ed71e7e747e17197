#pragma once
// What Moreau time-stepping needs from a mechanical system with unilateral frictional contacts,
// M du - h(q, u, t) dt - W(q) dP = 0 (Krack et al. 2017, Appendix D): a constant diagonal mass matrix, the
// smooth forces h, and the contacts closed at a given configuration with their Jacobians. The
// system knows nothing about the integrator; the integrator nothing about the system's geometry.
#include <Eigen/Dense>
#include <vector>

namespace vibro::timestepping {

// The closed contacts at one (q, t), in the system's fixed contact order. Columns 2k (normal) and
// 2k+1 (tangential) of W and entries of w belong to the k-th closed contact, whose system-wide index
// is id[k]; the relative velocity of that contact is gamma = W^T u + w.
struct ClosedContacts {
  int count = 0;
  Eigen::MatrixXd W;             // dofs x 2 max_contacts (only the first 2 count columns are used)
  Eigen::VectorXd w;             // 2 max_contacts
  std::vector<int> id;           // max_contacts
  std::vector<double> mu, eps_n, eps_t;  // max_contacts

  void reserve(int dofs, int max_contacts);
  // Appends one contact; returns its column index k (W.col(2k), W.col(2k+1) to be filled).
  int add(int contact_id, double friction, double restitution_n, double restitution_t);
};

class MeasureDifferentialSystem {
 public:
  virtual ~MeasureDifferentialSystem() = default;
  virtual int dofs() const = 0;
  virtual int max_contacts() const = 0;
  // Diagonal of M^-1. A zero entry holds its DOF fixed (a bearing); its row of W still carries the
  // contact force's component, so the reaction can be read from the generalized impulse W P.
  virtual const Eigen::VectorXd& inverse_mass() const = 0;
  virtual void forces(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double t, Eigen::VectorXd& h) = 0;
  // Clears `closed` (count = 0) and appends every contact with normal gap <= 0 at (q, t).
  virtual void closed_contacts(const Eigen::VectorXd& q, double t, ClosedContacts& closed) = 0;
};

}  // namespace vibro::timestepping
