// WordVectors: the packed word vectors (word_vectors_format.hpp) read once into memory, checked
// whole, then looked up by word. A missing, truncated or corrupt file is a Status naming the
// file and what is wrong with it, never a crash: every size and offset is checked at load, the
// body against its checksum, and every word against the hash table, so lookups need no checks.
//
// Thread-safety: immutable after load(); share one instance between all threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::ai {

class WordVectors {
 public:
  // One word's vector: component k is components[k] * scale.
  struct Row {
    const int8_t* components = nullptr;  // dims() values, owned by the WordVectors
    float scale = 0;
    uint32_t rank = 0;   // frequency rank in the source vocabulary, 1 = most frequent
    uint32_t index = 0;  // for word(index)
  };

  // Reads and checks `file`. Failures: INTERNAL_ERROR naming the file and the fault.
  static Result<std::shared_ptr<const WordVectors>> load(const std::filesystem::path& file);

  // The row of a lowercase word; components == nullptr when the word is not known.
  Row lookup(std::string_view word) const;

  // The i-th most frequent word kept (0 <= i < size()) and its row.
  Row row(uint32_t index) const;
  std::string_view word(uint32_t index) const;

  uint32_t size() const { return count_; }
  int dims() const { return static_cast<int>(dims_); }
  // Words in the source vocabulary the ranks come from (more than size(): the rest were cut).
  uint32_t source_words() const { return source_words_; }
  // Bytes held in memory for the file.
  size_t bytes() const { return data_.size(); }

 private:
  WordVectors() = default;
  Status check_body(const std::string& name);

  std::vector<char> data_;  // the whole file
  uint32_t count_ = 0;
  uint32_t dims_ = 0;
  uint32_t source_words_ = 0;
  uint32_t slots_ = 0;
  const char* entries_ = nullptr;
  const char* slot_table_ = nullptr;
  const int8_t* vectors_ = nullptr;
  const char* strings_ = nullptr;
};

}  // namespace opbase::ai
