// Summary text: how chosen sentences are written out. Each sentence has its white space
// (line breaks of wrapped text included) collapsed to single spaces and a leading list marker
// ("- ", "* ", "• ", "1. ", "2) ") removed. Paragraph style joins them with spaces, ending a
// sentence that has no final punctuation (a heading) with a period; bullet style writes one
// "- " line per sentence, joined by "\n".
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::ai {

enum class SummaryStyle { kParagraph, kBulletPoints };

// Bullet points when the requested style mentions bullets ("bullet points", "bullets",
// "Bulleted list"), in any case; a paragraph for anything else, empty included.
SummaryStyle summary_style(std::string_view requested);

// "paragraph" or "bullet_points".
std::string_view style_name(SummaryStyle style);

// A sentence as it appears in a summary: white space collapsed, list marker removed.
std::string clean_sentence(std::string_view sentence);

// The first `words` words of a cleaned sentence, cut at a word boundary, then "…".
std::string cut_sentence(std::string_view sentence, size_t words);

std::string write_summary(const std::vector<std::string>& sentences, SummaryStyle style);

}  // namespace opbase::ai
