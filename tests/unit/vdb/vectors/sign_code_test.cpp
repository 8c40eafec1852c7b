// The sign codes a large collection's scan reads first (vectors/sign_code.hpp): the score of
// the machine's wide units equals the portable loop's, the score follows the cosine (a record
// equal to the query scores above its opposite), and on random unit vectors of 1,536
// dimensions, the hardest case, the true best 10 fall within the best 4 % of the scores.
#include "vectors/sign_code.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "under_sanitizer.hpp"
#include "vdb_random_vectors.hpp"
#include "vectors/dot_product.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

std::vector<uint64_t> signs_of(const std::vector<std::vector<float>>& vectors) {
  const size_t words = sign_words(vectors.front().size());
  std::vector<uint64_t> codes(vectors.size() * words);
  for (size_t i = 0; i < vectors.size(); ++i) encode_signs(vectors[i], codes.data() + i * words);
  return codes;
}

TEST(VdbSignCode, BitsAreThePositiveComponents) {
  const std::vector<float> v{0.5f, -0.5f, 0.0f, 0.25f};
  uint64_t word = ~uint64_t{0};
  encode_signs(v, &word);
  EXPECT_EQ(word, 0b1001u);
  EXPECT_EQ(sign_words(64), 1u);
  EXPECT_EQ(sign_words(65), 2u);
  EXPECT_EQ(sign_words(1536), 24u);
}

TEST(VdbSignCode, WideAndPortableScoresAreEqual) {
  for (size_t dimensions : {3, 100, 600, 1000, 1536, 2000, 3072}) {
    RandomVectors random(dimensions, 31);
    std::vector<std::vector<float>> vectors;
    for (int i = 0; i < 50; ++i) vectors.push_back(random.next());
    const auto codes = signs_of(vectors);
    const SignQuery query(random.next());
    std::vector<int32_t> wide(vectors.size()), portable(vectors.size());
    query.score(codes.data(), vectors.size(), wide.data());
    query.score_portable(codes.data(), vectors.size(), portable.data());
    EXPECT_EQ(wide, portable) << dimensions;
  }
}

TEST(VdbSignCode, TheQueryItselfScoresAboveItsOpposite) {
  RandomVectors random(1536, 32);
  const auto v = random.next();
  std::vector<float> opposite = v;
  for (float& x : opposite) x = -x;
  const auto codes = signs_of({v, opposite, random.next()});
  std::vector<int32_t> scores(3);
  SignQuery(v).score(codes.data(), 3, scores.data());
  EXPECT_GT(scores[0], scores[2]);
  EXPECT_GT(scores[2], scores[1]);
}

TEST(VdbSignCode, TheTrueBestTenAreWithinTheBestFourPercent) {
  constexpr size_t kDimensions = 1536, kRecords = testing::kUnderSanitizer ? 10000 : 20000;
  constexpr size_t kShortlist = kRecords / 25;
  constexpr int kQueries = 20;
  RandomVectors random(kDimensions, 33);
  std::vector<std::vector<float>> vectors;
  for (size_t i = 0; i < kRecords; ++i) vectors.push_back(random.next());
  const auto codes = signs_of(vectors);
  size_t found = 0;
  for (int q = 0; q < kQueries; ++q) {
    const auto query = random.next();
    std::vector<size_t> by_cosine(kRecords), by_score(kRecords);
    std::iota(by_cosine.begin(), by_cosine.end(), 0);
    std::iota(by_score.begin(), by_score.end(), 0);
    std::vector<float> cosines(kRecords);
    std::vector<int32_t> scores(kRecords);
    for (size_t i = 0; i < kRecords; ++i) {
      cosines[i] = dot_product(query.data(), vectors[i].data(), kDimensions);
    }
    SignQuery(query).score(codes.data(), kRecords, scores.data());
    std::partial_sort(by_cosine.begin(), by_cosine.begin() + 10, by_cosine.end(),
                      [&](size_t a, size_t b) { return cosines[a] > cosines[b]; });
    std::partial_sort(by_score.begin(), by_score.begin() + kShortlist, by_score.end(),
                      [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    const std::vector<size_t> shortlist(by_score.begin(), by_score.begin() + kShortlist);
    for (size_t i = 0; i < 10; ++i) {
      found += std::count(shortlist.begin(), shortlist.end(), by_cosine[i]);
    }
  }
  const double recall = static_cast<double>(found) / (10.0 * kQueries);
  std::printf("best 10 within the best 4 %% of sign scores: %.3f\n", recall);
  EXPECT_GE(recall, 0.9);
}

}  // namespace
}  // namespace opbase::vdb
