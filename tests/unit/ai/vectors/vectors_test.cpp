// The offline text embeddings (plugins/ai/vectors): the packed word vectors' loader, the
// tokeniser and TextEmbedder's quality, shape, determinism and speed. Needs the packed file
// glove-6b-100d.bin in OPBASE_AI_DATA_DIR (default: <build>/plugins-out/ai-data).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ai_data_dir.hpp"
#include "vectors/text_embedder.hpp"
#include "vectors/text_tokens.hpp"
#include "vectors/word_vectors.hpp"
#include "vectors/word_vectors_format.hpp"

#ifndef OPBASE_TEST_BINARY_DIR
#define OPBASE_TEST_BINARY_DIR "."
#endif

namespace opbase::ai {
namespace {

namespace fs = std::filesystem;

fs::path data_dir() { return test::ai_data_dir(); }

fs::path data_file() { return data_dir() / TextEmbedder::kFileName; }

// One load of the word vectors and one embedder for the whole binary: loading is the slow
// part, and both are immutable.
std::shared_ptr<const WordVectors> shared_words() {
  static const std::shared_ptr<const WordVectors> shared = [] {
    auto loaded = WordVectors::load(data_file());
    if (!loaded) {
      ADD_FAILURE() << loaded.status().to_string();
      return std::shared_ptr<const WordVectors>();
    }
    return std::move(loaded).value();
  }();
  return shared;
}

std::shared_ptr<const TextEmbedder> embedder() {
  static const std::shared_ptr<const TextEmbedder> shared = [] {
    if (shared_words() == nullptr) return std::shared_ptr<const TextEmbedder>();
    auto created = TextEmbedder::create(shared_words());
    if (!created) {
      ADD_FAILURE() << created.status().to_string();
      return std::shared_ptr<const TextEmbedder>();
    }
    return std::move(created).value();
  }();
  return shared;
}

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double{a[i]} * b[i];
    na += double{a[i]} * a[i];
    nb += double{b[i]} * b[i];
  }
  return dot / std::sqrt(na * nb);
}

double norm(const std::vector<float>& v) {
  double sum = 0;
  for (const float x : v) sum += double{x} * x;
  return std::sqrt(sum);
}

// embed("Deterministic embeddings ...")[0, 1, 1535] as computed once; see SameTextSameVector.
constexpr double kPinned[3] = {-0.029053455, 0.006509322, -0.036404762};

using Pair = std::pair<const char*, const char*>;

// Same meaning, mostly different words.
const std::vector<Pair> kParaphrases = {
    {"The cat slept on the rug.", "A kitten was napping on the carpet."},
    {"How do I reset my password?", "I forgot my login credentials and need to change them."},
    {"The stock market fell sharply today.", "Share prices dropped steeply this afternoon."},
    {"The doctor prescribed antibiotics for the infection.",
     "The physician gave her medicine to treat the bacterial illness."},
    {"Our flight was delayed by three hours.", "The plane departed three hours late."},
    {"She is learning to play the guitar.", "She takes lessons to become a guitarist."},
    {"The company reported record profits this quarter.",
     "The firm's quarterly earnings were the highest ever."},
    {"Heavy rain caused flooding in the city.", "Storms flooded the town's streets."},
    {"Please send me the invoice for my order.", "Could you email the bill for my purchase?"},
    {"The team won the championship game.", "The squad claimed victory in the final match."},
    {"I am very happy with this product.", "I love this item, it is great."},
    {"The car would not start this morning.", "My vehicle's engine failed to turn over today."},
    {"Scientists discovered a new species of frog.",
     "Researchers found a previously unknown amphibian."},
    {"The restaurant serves delicious Italian food.",
     "That eatery has tasty pasta and pizza dishes."},
    {"The package was delivered to the wrong address.",
     "The parcel went to an incorrect location."},
    {"The president signed the new law.", "The bill was enacted by the head of state."},
};

