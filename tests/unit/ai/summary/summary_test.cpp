// The offline extractive summarizer (plugins/ai/summary): on a news article written for this
// test, with its key sentences labelled, the default summary picks mostly key sentences; word
// targets are honoured; bullet style; short inputs; repeated sentences; determinism; timing on
// 10 KB of text. Data: summary_stopwords_en.txt from OPBASE_AI_DATA_DIR, else the build's
// ai-data folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "ai_data_dir.hpp"
#include "summary/summarizer.hpp"
#include "text/sentences.hpp"
#include "text/words.hpp"

namespace opbase::ai {
namespace {

std::filesystem::path data_dir() { return test::ai_data_dir(); }

std::shared_ptr<const Summarizer> summarizer() {
  static const std::shared_ptr<const Summarizer> loaded = [] {
    auto result = Summarizer::load(data_dir());
    EXPECT_TRUE(result.is_ok()) << result.status().to_string();
    return result.is_ok() ? *result : nullptr;
  }();
  return loaded;
}

SummaryAnswer summarize(std::string_view text, std::optional<int64_t> target = std::nullopt,
                        std::string style = "", std::string instructions = "") {
  return summarizer()->summarize({text, target, std::move(style), std::move(instructions)});
}

// A news article written for this test. The key sentences (the lead and the main facts: what
// was decided, when it will be built, who pays, what it will do) are marked.
struct Sentence {
  const char* text;
  bool key;
};
const std::vector<Sentence> kArticle = {
    {"The Riverton city council voted 7-2 on Tuesday to approve a $1.2 billion light rail line "
     "linking downtown to the airport, ending a decade of debate over the project.",
     true},
    {"The vote came after a six-hour meeting that stretched past midnight.", false},
    {"Construction of the 14-mile rail line is expected to begin next spring and finish in 2029, "
     "with trains running every ten minutes between downtown and the airport.",
     true},
    {"Mayor Dana Ortiz called the decision \"a turning point for the city.\"", false},
    {"Dozens of residents spoke during the public comment period, many of them wearing green "
     "shirts.",
     false},
    {"The federal government will pay half of the $1.2 billion cost, while the rest will come "
     "from a half-cent sales tax that voters approved in 2022.",
     true},
    {"Council member Greg Hale, who voted against the plan, said he worried about overruns.",
     false},
    {"He pointed to a similar project in a neighboring state that finished two years late.", false},
    {"Transit officials expect the rail line to carry 30,000 riders a day by 2032 and to cut the "
     "trip from downtown to the airport to 25 minutes.",
     true},
    {"Business owners along the route have asked for help during the construction.", false},
    {"The city plans to hold information sessions for them next month.", false},
    {"Some residents also asked for more bike lanes near the new stations.", false},
    {"The next step is a final design review by the transit authority in March.", false},
};

std::string article_text() {
  std::string text;
  for (const Sentence& sentence : kArticle) {
    if (!text.empty()) text += ' ';
    text += sentence.text;
  }
  return text;
}

size_t longest_sentence_words() {
  size_t longest = 0;
  for (const Sentence& sentence : kArticle) {
    longest = std::max(longest, count_words(sentence.text));
  }
  return longest;
}

// The article's sentences that appear in a summary, by index.
std::vector<size_t> chosen_sentences(const std::string& summary) {
  std::vector<size_t> chosen;
  for (size_t i = 0; i < kArticle.size(); ++i) {
    if (summary.find(kArticle[i].text) != std::string::npos) chosen.push_back(i);
  }
  return chosen;
}

TEST(Summarizer, LoadNamesAMissingStopwordList) {
  auto result = Summarizer::load("/nonexistent-ai-data");
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), "INTERNAL_ERROR");
  EXPECT_NE(result.status().message().find("/nonexistent-ai-data/summary_stopwords_en.txt"),
            std::string::npos)
      << result.status().message();
}

