// A vector as JSON text: each component printed with the fewest digits that read back as the
// same float (std::to_chars), so a 1536-dimension answer is printed once, about half as long as
// the same floats printed as doubles, and without building a JSON tree of 1536 numbers.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

namespace opbase::ai {

// "[0.1,-0.25,...]"; a component that is not finite is printed as 0.
std::string vector_json(const std::vector<float>& vector);

// The Euclidean norm, summed in double.
double vector_norm(const std::vector<float>& vector);

}  // namespace opbase::ai