// Nothing in common.
const std::vector<Pair> kUnrelated = {
    {"The cat slept on the rug.", "Share prices dropped steeply this afternoon."},
    {"How do I reset my password?", "Storms flooded the town's streets."},
    {"The stock market fell sharply today.", "She takes lessons to become a guitarist."},
    {"The doctor prescribed antibiotics for the infection.", "The squad claimed victory."},
    {"Our flight was delayed by three hours.", "That eatery has tasty pasta and pizza dishes."},
    {"She is learning to play the guitar.", "The parcel went to an incorrect location."},
    {"The company reported record profits this quarter.", "A kitten was napping on the carpet."},
    {"Heavy rain caused flooding in the city.", "I forgot my login credentials."},
    {"Please send me the invoice for my order.", "Researchers found an unknown amphibian."},
    {"The team won the championship game.", "The physician treated the bacterial illness."},
    {"I am very happy with this product.", "The bill was enacted by the head of state."},
    {"The car would not start this morning.", "The firm's quarterly earnings were the highest."},
    {"Scientists discovered a new species of frog.", "Could you email the bill for my purchase?"},
    {"The restaurant serves delicious Italian food.", "The plane departed three hours late."},
    {"The package was delivered to the wrong address.", "My vehicle's engine failed to start."},
    {"The president signed the new law.", "I love this item, it is great."},
};

std::vector<double> cosines(const TextEmbedder& e, const std::vector<Pair>& pairs) {
  std::vector<double> out;
  for (const auto& [a, b] : pairs) out.push_back(cosine(e.embed(a), e.embed(b)));
  return out;
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

// The chance that a random related pair scores above a random unrelated one (ties count half).
double ranking_auc(const std::vector<double>& related, const std::vector<double>& unrelated) {
  double wins = 0;
  for (const double r : related) {
    for (const double u : unrelated) wins += r > u ? 1.0 : r == u ? 0.5 : 0.0;
  }
  return wins / double(related.size() * unrelated.size());
}

TEST(TextEmbedder, ParaphrasesScoreAboveUnrelatedPairs) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  const std::vector<double> related = cosines(*e, kParaphrases);
  const std::vector<double> unrelated = cosines(*e, kUnrelated);
  const double auc = ranking_auc(related, unrelated);
  std::printf(
      "paraphrase pairs: %zu, mean cosine %.3f; unrelated pairs: %zu, mean cosine %.3f; "
      "ranking AUC %.3f\n",
      related.size(), mean(related), unrelated.size(), mean(unrelated), auc);
  for (size_t i = 0; i < related.size(); ++i) {
    std::printf("  %.3f  %s | %s\n", related[i], kParaphrases[i].first, kParaphrases[i].second);
  }
  EXPECT_GE(auc, 0.9);
  EXPECT_GT(mean(related) - mean(unrelated), 0.3);
}

TEST(TextEmbedder, VectorsAreUnitLengthOfTheAskedSize) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->dimensions(), 1536);
  EXPECT_EQ(e->model_version(), "offline-glove-6b-100d-sif-v1");
  for (const char* text : {"Hello world", "The doctor prescribed antibiotics.", "x", "???",
                           "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "qwzxv plorkt"}) {
    const std::vector<float> v = e->embed(text);
    ASSERT_EQ(v.size(), 1536u) << text;
    EXPECT_NEAR(norm(v), 1.0, 1e-5) << text;
    for (const float x : v) ASSERT_TRUE(std::isfinite(x)) << text;
  }
}

TEST(TextEmbedder, AnyDimensionFromTheWordVectorsUpKeepsCosines) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  const auto words = shared_words();
  for (const int d : {100, 384, 2048}) {
    auto other = TextEmbedder::create(words, d);
    ASSERT_TRUE(other) << other.status().to_string();
    EXPECT_EQ((*other)->dimensions(), d);
    for (const auto& [a, b] : kParaphrases) {
      const std::vector<float> va = (*other)->embed(a);
      ASSERT_EQ(va.size(), size_t(d));
      EXPECT_NEAR(norm(va), 1.0, 1e-5);
      // The map is orthonormal: a pair's cosine is the same in every size.
      EXPECT_NEAR(cosine(va, (*other)->embed(b)), cosine(e->embed(a), e->embed(b)), 1e-4) << d;
    }
  }
  for (const int d : {0, 99, -5}) {
    auto refused = TextEmbedder::create(words, d);
    ASSERT_FALSE(refused) << d;
    EXPECT_EQ(refused.status().code(), "VALIDATION_ERROR");
  }
}

