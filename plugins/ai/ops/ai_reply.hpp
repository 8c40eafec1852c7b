// The answer of an AI op (docs/api.md#ai-answers): data.output as the provider made it, and meta
// with the op's fields, those the provider knows (provider/provider.hpp TaskAnswer.meta) and those
// measured here: lengths, ratios, times, the vector's norm; plus meta.provider and meta.model.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "provider/provider.hpp"
#include "provider/task.hpp"

namespace opbase::ai {

// `answer.output` as data.output, and the meta object of `task`'s op. `elapsed_ms` is the time
// the provider took.
nlohmann::json meta_of(const Task& task, const TaskAnswer& answer, std::string_view provider,
                       double elapsed_ms);

// Words in text: runs of characters between white space.
size_t word_count(std::string_view text);

// The Euclidean norm of a JSON array of numbers.
double norm_of(const nlohmann::json& vector);

}  // namespace opbase::ai
