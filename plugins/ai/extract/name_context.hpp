// NameContext: what the person, organisation and location finders share: the text, its words,
// the gazetteer and word lists, and the small closed vocabularies the rules name (honorifics,
// organisation suffixes, name particles, words that place a name, date words).
//
// Thread-safety: a view over immutable data; the functions are pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "extract/gazetteer.hpp"
#include "extract/word_lists.hpp"
#include "extract/words.hpp"

namespace opbase::ai::extract {

struct NameContext {
  std::string_view text;
  const std::vector<Word>& words;
  const Gazetteer& places;
  const WordLists& lists;

  // The text between word i-1 and word i ("" for the first word).
  std::string_view gap_before(size_t i) const;
  // The words i..i+n-1 as a key ("new york"), or "" when they do not follow one another on a
  // line with blanks between (a comma, a full stop or a line break parts them).
  std::string key_of(size_t i, size_t n) const;
  // Word i in the text as written.
  std::string_view word_text(size_t i) const;
};

// Titles before a person's name: "Mr", "Dr", "Prof", "President", "Senator"...
bool is_honorific(std::string_view key);
// The last word of an organisation's name: "Inc", "Ltd", "GmbH", "University", "Bank"...
bool is_org_suffix(std::string_view key);
// Organisation words that may also head a name with "of": "University of Oxford".
bool is_org_head(std::string_view key);
// Suffixes written in capitals, or abbreviated with a dot: "AG", "SA", "Inc.".
bool is_legal_form(std::string_view key);
// Lower-case words inside names: "van", "de", "of"...
bool is_name_particle(std::string_view key);
// Words before a place: "in", "from", "near"...
bool is_place_preposition(std::string_view key);
// Words that end a street, a building or a feature rather than a surname: "Street", "Park".
bool is_feature_word(std::string_view key);
// Month and weekday names.
bool is_date_word(std::string_view key);
// First names that, opening a sentence, are more often a verb or a month ("Will", "May").
bool is_risky_opener(std::string_view key);

}  // namespace opbase::ai::extract