TEST(TextEmbedder, SameTextSameVectorInEveryLoad) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  auto again = TextEmbedder::create(shared_words());  // its own map and common direction
  ASSERT_TRUE(again) << again.status().to_string();
  const char* text = "Deterministic embeddings make search results reproducible.";
  const std::vector<float> v = e->embed(text);
  EXPECT_EQ(v, e->embed(text));
  EXPECT_EQ(v, (*again)->embed(text));
  EXPECT_EQ(e->embed("zzqx unknownish"), (*again)->embed("zzqx unknownish"));
  // Pinned values: the seeded map and the weights must give these on every machine.
  std::printf("pinned: %.6f %.6f %.6f\n", v[0], v[1], v[1535]);
  EXPECT_NEAR(v[0], kPinned[0], 1e-5);
  EXPECT_NEAR(v[1], kPinned[1], 1e-5);
  EXPECT_NEAR(v[1535], kPinned[2], 1e-5);
}

TEST(TextEmbedder, ThreadsShareOneEmbedder) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  std::vector<std::vector<float>> expected;
  for (const auto& [a, b] : kParaphrases) expected.push_back(e->embed(a));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 5; ++round) {
        for (size_t i = 0; i < kParaphrases.size(); ++i) {
          if (e->embed(kParaphrases[i].first) != expected[i]) ++mismatches;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(TextEmbedder, CaseAccentsAndPunctuationDoNotMatter) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->embed("The Cafe, downtown!"), e->embed("the caf\xC3\xA9 downtown"));
  EXPECT_EQ(e->embed("DON'T STOP"), e->embed("don\xE2\x80\x99t stop"));
  EXPECT_GT(cosine(e->embed("I don't like it"), e->embed("I do not like it")), 0.999);
  // A compound the vocabulary lacks is its parts; one it has ("e-mail") is itself.
  EXPECT_EQ(e->embed("a doctor-cat-lawyer"), e->embed("a doctor cat lawyer"));
  EXPECT_NE(e->embed("e-mail"), e->embed("e mail"));
}

TEST(TextEmbedder, TextWithNoKnownWordGetsAFixedHashedVector) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  const std::vector<float> a = e->embed("qwzxv plorkt");
  const std::vector<float> b = e->embed("zzyzx frobnitzqq");
  const std::vector<float> japanese = e->embed("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E");
  EXPECT_TRUE(e->base_vector("qwzxv plorkt").empty());
  EXPECT_EQ(a, e->embed("QWZXV, plorkt!")) << "the same tokens: the same vector";
  EXPECT_LT(std::fabs(cosine(a, b)), 0.2) << "different unknown texts differ";
  EXPECT_LT(std::fabs(cosine(a, japanese)), 0.2);
  EXPECT_GT(cosine(a, e->embed("qwzxv")), 0.5) << "a shared token shows";
  EXPECT_NE(e->embed("???"), e->embed("!!!")) << "no token at all: the bytes are hashed";
  EXPECT_NEAR(norm(e->embed("")), 1.0, 1e-6);
  // One known word is enough to use the word vectors.
  EXPECT_FALSE(e->base_vector("qwzxv doctor").empty());
}

