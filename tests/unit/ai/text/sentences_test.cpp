// The AI parts' shared text helpers: sentence splitting (text/sentences) and words
// (text/words): abbreviations, decimals, quotes, line breaks, Unicode, and byte ranges that quote
// the original text exactly.
#include "text/sentences.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/words.hpp"

namespace opbase::ai {
namespace {

std::vector<std::string> sentences_of(std::string_view text) {
  std::vector<std::string> out;
  for (const TextRange& range : split_sentences(text)) out.emplace_back(range.of(text));
  return out;
}

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> out;
  for (const Word& word : split_words(text)) out.push_back(word.text);
  return out;
}

using Strings = std::vector<std::string>;

TEST(SplitSentences, EndsAtPeriodsExclamationsAndQuestions) {
  EXPECT_EQ(sentences_of("It rained. Was it cold? Yes! We stayed in."),
            (Strings{"It rained.", "Was it cold?", "Yes!", "We stayed in."}));
  EXPECT_EQ(sentences_of("Really?! I doubt it... Let us see."),
            (Strings{"Really?!", "I doubt it...", "Let us see."}));
}

TEST(SplitSentences, EmptyAndBlankTextHaveNoSentences) {
  EXPECT_TRUE(split_sentences("").empty());
  EXPECT_TRUE(split_sentences(" \n\t \n").empty());
}

TEST(SplitSentences, KeepsTheLastSentenceWithoutAFinalPeriod) {
  EXPECT_EQ(sentences_of("First one. And a second without a stop"),
            (Strings{"First one.", "And a second without a stop"}));
  EXPECT_EQ(sentences_of("  just words  "), (Strings{"just words"}));
}

TEST(SplitSentences, TitlesAndLatinAbbreviationsDoNotEndSentences) {
  EXPECT_EQ(sentences_of("Mr. Smith met Dr. Jones and Prof. Lee at St. Mary's. They talked."),
            (Strings{"Mr. Smith met Dr. Jones and Prof. Lee at St. Mary's.", "They talked."}));
  EXPECT_EQ(
      sentences_of("Bring fruit, e.g. apples. Or i.e. Pears count. France vs. Spain ended."),
      (Strings{"Bring fruit, e.g. apples.", "Or i.e. Pears count.", "France vs. Spain ended."}));
  EXPECT_EQ(sentences_of("Mrs. Ms. Mt. Everest is high."),
            (Strings{"Mrs. Ms. Mt. Everest is high."}));
}

TEST(SplitSentences, CompanySuffixesEndOnlyBeforeASentenceOpener) {
  EXPECT_EQ(
      sentences_of("Acme Inc. Chief Jo Poe spoke. She works for Acme Ltd. The firm grew."),
      (Strings{"Acme Inc. Chief Jo Poe spoke.", "She works for Acme Ltd.", "The firm grew."}));
  EXPECT_EQ(sentences_of("Acme Corp. said so. Poe Co. is small."),
            (Strings{"Acme Corp. said so.", "Poe Co. is small."}));
}

TEST(SplitSentences, AcronymsAndInitials) {
  EXPECT_EQ(sentences_of("The U.S. Senate voted. It moved to the U.S. The vote was close."),
            (Strings{"The U.S. Senate voted.", "It moved to the U.S.", "The vote was close."}));
  EXPECT_EQ(sentences_of("J. K. Rowling wrote it. It sold well."),
            (Strings{"J. K. Rowling wrote it.", "It sold well."}));
  EXPECT_EQ(sentences_of("We met at 5 p.m. and left. Then at 9 p.m. The end."),
            (Strings{"We met at 5 p.m. and left.", "Then at 9 p.m.", "The end."}));
}

TEST(SplitSentences, MonthsNumbersAndEtc) {
  EXPECT_EQ(sentences_of("On Jan. 5 it snowed. Prices rose in Feb. March was calm."),
            (Strings{"On Jan. 5 it snowed.", "Prices rose in Feb.", "March was calm."}));
  EXPECT_EQ(sentences_of("See No. 7 and no. 8 here. Pens, pencils, etc. are sold. Paper, etc. "
                         "Ink too."),
            (Strings{"See No. 7 and no. 8 here.", "Pens, pencils, etc. are sold.", "Paper, etc.",
                     "Ink too."}));
  EXPECT_EQ(sentences_of("Is it no? No. It is yes."), (Strings{"Is it no?", "No.", "It is yes."}));
}

TEST(SplitSentences, DecimalsAddressesAndNumbersStayWhole) {
  EXPECT_EQ(
      sentences_of("Growth was 3.5 percent, up from 2.9. Visit example.com. It is $1,000.50."),
      (Strings{"Growth was 3.5 percent, up from 2.9.", "Visit example.com.", "It is $1,000.50."}));
  EXPECT_EQ(sentences_of("The score was 10. Then it was 12."),
            (Strings{"The score was 10.", "Then it was 12."}));
}

TEST(SplitSentences, ClosingQuotesAndBracketsStayWithTheirSentence) {
  EXPECT_EQ(sentences_of("He said, \"Go home.\" Then he left. (It was late.) Fine."),
            (Strings{"He said, \"Go home.\"", "Then he left.", "(It was late.)", "Fine."}));
  EXPECT_EQ(sentences_of("\"Why?\" she asked. \xE2\x80\x9CNo!\xE2\x80\x9D he said. Done."),
            (Strings{"\"Why?\" she asked.", "\xE2\x80\x9CNo!\xE2\x80\x9D he said.", "Done."}));
  EXPECT_EQ(sentences_of("She wrote: \xE2\x80\x98It works.\xE2\x80\x99 We agreed."),
            (Strings{"She wrote: \xE2\x80\x98It works.\xE2\x80\x99", "We agreed."}));
}

TEST(SplitSentences, LowercaseAfterAPeriodGoesOn) {
  EXPECT_EQ(sentences_of("It costs approx. five dollars. Wait... what happened? Fine."),
            (Strings{"It costs approx. five dollars.", "Wait... what happened?", "Fine."}));
}

TEST(SplitSentences, ParagraphsAndLineBreaks) {
  EXPECT_EQ(sentences_of("Title Of The Story\n\nThe first line.\r\n\r\nThe second"),
            (Strings{"Title Of The Story", "The first line.", "The second"}));
  EXPECT_EQ(sentences_of("A heading\nThe body starts here"),
            (Strings{"A heading", "The body starts here"}));
  EXPECT_EQ(sentences_of("A sentence wrapped\nover two lines. And a list,\nnot ended."),
            (Strings{"A sentence wrapped\nover two lines.", "And a list,\nnot ended."}));
  EXPECT_EQ(sentences_of("Shopping:\n- Milk and eggs\n- bread\n1. First point\n2) Second"),
            (Strings{"Shopping:", "- Milk and eggs", "- bread", "1. First point", "2) Second"}));
  EXPECT_EQ(sentences_of("Ask Dr.\nJones today.\nOr ask\nMe."),
            (Strings{"Ask Dr.\nJones today.", "Or ask", "Me."}));
  EXPECT_EQ(sentences_of("One\xE2\x80\xA9Two\xE2\x80\xA8Three"), (Strings{"One", "Two", "Three"}));
}

TEST(SplitSentences, UnicodeText) {
  EXPECT_EQ(sentences_of("Caf\xC3\xA9 au lait. \xC3\x89t\xC3\xA9 chaud! \xC3\xA0 demain."),
            (Strings{"Caf\xC3\xA9 au lait.", "\xC3\x89t\xC3\xA9 chaud! \xC3\xA0 demain."}))
      << "a lowercase é or à goes on like a lowercase e";
  EXPECT_EQ(sentences_of("\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82. "
                         "\xD0\x9A\xD0\xB0\xD0\xBA \xD0\xB4\xD0\xB5\xD0\xBB\xD0\xB0?"),
            (Strings{"\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82.",
                     "\xD0\x9A\xD0\xB0\xD0\xBA \xD0\xB4\xD0\xB5\xD0\xBB\xD0\xB0?"}));
  // 今日は晴れ。明日は雨！ : CJK stops need no space after them.
  EXPECT_EQ(sentences_of("\xE4\xBB\x8A\xE6\x97\xA5\xE3\x81\xAF\xE6\x99\xB4\xE3\x82\x8C\xE3\x80\x82"
                         "\xE6\x98\x8E\xE6\x97\xA5\xE3\x81\xAF\xE9\x9B\xA8\xEF\xBC\x81"),
            (Strings{"\xE4\xBB\x8A\xE6\x97\xA5\xE3\x81\xAF\xE6\x99\xB4\xE3\x82\x8C\xE3\x80\x82",
                     "\xE6\x98\x8E\xE6\x97\xA5\xE3\x81\xAF\xE9\x9B\xA8\xEF\xBC\x81"}));
  EXPECT_EQ(sentences_of("Emoji end it \xF0\x9F\x98\x80. Next\xE2\x80\xA6 \xC2\xA0Last."),
            (Strings{"Emoji end it \xF0\x9F\x98\x80.", "Next\xE2\x80\xA6", "Last."}));
}

TEST(SplitSentences, RangesQuoteTheTextAndNeverOverlap) {
  const std::string text = "  Dr. Who? \"Yes.\"  \n\nDone \xC3\xA9t\xC3\xA9.  ";
  const std::vector<TextRange> ranges = split_sentences(text);
  ASSERT_EQ(ranges.size(), 3u);
  size_t previous_end = 0;
  for (const TextRange& range : ranges) {
    EXPECT_LE(previous_end, range.begin);
    EXPECT_LT(range.begin, range.end);
    EXPECT_LE(range.end, text.size());
    previous_end = range.end;
  }
  EXPECT_EQ(ranges[0].of(text), "Dr. Who?");
  EXPECT_EQ(ranges[1].of(text), "\"Yes.\"");
  EXPECT_EQ(ranges[2].of(text), "Done \xC3\xA9t\xC3\xA9.");
}

TEST(SplitSentences, InvalidUtf8DoesNotReadPastTheEnd) {
  const std::string text = "Bad \xC3. Cut \xE2\x80";
  EXPECT_EQ(sentences_of(text), (Strings{"Bad \xC3.", "Cut \xE2\x80"}));
}

TEST(Words, LowercasesAsciiAndSplitsOnPunctuation) {
  EXPECT_EQ(words_of("Hello, World! state-of-the-art (NASA) x_y"),
            (Strings{"hello", "world", "state", "of", "the", "art", "nasa", "x", "y"}));
  EXPECT_TRUE(words_of(" ... -- !? ").empty());
}

TEST(Words, KeepsApostrophesInsideWordsAndNumbersWhole) {
  EXPECT_EQ(words_of("Don't stop, it's John\xE2\x80\x99s 'quote' rock'n'roll'"),
            (Strings{"don't", "stop", "it's", "john's", "quote", "rock'n'roll"}));
  EXPECT_EQ(words_of("3.5 percent of 1,000,000 in 2024. 7, 8"),
            (Strings{"3.5", "percent", "of", "1,000,000", "in", "2024", "7", "8"}));
  EXPECT_EQ(words_of("the 90's boys'"), (Strings{"the", "90", "s", "boys"}));
}

TEST(Words, KeepsOtherLettersAsTheyAre) {
  EXPECT_EQ(words_of("\xC3\x89t\xC3\xA9 \xC3\xA0 Z\xC3\xBCrich na\xC3\xAFve"),
            (Strings{"\xC3\x89t\xC3\xA9", "\xC3\xA0", "z\xC3\xBCrich", "na\xC3\xAFve"}));
  EXPECT_EQ(
      words_of(
          "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 \xF0\x9F\x98\x80 ok\xE2\x80\x94yes"),
      (Strings{"\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", "ok", "yes"}))
      << "emoji and dashes separate words";
  // 日本語 = three ideographs, three words; "ab" stays one word.
  EXPECT_EQ(words_of("ab\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
            (Strings{"ab", "\xE6\x97\xA5", "\xE6\x9C\xAC", "\xE8\xAA\x9E"}));
}

TEST(Words, GivesByteRangesAndCounts) {
  const std::string text = "  Caf\xC3\xA9, don\xE2\x80\x99t!";
  const std::vector<Word> words = split_words(text);
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(text.substr(words[0].begin, words[0].end - words[0].begin), "Caf\xC3\xA9");
  EXPECT_EQ(text.substr(words[1].begin, words[1].end - words[1].begin), "don\xE2\x80\x99t");
  EXPECT_EQ(words[1].text, "don't");
  EXPECT_EQ(count_words(text), 2u);
  EXPECT_EQ(count_words(""), 0u);
  EXPECT_EQ(count_words("one two  three\nfour"), 4u);
}

}  // namespace
}  // namespace opbase::ai
