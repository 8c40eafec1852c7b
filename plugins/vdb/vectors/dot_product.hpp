// The inner product of two float32 vectors of one length: the cosine of two unit vectors, the
// one number every vdb search computes per record. Built for the plain x86-64 baseline and for
// AVX2 with FMA, the machine picking the best at load time (GCC target clones), so one package
// runs everywhere and uses the wide units where they exist.
//
// Thread-safety: a pure function.
#pragma once

#include <cstddef>
#include <cstdint>

namespace opbase::vdb {

float dot_product(const float* a, const float* b, size_t n);

// The same for int8 components within +-127 (vectors/vector_code.hpp), summed exactly in int32
// (n at most 8,192: 127 * 127 * 8192 fits): written with AVX2 instructions, used when the
// machine has them, else a portable loop.
int32_t int8_dot_product(const int8_t* a, const int8_t* b, size_t n);

}  // namespace opbase::vdb
