// The inner product of two float32 vectors of one length: the cosine of two unit vectors, the
// one number every vdb search computes per record. Built for the plain x86-64 baseline and for
// AVX2 with FMA, the machine picking the best at load time (GCC target clones), so one package
// runs everywhere and uses the wide units where they exist.
//
// Thread-safety: a pure function.
#pragma once

#include <cstddef>

namespace opbase::vdb {

float dot_product(const float* a, const float* b, size_t n);

}  // namespace opbase::vdb