TEST(Summarizer, DefaultSummaryOfANewsArticlePicksMostlyKeySentences) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text = article_text();
  const SummaryAnswer answer = summarize(text);
  EXPECT_EQ(answer.sentences_in, kArticle.size());
  EXPECT_EQ(answer.style_applied, "paragraph");
  EXPECT_FALSE(answer.instructions_ignored);
  const std::vector<size_t> chosen = chosen_sentences(answer.summary);
  ASSERT_EQ(chosen.size(), answer.sentences_out) << answer.summary;
  size_t key = 0;
  for (const size_t i : chosen) key += kArticle[i].key ? 1 : 0;
  const double hit_rate = static_cast<double>(key) / static_cast<double>(chosen.size());
  std::cout << "default summary: " << chosen.size() << " of " << kArticle.size() << " sentences, "
            << key << " key (hit rate " << hit_rate << "), " << count_words(answer.summary)
            << " of " << count_words(text) << " words\n  " << answer.summary << "\n";
  EXPECT_GE(chosen.size(), 2u);
  EXPECT_GE(hit_rate, 2.0 / 3.0);
  EXPECT_EQ(chosen.front(), 0u) << "the lead";
  EXPECT_LE(count_words(answer.summary), count_words(text) / 4 + longest_sentence_words());
  // In the text's order: each chosen sentence appears after the one before.
  size_t previous = 0;
  for (const size_t i : chosen) {
    const size_t at = answer.summary.find(kArticle[i].text);
    EXPECT_GE(at, previous);
    previous = at;
  }
}

TEST(Summarizer, TargetWordCountsAreHonouredAndShrinkTheSummary) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text = article_text();
  const size_t slack = longest_sentence_words();
  size_t previous_words = SIZE_MAX;
  for (const int64_t target : {400, 150, 100, 70, 45, 30}) {
    const SummaryAnswer answer = summarize(text, target);
    const size_t words = count_words(answer.summary);
    const std::vector<size_t> chosen = chosen_sentences(answer.summary);
    size_t key = 0;
    for (const size_t i : chosen) key += kArticle[i].key ? 1 : 0;
    std::cout << "target " << target << ": " << words << " words, " << answer.sentences_out
              << " sentences (" << key << " key)\n";
    EXPECT_LE(words, static_cast<size_t>(target) + slack) << target;
    EXPECT_LT(words, 2 * static_cast<size_t>(target)) << target;
    EXPECT_LE(words, previous_words) << target;
    EXPECT_EQ(chosen.size(), answer.sentences_out) << "whole sentences only: " << answer.summary;
    EXPECT_GE(answer.sentences_out, 1u);
    previous_words = words;
  }
  EXPECT_EQ(summarize(text, 400).sentences_out, kArticle.size()) << "a target above the text";
  EXPECT_LT(summarize(text, 30).sentences_out, summarize(text, 150).sentences_out);
  EXPECT_EQ(summarize(text, 0).summary, summarize(text).summary) << "0 means the default";
}

TEST(Summarizer, BulletStyleWritesOneLinePerSentence) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text = article_text();
  for (const char* style : {"bullet points", "bullets", "Bulleted list", "BULLET POINTS"}) {
    const SummaryAnswer answer = summarize(text, 80, style);
    EXPECT_EQ(answer.style_applied, "bullet_points") << style;
    size_t lines = 0;
    size_t at = 0;
    while (at <= answer.summary.size()) {
      const size_t end = std::min(answer.summary.find('\n', at), answer.summary.size());
      const std::string line = answer.summary.substr(at, end - at);
      EXPECT_EQ(line.substr(0, 2), "- ") << line;
      EXPECT_EQ(chosen_sentences(line).size(), 1u) << line;
      ++lines;
      at = end + 1;
    }
    EXPECT_EQ(lines, answer.sentences_out) << answer.summary;
    EXPECT_GE(lines, 2u);
  }
  for (const char* style : {"", "formal", "short paragraph", "points"}) {
    const SummaryAnswer answer = summarize(text, 80, style);
    EXPECT_EQ(answer.style_applied, "paragraph") << style;
    EXPECT_EQ(answer.summary.find('\n'), std::string::npos);
    EXPECT_NE(answer.summary.substr(0, 2), "- ");
  }
}

