// UnitSpace: hnswlib's view of vdb's vectors: float32 unit vectors of one length, the distance
// 1 - cosine, computed by dot_product (vectors/dot_product.hpp), which picks the machine's
// widest units at load time. hnswlib's own inner-product space picks them when it is compiled,
// so a package built for every x86-64 would get only its narrowest.
//
// Included by collection_index.cpp alone: hnswlib's headers define variables, and that file sets
// how they are compiled.
//
// Thread-safety: immutable after construction.
#pragma once

#include <hnswlib/hnswlib.h>

#include <cstddef>

#include "vectors/dot_product.hpp"

namespace opbase::vdb {

class UnitSpace final : public hnswlib::SpaceInterface<float> {
 public:
  explicit UnitSpace(size_t dimensions) : dimensions_(dimensions) {}

  size_t get_data_size() override { return dimensions_ * sizeof(float); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &distance; }
  void* get_dist_func_param() override { return &dimensions_; }

 private:
  static float distance(const void* a, const void* b, const void* dimensions) {
    return 1.0f - dot_product(static_cast<const float*>(a), static_cast<const float*>(b),
                              *static_cast<const size_t*>(dimensions));
  }

  size_t dimensions_;
};

}  // namespace opbase::vdb
