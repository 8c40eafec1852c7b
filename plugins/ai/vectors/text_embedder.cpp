#include "vectors/text_embedder.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>

#include "vectors/text_tokens.hpp"
#include "vectors/word_vectors_format.hpp"

namespace opbase::ai {

namespace {

constexpr double kSifA = 1e-3;
constexpr uint32_t kCommonWords = 5000;  // the words the common direction is computed from
constexpr int kPowerIterations = 100;    // enough for the first component to settle
constexpr uint64_t kProjectionSeed = 0x6f7062617365'3031;  // "opbase01"
constexpr int kHashedCoordinates = 16;
constexpr size_t kBlock = 16;  // floats per step of project()

// splitmix64 (Steele, Lea, Flood 2014): a tiny generator with the same output everywhere.
uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A standard normal number by Box-Muller from two uniforms in (0, 1].
double gaussian(uint64_t* state) {
  const double u1 = static_cast<double>((splitmix64(state) >> 11) + 1) * 0x1.0p-53;
  const double u2 = static_cast<double>((splitmix64(state) >> 11) + 1) * 0x1.0p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Scales `v` to unit length; false (v unchanged) when it is zero.
bool normalise(std::vector<float>* v) {
  double sum = 0;
  for (const float x : *v) sum += double{x} * x;
  if (!(sum > 1e-24)) return false;
  const double inverse = 1.0 / std::sqrt(sum);
  for (float& x : *v) x = static_cast<float>(x * inverse);
  return true;
}

// target += column * x over `size` floats, a multiple of kBlock. Fixed-width blocks of
// non-aliasing arrays: a loop the compiler vectorises even at -O2's cheapest cost model (no
// trip-count or aliasing checks to add), where a plain loop stays scalar.
void add_scaled(const float* __restrict column, float x, size_t size, float* __restrict target) {
  for (size_t i = 0; i < size; i += kBlock) {
    for (size_t j = 0; j < kBlock; ++j) target[i + j] += column[i + j] * x;
  }
}

// The English contractions whose parts are in the vocabulary though the whole is not.
struct Contraction {
  std::string_view suffix;
  std::string_view word;  // what the suffix stands for; empty to drop it
};
constexpr Contraction kContractions[] = {
    {"n't", "not"},  {"'s", ""},   {"'re", "are"},  {"'ll", "will"},
    {"'ve", "have"}, {"'m", "am"}, {"'d", "would"},
};

// A negated modal's stem as a word: "ca(n't)" -> can, "wo(n't)" -> will, "sha(n't)" -> shall.
std::string_view stem_word(std::string_view stem) {
  if (stem == "ca") return "can";
  if (stem == "wo") return "will";
  if (stem == "sha") return "shall";
  return stem;
}

// Calls found(row) for each vocabulary word `token` stands for (step 1 in the header).
template <typename Found>
void resolve(const WordVectors& words, std::string_view token, Found&& found, int depth = 0) {
  if (token.empty()) return;
  if (const WordVectors::Row row = words.lookup(token); row.components != nullptr) {
    found(row);
    return;
  }
  if (depth > 3) return;
  if (token.find('\'') != std::string_view::npos) {
    for (const Contraction& c : kContractions) {
      if (token.size() > c.suffix.size() && token.ends_with(c.suffix)) {
        resolve(words, stem_word(token.substr(0, token.size() - c.suffix.size())), found,
                depth + 1);
        if (!c.word.empty()) resolve(words, c.word, found, depth + 1);
        return;
      }
    }
    std::string joined;  // "o'neill" -> oneill
    for (const char ch : token) {
      if (ch != '\'') joined.push_back(ch);
    }
    if (const WordVectors::Row row = words.lookup(joined); row.components != nullptr) {
      found(row);
      return;
    }
  }
  size_t start = 0;
  for (size_t at = 0; at <= token.size(); ++at) {
    if (at == token.size() || token[at] == '-' || token[at] == '\'') {
      if (at > start && !(start == 0 && at == token.size())) {
        resolve(words, token.substr(start, at - start), found, depth + 1);
      }
      start = at + 1;
    }
  }
}

}  // namespace

Result<std::shared_ptr<const TextEmbedder>> TextEmbedder::load(
    const std::filesystem::path& data_dir, int dimensions) {
  auto words = WordVectors::load(data_dir / kFileName);
  if (!words) return words.status();
  return create(std::move(words).value(), dimensions);
}

Result<std::shared_ptr<const TextEmbedder>> TextEmbedder::create(
    std::shared_ptr<const WordVectors> words, int dimensions) {
  if (words == nullptr) return Status::internal("no word vectors for the text embedder");
  const int n = words->dims();
  if (dimensions < n || dimensions > 65536) {
    return Status::validation("embedding dimensions must be from " + std::to_string(n) +
                              " to 65536, not " + std::to_string(dimensions));
  }
  std::shared_ptr<TextEmbedder> embedder(new TextEmbedder());
  embedder->words_ = std::move(words);
  embedder->dimensions_ = dimensions;
  double harmonic = 0;
  for (uint32_t r = 1; r <= embedder->words_->source_words(); ++r) harmonic += 1.0 / r;
  embedder->zipf_norm_ = harmonic;

  // The common direction: power iteration on the weighted frequent words' second moments.
  const WordVectors& table = *embedder->words_;
  const uint32_t sample = std::min(kCommonWords, table.size());
  std::vector<double> moments(size_t(n) * n, 0.0);
  std::vector<double> v(n);
  for (uint32_t i = 0; i < sample; ++i) {
    const WordVectors::Row row = table.row(i);
    const double w = embedder->sif_weight(row.rank) * row.scale;
    for (int k = 0; k < n; ++k) v[k] = w * row.components[k];
    for (int a = 0; a < n; ++a) {  // one triangle: the matrix is symmetric
      for (int b = a; b < n; ++b) moments[size_t(a) * n + b] += v[a] * v[b];
    }
  }
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < a; ++b) moments[size_t(a) * n + b] = moments[size_t(b) * n + a];
  }
  std::vector<double> u(n, 1.0 / std::sqrt(double(n)));
  for (int it = 0; it < kPowerIterations; ++it) {
    std::vector<double> next(n, 0.0);
    double norm = 0;
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) next[a] += moments[size_t(a) * n + b] * u[b];
      norm += next[a] * next[a];
    }
    norm = std::sqrt(norm);
    if (!(norm > 0)) break;
    for (int a = 0; a < n; ++a) u[a] = next[a] / norm;
  }
  embedder->common_.assign(u.begin(), u.end());
  normalise(&embedder->common_);

  // The projection: n seeded Gaussian columns of length D, orthonormalised (modified
  // Gram-Schmidt, in double), stored column by column: project() adds whole columns, a loop the
  // compiler vectorises (a row-by-row dot product would be one serial chain of additions).
  std::vector<std::vector<double>> columns(n, std::vector<double>(dimensions));
  uint64_t state = kProjectionSeed;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < dimensions; ++i) columns[k][i] = gaussian(&state);
  }
  for (int k = 0; k < n; ++k) {
    std::vector<double>& c = columns[k];
    for (int j = 0; j < k; ++j) {
      double dot = 0;
      for (int i = 0; i < dimensions; ++i) dot += c[i] * columns[j][i];
      for (int i = 0; i < dimensions; ++i) c[i] -= dot * columns[j][i];
    }
    double norm = 0;
    for (int i = 0; i < dimensions; ++i) norm += c[i] * c[i];
    norm = std::sqrt(norm);
    for (int i = 0; i < dimensions; ++i) c[i] /= norm;
  }
  embedder->stride_ = (size_t(dimensions) + kBlock - 1) / kBlock * kBlock;
  embedder->projection_.assign(embedder->stride_ * n, 0.0f);
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < dimensions; ++i) {
      embedder->projection_[size_t(k) * embedder->stride_ + i] = static_cast<float>(columns[k][i]);
    }
  }
  return std::shared_ptr<const TextEmbedder>(std::move(embedder));
}