TEST(Summarizer, CustomInstructionsAreReportedAsIgnored) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text = article_text();
  const SummaryAnswer followed = summarize(text, 60, "", "Focus on the costs.");
  EXPECT_TRUE(followed.instructions_ignored);
  EXPECT_EQ(followed.summary, summarize(text, 60).summary);
  EXPECT_FALSE(summarize(text, 60, "", " \n ").instructions_ignored);
}

TEST(Summarizer, ShortInputsReturnThemselves) {
  ASSERT_NE(summarizer(), nullptr);
  const SummaryAnswer one = summarize("  The bridge reopened on Monday after repairs.\n");
  EXPECT_EQ(one.summary, "The bridge reopened on Monday after repairs.");
  EXPECT_EQ(one.sentences_in, 1u);
  EXPECT_EQ(one.sentences_out, 1u);
  const SummaryAnswer two = summarize("The bridge reopened. Traffic was light.");
  EXPECT_EQ(two.summary, "The bridge reopened. Traffic was light.");
  EXPECT_EQ(two.sentences_out, 2u);
  EXPECT_EQ(summarize("The bridge reopened on Monday.", 20, "bullets").summary,
            "- The bridge reopened on Monday.");
  const SummaryAnswer wrapped = summarize("A heading\n\nThe text\nwraps here and\nends");
  EXPECT_EQ(wrapped.summary, "A heading. The text wraps here and ends.");
  const SummaryAnswer symbols = summarize("*** !!!");
  EXPECT_EQ(symbols.summary, "*** !!!");
  EXPECT_EQ(symbols.sentences_in, 0u);
}

TEST(Summarizer, ASentenceLongerThanTwiceTheTargetIsCutAtAWord) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string sentence =
      "The committee, after reviewing the proposals submitted by twelve companies over the "
      "summer, chose the design that promised the lowest running costs and the shortest "
      "construction time.";
  const SummaryAnswer cut = summarize(sentence, 5);
  EXPECT_EQ(cut.summary, "The committee, after reviewing the\xE2\x80\xA6");
  EXPECT_EQ(count_words(cut.summary), 5u);
  EXPECT_EQ(summarize(sentence, 14).summary, sentence) << "not longer than twice the target";
  EXPECT_EQ(summarize(sentence).summary, sentence) << "the default never cuts";
}

TEST(Summarizer, RepeatedSentencesAreNotBothChosen) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string lead = kArticle[0].text;
  const std::string text = article_text() + " " + lead + " " + kArticle[5].text;
  for (const std::optional<int64_t> target :
       {std::optional<int64_t>(), std::optional<int64_t>(90), std::optional<int64_t>(1000)}) {
    const SummaryAnswer answer = summarize(text, target);
    const size_t first = answer.summary.find(lead);
    ASSERT_NE(first, std::string::npos) << answer.summary;
    EXPECT_EQ(answer.summary.find(lead, first + 1), std::string::npos) << answer.summary;
    const size_t fact = answer.summary.find(kArticle[5].text);
    if (fact != std::string::npos) {
      EXPECT_EQ(answer.summary.find(kArticle[5].text, fact + 1), std::string::npos);
    }
  }
  EXPECT_EQ(summarize(text, 1000).sentences_out, kArticle.size());
}