TEST(TextTokens, SplitsOnPunctuationKeepsJoinersAndFoldsCase) {
  using V = std::vector<std::string>;
  EXPECT_EQ(text_tokens("Hello, World! 42x"), (V{"hello", "world", "42x"}));
  EXPECT_EQ(text_tokens("don't e-mail O\xE2\x80\x99Neill"), (V{"don't", "e-mail", "o'neill"}));
  EXPECT_EQ(text_tokens("'quoted' -dash- a--b x'"), (V{"quoted", "dash", "a", "b", "x"}));
  EXPECT_EQ(text_tokens("\xC3\x89T\xC3\x89 na\xC3\xAFve Stra\xC3\x9F"
                        "e \xC3\x97"),
            (V{"ete", "naive", "strasse"}));
  EXPECT_EQ(text_tokens("\xE6\x97\xA5\xE6\x9C\xAC\xE3\x80\x82\xE8\xAA\x9E"),
            (V{"\xE6\x97\xA5\xE6\x9C\xAC", "\xE8\xAA\x9E"}))
      << "an ideographic full stop separates";
  EXPECT_EQ(text_tokens("a\xFF"
                        "b \xE2\x80\x9Cq\xE2\x80\x9D"),
            (V{"a\xFF"
               "b",
               "q"}));
  EXPECT_TRUE(text_tokens(" \t.,;!? ").empty());
}

// --- The packed file's checks -------------------------------------------------------------

std::string read_bytes(const fs::path& file) {
  std::string bytes(fs::file_size(file), '\0');
  std::ifstream in(file, std::ios::binary);
  in.read(bytes.data(), std::streamsize(bytes.size()));
  return bytes;
}

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("ai_vectors_test_" + std::to_string(::getpid()) + name);
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

uint32_t u32_at(const std::string& bytes, size_t at) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

// Writes the right checksum into the header of `bytes` (for faults the checksum cannot see:
// a file written wrongly from the start).
void reseal(std::string* bytes) {
  const uint64_t sum =
      packed::fnv1a(bytes->data() + packed::kHeaderBytes, bytes->size() - packed::kHeaderBytes);
  std::memcpy(bytes->data() + 32, &sum, 8);
}

// A small valid file holding the `count` most frequent words of `words`, built the way
// glove_pack builds one.
std::string small_file(const WordVectors& words, uint32_t count) {
  packed::Header h;
  h.count = count;
  h.dims = uint32_t(words.dims());
  h.source_words = words.source_words();
  h.slots = packed::slots_for(count);
  std::string entries, strings, vectors;
  std::vector<uint32_t> slots(h.slots, 0);
  for (uint32_t i = 0; i < count; ++i) {
    const WordVectors::Row row = words.row(i);
    const std::string_view word = words.word(i);
    const packed::Entry entry{uint32_t(strings.size()), uint32_t(word.size()), row.rank, row.scale};
    entries.append(reinterpret_cast<const char*>(&entry), sizeof entry);
    strings.append(word);
    vectors.append(reinterpret_cast<const char*>(row.components), size_t(h.dims));
    uint32_t slot = packed::word_hash(word) & (h.slots - 1);
    while (slots[slot] != 0) slot = (slot + 1) & (h.slots - 1);
    slots[slot] = i + 1;
  }
  h.strings_bytes = uint32_t(strings.size());
  std::string bytes(packed::kMagic, 8);
  bytes.append(reinterpret_cast<const char*>(&h), 24);
  bytes.append(8, '\0');
  bytes += entries;
  bytes.append(reinterpret_cast<const char*>(slots.data()), slots.size() * 4);
  bytes += vectors + strings;
  reseal(&bytes);
  return bytes;
}

// Loads `bytes` written to a file; the Status (ok or not).
Status load_bytes(const std::string& bytes) {
  const fs::path file = temp_file(".bin");
  write_bytes(file, bytes);
  auto loaded = WordVectors::load(file);
  fs::remove(file);
  return loaded.status();
}

