#include "translate/source_language.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_set>

#include "text/unicode_text.hpp"
#include "translate/translate_errors.hpp"

namespace opbase::ai {

namespace {

using WordSet = std::unordered_set<std::string_view>;

// Function words frequent in English and rare as words of the five other Latin-script languages
// ("a", "in", "on", "he", "was", "will", "die" and the like are left out for that reason).
const WordSet& english_words() {
  static const WordSet kWords = {
      "the",  "and",   "of",   "to",    "is",    "are",   "be",   "been",  "were",  "it",
      "its",  "that",  "this", "these", "those", "for",   "with", "from",  "by",    "at",
      "you",  "your",  "they", "their", "them",  "we",    "our",  "she",   "his",   "have",
      "has",  "had",   "not",  "but",   "what",  "which", "who",  "would", "could", "should",
      "can",  "there", "if",   "when",  "how",   "about", "into", "than",  "then",  "just",
      "also", "my",    "do",   "does",  "did",   "all",   "some", "any",   "more",  "or",
  };
  return kWords;
}

// Distinctive function words of the languages people most often send by mistake.
const std::array<WordSet, 5>& foreign_words() {
  static const std::array<WordSet, 5> kWords = {{
      // Spanish
      {"el",  "la",      "los",  "las",    "de",    "del",    "que",  "y",   "en",
       "un",  "una",     "es",   "por",    "con",   "para",   "se",   "su",  "sus",
       "al",  "lo",      "como", "más",    "pero",  "este",   "esta", "son", "está",
       "muy", "también", "yo",   "cuando", "donde", "porque", "hay",  "ser", "tiene"},
      // French
      {"le",   "la",   "les",  "de",   "des", "du",   "et", "un",   "une",  "est",
       "que",  "qui",  "pour", "dans", "sur", "pas",  "ne", "avec", "ce",   "cette",
       "il",   "elle", "nous", "vous", "ils", "sont", "au", "aux",  "mais", "où",
       "très", "être", "je",   "sa",   "ses", "leur", "été"},
      // German
      {"der",  "die",    "das", "und",  "ist",  "nicht", "ein", "eine", "einen",
       "zu",   "den",    "dem", "mit",  "sich", "des",   "auf", "für",  "im",
       "von",  "sie",    "es",  "auch", "wir",  "ich",   "du",  "er",   "sind",
       "wird", "werden", "bei", "oder", "aber", "nach",  "wie", "noch"},
      // Italian
      {"il", "lo",     "la",     "gli",   "le",  "di",   "che",  "è",     "e",
       "un", "una",    "per",    "non",   "con", "sono", "del",  "della", "dei",
       "al", "alla",   "nel",    "nella", "si",  "ma",   "come", "più",   "anche",
       "ho", "questo", "questa", "io",    "lui", "lei",  "noi",  "voi",   "loro"},
      // Portuguese
      {"o",    "os",  "de",  "do",   "da",  "dos",  "das", "que",  "e",     "um",    "uma",  "é",
       "não",  "em",  "na",  "nos",  "nas", "com",  "por", "para", "se",    "ao",    "mais", "mas",
       "como", "foi", "ser", "está", "eu",  "você", "ele", "ela",  "muito", "também"},
  }};
  return kWords;
}

bool is_ascii_letter(char32_t point) {
  return (point >= 'a' && point <= 'z') || (point >= 'A' && point <= 'Z');
}

// Letters of the Latin script beyond ASCII: Latin-1, Latin Extended A/B, Latin Extended
// Additional.
bool is_other_latin_letter(char32_t point) {
  return (point >= 0xC0 && point <= 0x24F && point != 0xD7 && point != 0xF7) ||
         (point >= 0x1E00 && point <= 0x1EFF);
}

// Letters of other scripts: Greek to Hangul Jamo and the rest of the BMP's scripts before the
// punctuation block, then CJK, kana, Hangul syllables and compatibility ideographs.
bool is_non_latin_letter(char32_t point) {
  return (point >= 0x370 && point <= 0x1DFF) || (point >= 0x2E80 && point <= 0xD7FF) ||
         (point >= 0xF900 && point <= 0xFAFF) || (point >= 0xFF66 && point <= 0xFFDC);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

struct Counts {
  size_t latin_letters = 0;
  size_t other_letters = 0;
  size_t words = 0;
  size_t english = 0;
  std::array<size_t, 5> foreign{};
};

void count_word(const std::string& word, Counts* counts) {
  ++counts->words;
  if (english_words().count(word) != 0) ++counts->english;
  for (size_t i = 0; i < foreign_words().size(); ++i) {
    if (foreign_words()[i].count(word) != 0) ++counts->foreign[i];
  }
}

// Words are runs of Latin letters (and apostrophes inside them), lower-cased in ASCII.
Counts count(std::string_view text) {
  Counts counts;
  std::string word;
  size_t at = 0;
  while (at < text.size()) {
    size_t length = 1;
    const char32_t point = decode_utf8(text, at, &length);
    const bool latin = is_ascii_letter(point) || is_other_latin_letter(point);
    if (latin) {
      ++counts.latin_letters;
      for (size_t i = 0; i < length; ++i) word.push_back(lower(text[at + i]));
    } else {
      if (is_non_latin_letter(point)) ++counts.other_letters;
      if (!(point == '\'' && !word.empty())) {
        if (!word.empty()) count_word(word, &counts);
        word.clear();
      }
    }
    at += length;
  }
  if (!word.empty()) count_word(word, &counts);
  return counts;
}

}  // namespace

bool looks_english(std::string_view text) {
  const Counts counts = count(text);
  if (counts.other_letters > counts.latin_letters) return false;
  if (counts.words < 4) return true;
  const size_t foreign = *std::max_element(counts.foreign.begin(), counts.foreign.end());
  const bool foreign_share_high = foreign * 100 >= counts.words * 15;
  const bool foreign_dominates = foreign * 2 > counts.english * 3;
  return !(foreign_share_high && foreign_dominates);
}

Status not_english_failure() {
  return translation_failure("unsupported_source_language",
                             "offline translation reads English text only, and this text does "
                             "not look English; configure a model provider for other source "
                             "languages (ai.provider.translate = openai)",
                             false);
}

}  // namespace opbase::ai