// Pseudo-English of about `bytes` bytes: sentences of 8 to 27 words drawn from a small
// vocabulary with a fixed seed, in paragraphs of 5 sentences.
std::string generated_text(size_t bytes) {
  static const char* const kWords[] = {
      "the",     "council", "city",     "plan",      "budget",  "road",    "school",  "water",
      "of",      "and",     "to",       "in",        "a",       "for",     "on",      "with",
      "was",     "will",    "said",     "new",       "public",  "project", "cost",    "million",
      "year",    "people",  "local",    "state",     "report",  "program", "housing", "tax",
      "members", "voted",   "approved", "residents", "meeting", "office",  "service", "bus",
      "park",    "police",  "health",   "center",    "workers", "support", "funding", "plans",
      "data",    "growth",  "energy",   "power",     "market",  "price",   "prices",  "rates",
      "study",   "team",    "group",    "company",   "board",   "county",  "river",   "bridge"};
  constexpr size_t kCount = sizeof(kWords) / sizeof(kWords[0]);
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::string text;
  for (size_t sentence = 0; text.size() < bytes; ++sentence) {
    const size_t words = 8 + next() % 20;
    for (size_t i = 0; i < words; ++i) {
      std::string word = kWords[next() % kCount];
      if (i == 0) word[0] = static_cast<char>(word[0] - 'a' + 'A');
      text += word;
      text += i + 1 < words ? (next() % 9 == 0 ? ", " : " ") : ".";
    }
    text += sentence % 5 == 4 ? "\n\n" : " ";
  }
  return text;
}

TEST(Summarizer, TenKilobytesTakeAFewMilliseconds) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text = generated_text(10 * 1024);
  summarize(text);  // warm up (this thread's stemmer)
  std::vector<double> milliseconds;
  for (int run = 0; run < 200; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const SummaryAnswer answer = summarize(text);
    const auto stop = std::chrono::steady_clock::now();
    ASSERT_GE(answer.sentences_out, 1u);
    milliseconds.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(milliseconds.begin(), milliseconds.end());
  const SummaryAnswer answer = summarize(text);
  std::cout << "10 KB (" << text.size() << " bytes, " << answer.sentences_in << " sentences, "
            << count_words(text) << " words), 200 runs: p50 " << milliseconds[100] << " ms, p99 "
            << milliseconds[197] << " ms, max " << milliseconds.back() << " ms\n";
  const std::string large = generated_text(50'000);
  const auto start = std::chrono::steady_clock::now();
  const SummaryAnswer large_answer = summarize(large, 200);
  const auto stop = std::chrono::steady_clock::now();
  std::cout << "50 KB (" << large_answer.sentences_in
            << " sentences): " << std::chrono::duration<double, std::milli>(stop - start).count()
            << " ms\n";
  EXPECT_LE(count_words(large_answer.summary), 200u + 27u);
}

TEST(Summarizer, TheSameInputGivesTheSameSummaryOnEveryThread) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text = article_text() + "\n\n" + generated_text(3000);
  const std::string expected = summarize(text, 120).summary;
  EXPECT_EQ(summarize(text, 120).summary, expected);
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 20; ++run) results[t] = summarize(text, 120).summary;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::string& result : results) EXPECT_EQ(result, expected);
}

TEST(Summarizer, UnicodeTextIsSummarisedWithoutBreakingCharacters) {
  ASSERT_NE(summarizer(), nullptr);
  const std::string text =
      "Le conseil a approuv\xC3\xA9 le projet de tramway. Les travaux du tramway commencent en "
      "2026. \xC3\x89t\xC3\xA9 comme hiver, le tramway passera toutes les dix minutes. "
      "Les r\xC3\xA9sidents \xC3\xA9taient nombreux \xC3\xA0 la r\xC3\xA9union.";
  const SummaryAnswer answer = summarize(text, 12);
  EXPECT_EQ(answer.sentences_in, 4u);
  EXPECT_GE(answer.sentences_out, 1u);
  for (const TextRange& range : split_sentences(answer.summary)) {
    EXPECT_NE(text.find(range.of(answer.summary)), std::string::npos) << range.of(answer.summary);
  }
}

}  // namespace
}  // namespace opbase::ai