TEST(WordVectors, LooksUpWordsWithTheirRank) {
  ASSERT_NE(shared_words(), nullptr);
  const WordVectors& w = *shared_words();
  EXPECT_EQ(w.size(), 100000u);
  EXPECT_EQ(w.dims(), 100);
  EXPECT_EQ(w.source_words(), 341479u);
  EXPECT_EQ(w.word(0), "the");
  EXPECT_EQ(w.lookup("the").rank, 1u);
  EXPECT_EQ(w.lookup("doctor").rank, 1970u);
  EXPECT_EQ(w.lookup("e-mail").rank, 26721u);
  EXPECT_EQ(w.lookup("Doctor").components, nullptr) << "the table is lowercase";
  EXPECT_EQ(w.lookup("zzqxv").components, nullptr);
  EXPECT_EQ(w.lookup(",").components, nullptr) << "punctuation tokens are not kept";
  // "the" in GloVe 6B 100d starts -0.038194, -0.24487, 0.72812; int8 keeps it within scale/2.
  const WordVectors::Row the = w.lookup("the");
  EXPECT_NEAR(the.components[0] * the.scale, -0.038194, the.scale / 2 + 1e-6);
  EXPECT_NEAR(the.components[1] * the.scale, -0.24487, the.scale / 2 + 1e-6);
  EXPECT_NEAR(the.components[2] * the.scale, 0.72812, the.scale / 2 + 1e-6);
}

TEST(WordVectors, MissingOrTruncatedFilesAreStatusesNamingTheFile) {
  const auto missing = WordVectors::load("/nonexistent/glove-6b-100d.bin");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), "INTERNAL_ERROR");
  EXPECT_NE(missing.status().message().find("/nonexistent/glove-6b-100d.bin"), std::string::npos);
  EXPECT_FALSE(WordVectors::load(fs::temp_directory_path()));

  const std::string full = read_bytes(data_file());
  ASSERT_GT(full.size(), 1000u);
  const fs::path file = temp_file("-truncated.bin");
  // (Random truncations of a small file: SurvivesRandomDamage.)
  for (const size_t size :
       {size_t{0}, size_t{1}, size_t{39}, size_t{40}, size_t{41}, size_t{1000}, full.size() - 1}) {
    write_bytes(file, full.substr(0, size));
    const auto loaded = WordVectors::load(file);
    ASSERT_FALSE(loaded) << size;
    EXPECT_NE(loaded.status().message().find(file.string()), std::string::npos)
        << loaded.status().to_string();
  }
  write_bytes(file, full + "x");
  EXPECT_FALSE(WordVectors::load(file));
  std::string flipped = full;
  flipped[full.size() / 2] ^= 0x20;
  write_bytes(file, flipped);
  const auto corrupt = WordVectors::load(file);
  ASSERT_FALSE(corrupt);
  EXPECT_NE(corrupt.status().message().find("checksum"), std::string::npos);
  fs::remove(file);
}

TEST(WordVectors, RejectsFilesWrittenWrongly) {
  ASSERT_NE(shared_words(), nullptr);
  const std::string good = small_file(*shared_words(), 300);
  ASSERT_TRUE(load_bytes(good).is_ok()) << load_bytes(good).to_string();
  const size_t entries = packed::kHeaderBytes;
  const size_t slots = entries + 300 * packed::kEntryBytes;

  auto expect_refused = [&](std::string bytes, const char* what, const char* why) {
    reseal(&bytes);
    const Status status = load_bytes(bytes);
    EXPECT_FALSE(status.is_ok()) << why;
    EXPECT_NE(status.message().find(what), std::string::npos) << why << ": " << status.to_string();
  };
  std::string bad = good;
  bad[0] = 'X';
  expect_refused(bad, "bad magic", "magic");
  bad = good;
  bad[8] = 2;
  expect_refused(bad, "format version 2", "version");
  bad = good;
  bad[16] = 101;  // dims
  expect_refused(bad, "truncated", "dims");
  bad = good;
  bad[entries] = char(0xF0);  // the first word's offset beyond the strings
  bad[entries + 1] = char(0xFF);
  expect_refused(bad, "corrupt entry", "offset");
  bad = good;
  std::memset(bad.data() + entries + 8, 0, 4);  // rank 0
  expect_refused(bad, "corrupt entry", "rank");
  bad = good;
  for (size_t at = slots;; at += 4) {  // a slot pointing past the words
    if (u32_at(bad, at) != 0) {
      const uint32_t past = 301;
      std::memcpy(bad.data() + at, &past, 4);
      break;
    }
  }
  expect_refused(bad, "word table", "slot");
  bad = good;
  bad[bad.size() - 1] ^= 0x01;  // the last word's spelling: no longer where its hash says
  expect_refused(bad, "word table", "spelling");
}