float TextEmbedder::sif_weight(uint32_t rank) const {
  const double p = 1.0 / (double(rank) * zipf_norm_);
  return static_cast<float>(kSifA / (kSifA + p));
}

std::vector<TextEmbedder::KnownWord> TextEmbedder::known_words(std::string_view text) const {
  std::vector<KnownWord> known;
  for (const std::string& token : text_tokens(text)) {
    resolve(*words_, token, [&](const WordVectors::Row& row) {
      known.push_back({words_->word(row.index), row, sif_weight(row.rank)});
    });
  }
  return known;
}

void TextEmbedder::remove_common(std::vector<float>* v) const {
  double dot = 0;
  for (size_t k = 0; k < common_.size(); ++k) dot += double{(*v)[k]} * common_[k];
  for (size_t k = 0; k < common_.size(); ++k) (*v)[k] -= static_cast<float>(dot * common_[k]);
}

std::vector<float> TextEmbedder::word_direction(const WordVectors::Row& row) const {
  std::vector<float> v(words_->dims());
  for (size_t k = 0; k < v.size(); ++k) v[k] = row.scale * row.components[k];
  remove_common(&v);
  if (!normalise(&v)) return {};
  return v;
}

std::vector<float> TextEmbedder::base_vector(std::string_view text) const {
  const int n = words_->dims();
  std::vector<float> sum(n, 0.0f);
  bool any = false;
  for (const std::string& token : text_tokens(text)) {
    resolve(*words_, token, [&](const WordVectors::Row& row) {
      const float w = sif_weight(row.rank) * row.scale;
      for (int k = 0; k < n; ++k) sum[k] += w * row.components[k];
      any = true;
    });
  }
  if (!any) return {};
  remove_common(&sum);
  if (!normalise(&sum)) return {};
  return sum;
}

std::vector<float> TextEmbedder::project(const std::vector<float>& base) const {
  std::vector<float> out(stride_, 0.0f);
  for (size_t k = 0; k < base.size(); ++k) {
    add_scaled(&projection_[k * stride_], base[k], stride_, out.data());
  }
  out.resize(size_t(dimensions_));
  normalise(&out);
  return out;
}

std::vector<float> TextEmbedder::hashed(std::string_view text) const {
  std::vector<std::string> tokens = text_tokens(text);
  if (tokens.empty()) tokens.emplace_back(text);
  std::vector<float> out(dimensions_, 0.0f);
  for (const std::string& token : tokens) {
    uint64_t state = packed::word_hash(token);
    for (int j = 0; j < kHashedCoordinates; ++j) {
      const uint64_t r = splitmix64(&state);
      out[r % uint64_t(dimensions_)] += (r >> 63) != 0 ? -1.0f : 1.0f;
    }
  }
  if (!normalise(&out)) out[0] = 1.0f;  // tokens that cancelled out exactly
  return out;
}

std::vector<float> TextEmbedder::embed(std::string_view text) const {
  const std::vector<float> base = base_vector(text);
  if (base.empty()) return hashed(text);
  return project(base);
}

}  // namespace opbase::ai
