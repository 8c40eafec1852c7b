// Word forms for matching words loosely: a token's bare word (lowercase, without edge
// punctuation or a possessive "'s") and a simple singular ("services" -> "service",
// "batteries" -> "battery", "dishes" -> "dish"), so an aspect or an emotion word matches its
// plural. English only; irregular plurals ("children") are not handled.
//
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>

namespace opbase::ai {

// Lowercase, edge punctuation stripped, a trailing "'s" removed: "Food's," -> "food".
std::string bare_word(std::string_view token);

// The word without a regular plural ending; other words unchanged.
std::string singular(std::string_view lowercase);

}  // namespace opbase::ai
