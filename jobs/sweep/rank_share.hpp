#pragma once
// Which parallel units (cases, or continuation lines) a rank computes: unit u belongs to rank
// u mod ranks. Cyclic assignment spreads the expensive corners of a grid over all ranks.
namespace vibro {

struct RankShare {
  int rank = 0;
  int ranks = 1;
  bool owns(long long unit) const { return unit % ranks == rank; }
};

}  // namespace vibro
