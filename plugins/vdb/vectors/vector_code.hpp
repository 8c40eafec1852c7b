// A unit vector as the in-memory index keeps it: its components as int8 and one float32 scale
// (component i is scale * code[i]), 4 + dimensions bytes: a quarter of the float32 vector. The
// store keeps the float32 vector (the truth); the index compares codes, which reads a quarter of
// the memory per comparison (a search at 1,536 dimensions is bound by memory, not arithmetic)
// and ranks as the float32 cosine does within about 0.001 at 1,536 dimensions. A search scores
// its final answers again from the stored float32 vectors (ops/vdb_ops.cpp), so clients never
// see the codes' rounding.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <span>

namespace opbase::vdb {

inline constexpr size_t code_size(size_t dimensions) { return sizeof(float) + dimensions; }

// Writes the code of `unit_vector` (length 1) to `code` (code_size(dimensions) bytes): the scale
// maps the largest component to 127, so every component keeps as many bits as it can.
void encode(std::span<const float> unit_vector, std::byte* code);

// The inner product of the vectors of two codes of `dimensions`: their cosine, near enough.
float code_dot(const std::byte* a, const std::byte* b, size_t dimensions);

}  // namespace opbase::vdb
