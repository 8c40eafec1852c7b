// Seeded random unit vectors for the vdb unit tests: components drawn from a normal
// distribution, then scaled to length 1, so directions are uniform over the sphere (the hardest
// case for a vector index: no record is much nearer a query than the rest).
#pragma once

#include <cstddef>
#include <random>
#include <vector>

#include "vectors/vector_value.hpp"

namespace opbase::vdb {

class RandomVectors {
 public:
  RandomVectors(size_t dimensions, unsigned seed) : dimensions_(dimensions), random_(seed) {}

  std::vector<float> next() {
    std::vector<float> v(dimensions_);
    for (float& x : v) x = normal_(random_);
    return unit(v);
  }

 private:
  size_t dimensions_;
  std::mt19937 random_;
  std::normal_distribution<float> normal_;
};

}  // namespace opbase::vdb