// Fuzz-like: random truncations and byte changes of a small file, resealed or not, load as a
// Status or as vectors whose lookups stay in bounds; never a crash (run under sanitizers too).
TEST(WordVectors, SurvivesRandomDamage) {
  ASSERT_NE(shared_words(), nullptr);
  const std::string good = small_file(*shared_words(), 50);
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  int refused = 0;
  for (int round = 0; round < 400; ++round) {
    std::string bytes = good;
    const int kind = round % 4;
    if (kind == 0) {
      bytes.resize(next() % bytes.size());
    } else {
      for (int flips = 1 + int(next() % 3); flips > 0; --flips) {
        bytes[next() % bytes.size()] = char(next());
      }
      if (kind >= 2) reseal(&bytes);
    }
    const fs::path file = temp_file("-fuzz.bin");
    write_bytes(file, bytes);
    const auto loaded = WordVectors::load(file);
    if (!loaded) {
      ++refused;
      EXPECT_NE(loaded.status().message().find(file.string()), std::string::npos);
      continue;
    }
    for (uint32_t i = 0; i < (*loaded)->size(); ++i) {
      const WordVectors::Row row = (*loaded)->lookup((*loaded)->word(i));
      ASSERT_NE(row.components, nullptr);
    }
    (*loaded)->lookup("doctor");
  }
  std::printf("damaged files: 400, refused: %d\n", refused);
  EXPECT_GE(refused, 200) << "truncations and unsealed changes are all refused";
  fs::remove(temp_file("-fuzz.bin"));
}

// --- Speed and memory ---------------------------------------------------------------------

// This thread's CPU time: steadier than the clock on a machine others share.
double thread_cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e6 + double(t.tv_nsec) / 1e3;
}

long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

TEST(TextEmbedder, EmbedsAKibibyteAndReportsTheTime) {
  const auto e = embedder();
  ASSERT_NE(e, nullptr);
  std::string text;
  for (int i = 0; text.size() < 1024; ++i) {
    text += kParaphrases[i % kParaphrases.size()].first;
    text += ' ';
    text += kParaphrases[i % kParaphrases.size()].second;
    text += ' ';
  }
  text.resize(1024);
  const int rounds = 200;
  float sink = 0;
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_us();
  for (int i = 0; i < rounds; ++i) sink += e->embed(text)[i % 1536];
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      rounds;
  const double cpu_us = (thread_cpu_us() - cpu_start) / rounds;
  std::printf(
      "embed 1 KiB (%zu tokens) at 1536 dimensions: %.1f us each (%.1f us of CPU; "
      "sink %.3f)\n",
      text_tokens(text).size(), us, cpu_us, sink);
  EXPECT_EQ(e->embed(text).size(), 1536u);
}

TEST(TextEmbedder, ReportsItsMemory) {
  const long before = rss_kib();
  const auto start = std::chrono::steady_clock::now();
  auto loaded = TextEmbedder::load(data_dir());
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(loaded) << loaded.status().to_string();
  const long after = rss_kib();
  const size_t file = fs::file_size(data_file());
  std::printf(
      "file %zu bytes; in memory %zu bytes + projection %zu bytes; RSS +%ld KiB "
      "(process %ld KiB); load %.0f ms\n",
      file, (*loaded)->words().bytes(), size_t(1536) * 100 * 4, after - before, after, ms);
  EXPECT_EQ((*loaded)->words().bytes(), file);
}

}  // namespace
}  // namespace opbase::ai
