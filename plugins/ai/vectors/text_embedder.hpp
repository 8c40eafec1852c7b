// TextEmbedder: the offline provider's text embeddings (ai.vectorize, the ai.embed service), made
// from the GloVe 6B 100-d word vectors with no model at run time. model_version
// "offline-glove-6b-100d-sif-v1". For a text:
//
// 1. Tokens (text_tokens.hpp) are looked up in the vocabulary; one that is not found is tried
//    as its parts: an English contraction as its words ("don't" -> do not, "we'll" -> we will,
//    a possessive "'s" dropped), a hyphenated compound as its parts (the vocabulary has many
//    compounds itself: "e-mail", "well-known").
// 2. The vector is the SIF mean of the known words (Arora et al. 2017, "A simple but
//    tough-to-beat baseline for sentence embeddings"): word w weighs a / (a + p(w)), a = 1e-3.
//    The data has no counts, only frequency ranks, so p(w) follows Zipf's law from the rank r:
//    p = 1 / (r * H), H = the harmonic number of the source vocabulary's size (13.3 for the
//    341,479 words of the source), which gives "the" p = 0.075 (weight 0.013), rank 1,000
//    p = 7.5e-5 (weight 0.93), and every rarer word a weight nearer 1.
// 3. The common component is removed: the part along one fixed direction that every text
//    shares, computed at load as the first principal component of the weighted vectors of the
//    5,000 most frequent words (SIF's "common discourse" direction; a fixed direction, so an
//    embedding does not depend on what else was embedded). On the unit test's pairs it moves
//    unrelated texts from a mean cosine of 0.39 to -0.07, paraphrases from 0.85 to 0.70.
// 4. The 100-d result, L2-normalised, is mapped into `dimensions` (any D >= 100; 1536 by
//    default) by a fixed D x 100 matrix with orthonormal columns, so cosines are kept exactly:
//    100 seeded Gaussian columns of length D (splitmix64 and Box-Muller, both written here, so
//    the same seed gives the same matrix on every machine) made orthonormal by modified
//    Gram-Schmidt, then the result L2-normalised.
// 5. A text with no known word gets a fixed unit vector hashed from its tokens (signed feature
//    hashing: each token adds +-1 at 16 coordinates drawn from a generator seeded with the
//    token's FNV-1a hash; a text with no token at all hashes its bytes). Equal texts get equal
//    vectors, different ones almost orthogonal ones, texts sharing tokens positive cosines.
//
// Thread-safety: immutable after load(); embed() and the other const methods may run
// concurrently from any number of threads.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "vectors/word_vectors.hpp"

namespace opbase::ai {

class TextEmbedder {
 public:
  // The packed vectors' file name in the data folder.
  static constexpr const char* kFileName = "glove-6b-100d.bin";
  static constexpr int kDefaultDimensions = 1536;

  // Loads `data_dir`/glove-6b-100d.bin. Failures: INTERNAL_ERROR naming the file, or
  // VALIDATION_ERROR for dimensions below the word vectors' 100.
  static Result<std::shared_ptr<const TextEmbedder>> load(const std::filesystem::path& data_dir,
                                                          int dimensions = kDefaultDimensions);
  // The same over vectors already loaded (several sizes can share one WordVectors).
  static Result<std::shared_ptr<const TextEmbedder>> create(
      std::shared_ptr<const WordVectors> words, int dimensions = kDefaultDimensions);

  // A unit vector of dimensions() floats.
  std::vector<float> embed(std::string_view text) const;
  int dimensions() const { return dimensions_; }
  const std::string& model_version() const { return model_version_; }

  // The layers below embed(), for the classifier, which works in the word vectors' own space.
  // Step 1-3's unit vector (dims of the word vectors); empty when the text has no known word.
  std::vector<float> base_vector(std::string_view text) const;
  // One known word of the text, as it was found in the vocabulary.
  struct KnownWord {
    std::string_view word;  // points into the WordVectors
    WordVectors::Row row;
    float weight = 0;  // its SIF weight
  };
  // The known words of a text, in order, repeats included.
  std::vector<KnownWord> known_words(std::string_view text) const;
  // A word vector with the common component removed, unit length (dims of the word vectors).
  std::vector<float> word_direction(const WordVectors::Row& row) const;
  const WordVectors& words() const { return *words_; }

 private:
  TextEmbedder() = default;
  float sif_weight(uint32_t rank) const;
  void remove_common(std::vector<float>* v) const;
  std::vector<float> project(const std::vector<float>& base) const;
  std::vector<float> hashed(std::string_view text) const;

  std::shared_ptr<const WordVectors> words_;
  int dimensions_ = 0;
  std::string model_version_ = "offline-glove-6b-100d-sif-v1";
  double zipf_norm_ = 1;           // the harmonic number H of the source vocabulary
  std::vector<float> common_;      // unit, dims of the word vectors
  std::vector<float> projection_;  // words_->dims() columns of stride_ floats (zero-padded)
  size_t stride_ = 0;              // dimensions_ rounded up to project()'s block
};

}  // namespace opbase::ai
