// VADER's fixed rule tables: the booster and dampener words, the negation words and the idioms,
// with the constants the VADER authors measured (Hutto & Gilbert, ICWSM 2014), as in npm
// vader-sentiment 1.1.3. All lookups take lowercase words.
//
// Thread-safety: constants and pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string_view>

namespace opbase::ai {

// How much a booster ("very") adds to, or a dampener ("slightly") takes from, the next word.
inline constexpr double kBoosterIncrement = 0.293;
inline constexpr double kBoosterDecrement = -0.293;
// What an ALL-CAPS sentiment word adds when the rest of the text is not all caps.
inline constexpr double kCapsIncrement = 0.733;
// A negated word keeps this share of its valence, with the sign flipped.
inline constexpr double kNegationScalar = -0.74;

// The booster or dampener value of a word or two-word phrase ("kind of"), if it is one.
std::optional<double> booster_value(std::string_view lowercase);

// True for a negation word ("not", "never", "without", ...) or any word holding "n't".
bool is_negation(std::string_view lowercase);

// The fixed valence of an idiom ("cut the mustard", "yeah right"), if the words are one.
std::optional<double> idiom_value(std::string_view lowercase_words);

}  // namespace opbase::ai
