#include "vectors/sign_code.hpp"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// GCC 12's AVX-512 headers start vectors as `__Y = __Y` on purpose, which its own analysis then
// reports where they are inlined; nothing here is read uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace opbase::vdb {

namespace {

constexpr int kPlanes = 4;  // the query's levels: 16, from -largest to +largest

// With the query's component q = step * (u - 7.5), u its level 0..15, and the record's
// estimated as +1 or -1 (2b - 1, b its sign bit):
//   sum(q * (2b - 1)) = step * (2 * sum(u * b) - 15 * popcount(b) - sum(u) + 7.5 * n),
// where only the first two terms depend on the record: the score is 2 * sum(u * b) - 15 *
// popcount(b), an integer, with sum(u * b) = sum over planes p of 2^p * popcount(plane_p & b).

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
void score_words(const uint64_t* planes, size_t words, const uint64_t* codes, size_t count,
                 int32_t* scores) {
  for (size_t r = 0; r < count; ++r) {
    const uint64_t* bits = codes + r * words;
    int64_t score = 0;
    for (size_t w = 0; w < words; ++w) {
      for (int p = 0; p < kPlanes; ++p) {
        score += int64_t{__builtin_popcountll(planes[p * words + w] & bits[w])} << (p + 1);
      }
      score -= 15 * int64_t{__builtin_popcountll(bits[w])};
    }
    scores[r] = static_cast<int32_t>(score);
  }
}

#if defined(__x86_64__)
// AVX-512 with its own population count: eight words an instruction, a record of 1,536
// dimensions in three loads. The query's planes stay in registers for the whole scan when they
// fit (up to kHeldChunks chunks of eight words: 2,048 dimensions), which makes it a third
// faster; the last chunk of a record is masked to its words.
constexpr int kHeldChunks = 4;

template <int Chunks>
__attribute__((target("avx512f,avx512vpopcntdq"))) void score_words_avx512(
    const uint64_t* planes, size_t words, const uint64_t* codes, size_t count, int32_t* scores) {
  const auto tail = static_cast<__mmask8>(0xFFu >> (Chunks * 8 - words));
  const auto lanes = [&](int chunk) { return chunk + 1 < Chunks ? __mmask8{0xFF} : tail; };
  __m512i held[kPlanes][Chunks];
  for (int c = 0; c < Chunks; ++c) {
    for (int p = 0; p < kPlanes; ++p) {
      held[p][c] = _mm512_maskz_loadu_epi64(lanes(c), planes + p * words + 8 * c);
    }
  }
  for (size_t r = 0; r < count; ++r) {
    const uint64_t* bits = codes + r * words;
    __m512i score = _mm512_setzero_si512();
    for (int c = 0; c < Chunks; ++c) {
      const __m512i b = _mm512_maskz_loadu_epi64(lanes(c), bits + 8 * c);
      const __m512i ones = _mm512_popcnt_epi64(b);
      score = _mm512_sub_epi64(score, _mm512_sub_epi64(_mm512_slli_epi64(ones, 4), ones));
      for (int p = 0; p < kPlanes; ++p) {
        const __m512i count_p = _mm512_popcnt_epi64(_mm512_and_si512(held[p][c], b));
        score = _mm512_add_epi64(score, _mm512_slli_epi64(count_p, p + 1));
      }
    }
    scores[r] = static_cast<int32_t>(_mm512_reduce_add_epi64(score));
  }
}

// Longer vectors: the planes are read from memory (the cache) for each record.
__attribute__((target("avx512f,avx512vpopcntdq"))) void score_words_avx512_long(
    const uint64_t* planes, size_t words, const uint64_t* codes, size_t count, int32_t* scores) {
  for (size_t r = 0; r < count; ++r) {
    const uint64_t* bits = codes + r * words;
    __m512i score = _mm512_setzero_si512();
    for (size_t w = 0; w < words; w += 8) {
      const __mmask8 lanes = words - w >= 8 ? 0xFF : static_cast<__mmask8>((1u << (words - w)) - 1);
      const __m512i b = _mm512_maskz_loadu_epi64(lanes, bits + w);
      const __m512i ones = _mm512_popcnt_epi64(b);
      score = _mm512_sub_epi64(score, _mm512_sub_epi64(_mm512_slli_epi64(ones, 4), ones));
      for (int p = 0; p < kPlanes; ++p) {
        const __m512i plane = _mm512_maskz_loadu_epi64(lanes, planes + p * words + w);
        const __m512i count_p = _mm512_popcnt_epi64(_mm512_and_si512(plane, b));
        score = _mm512_add_epi64(score, _mm512_slli_epi64(count_p, p + 1));
      }
    }
    scores[r] = static_cast<int32_t>(_mm512_reduce_add_epi64(score));
  }
}

void score_words_wide(const uint64_t* planes, size_t words, const uint64_t* codes, size_t count,
                      int32_t* scores) {
  switch ((words + 7) / 8) {
    case 1:
      return score_words_avx512<1>(planes, words, codes, count, scores);
    case 2:
      return score_words_avx512<2>(planes, words, codes, count, scores);
    case 3:
      return score_words_avx512<3>(planes, words, codes, count, scores);
    case kHeldChunks:
      return score_words_avx512<kHeldChunks>(planes, words, codes, count, scores);
    default:
      return score_words_avx512_long(planes, words, codes, count, scores);
  }
}
#endif

}  // namespace

void encode_signs(std::span<const float> vector, uint64_t* words) {
  std::fill_n(words, sign_words(vector.size()), 0);
  for (size_t i = 0; i < vector.size(); ++i) {
    if (vector[i] > 0) words[i / 64] |= uint64_t{1} << (i % 64);
  }
}

SignQuery::SignQuery(std::span<const float> unit_query)
    : words_(sign_words(unit_query.size())), planes_(kPlanes * words_, 0) {
  float largest = 0;
  for (const float x : unit_query) largest = std::max(largest, std::fabs(x));
  if (largest == 0) return;
  const float step = 2 * largest / 15;
  for (size_t i = 0; i < unit_query.size(); ++i) {
    const auto level =
        static_cast<uint32_t>(std::clamp(std::lround((unit_query[i] + largest) / step), 0L, 15L));
    for (int p = 0; p < kPlanes; ++p) {
      if ((level >> p) & 1u) planes_[p * words_ + i / 64] |= uint64_t{1} << (i % 64);
    }
  }
}

void SignQuery::score(const uint64_t* codes, size_t count, int32_t* scores) const {
#if defined(__x86_64__)
  static const bool wide =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq");
  if (wide) return score_words_wide(planes_.data(), words_, codes, count, scores);
#endif
  score_portable(codes, count, scores);
}

void SignQuery::score_portable(const uint64_t* codes, size_t count, int32_t* scores) const {
  score_words(planes_.data(), words_, codes, count, scores);
}

}  // namespace opbase::vdb
