// CodeSpace: hnswlib's view of vdb's vectors: the codes of unit vectors of one length
// (vectors/vector_code.hpp), the distance 1 - cosine, computed by code_dot, whose int8 inner
// product picks the machine's widest units at load time. hnswlib's own spaces pick them when
// they are compiled, so a package built for every x86-64 would get only its narrowest.
//
// Included by collection_index.cpp alone: hnswlib's headers define variables, and that file sets
// how they are compiled.
//
// Thread-safety: immutable after construction.
#pragma once

#include <hnswlib/hnswlib.h>

#include <cstddef>

#include "vectors/vector_code.hpp"

namespace opbase::vdb {

class CodeSpace final : public hnswlib::SpaceInterface<float> {
 public:
  explicit CodeSpace(size_t dimensions) : dimensions_(dimensions) {}

  size_t get_data_size() override { return code_size(dimensions_); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &distance; }
  void* get_dist_func_param() override { return &dimensions_; }

 private:
  static float distance(const void* a, const void* b, const void* dimensions) {
    return 1.0f - code_dot(static_cast<const std::byte*>(a), static_cast<const std::byte*>(b),
                           *static_cast<const size_t*>(dimensions));
  }

  size_t dimensions_;
};

}  // namespace opbase::vdb
