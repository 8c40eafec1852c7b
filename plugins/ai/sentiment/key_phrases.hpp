// Key phrases: the short stretches of text that carry its sentiment. Starting from the word with
// the strongest VADER valence, each phrase is that word with up to three words before it and two
// after, kept within its fragment (clauses.hpp: a comma, a clause end or a contrast word stops
// it), with function words ("the", "was", "it") trimmed from its start, articles, prepositions,
// subject pronouns and the like from its end (object pronouns stay: "love it"), and edge
// punctuation dropped: "The food was absolutely delicious, but..." gives "food was absolutely
// delicious". Phrases never overlap: a sentiment word already inside an earlier phrase starts none
// of its own, and a later phrase stops where an earlier one begins; equal phrases appear once.
// Strongest first; at most `limit`.
//
// Thread-safety: a pure function; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sentiment/clauses.hpp"
#include "sentiment/vader_scorer.hpp"
#include "sentiment/vader_text.hpp"

namespace opbase::ai {

std::vector<std::string> key_phrases(std::string_view text, const VaderText& words,
                                     const VaderScore& score,
                                     const std::vector<TokenSpan>& fragments, size_t limit);

}  // namespace opbase::ai
