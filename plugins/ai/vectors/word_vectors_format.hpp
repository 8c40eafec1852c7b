// The packed word-vector file (`glove-6b-100d.bin`): what tools/glove_pack.cpp writes and
// WordVectors reads. One definition of the layout, so the two cannot drift apart.
//
// All numbers are little-endian. The file is, in order:
//   header   32 bytes: magic "OPBWVEC\0", then u32 version, count, dims, source_words, slots,
//            strings_bytes, then u64 checksum (FNV-1a 64 of every byte after the header)
//   entries  count x 16 bytes, most frequent word first: u32 string offset, u32 string length,
//            u32 rank (1 = the source's most frequent word), f32 scale
//   slots    slots x u32: an open-addressing hash table (linear probing from
//            word_hash(word) & (slots - 1)); a slot holds entry index + 1, 0 when empty
//   vectors  count x dims int8: entry i's components; component k is vectors[i][k] * scale
//   strings  strings_bytes bytes: the words, lowercase UTF-8, one after another, no separators
// `source_words` is the size of the vocabulary the ranks come from (for word probabilities).
//
// Thread-safety: constants and pure functions.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace opbase::ai::packed {

static_assert(std::endian::native == std::endian::little,
              "the packed word-vector file is read and written in place as little-endian");

inline constexpr char kMagic[8] = {'O', 'P', 'B', 'W', 'V', 'E', 'C', '\0'};
inline constexpr uint32_t kVersion = 1;
inline constexpr size_t kHeaderBytes = 40;
inline constexpr size_t kEntryBytes = 16;
inline constexpr uint32_t kMaxDims = 1024;

struct Header {
  uint32_t version = kVersion;
  uint32_t count = 0;
  uint32_t dims = 0;
  uint32_t source_words = 0;
  uint32_t slots = 0;
  uint32_t strings_bytes = 0;
  uint64_t checksum = 0;
};

struct Entry {
  uint32_t offset = 0;
  uint32_t length = 0;
  uint32_t rank = 0;
  float scale = 0;
};

// The file's size for a header's counts; the loader accepts no other.
inline constexpr uint64_t file_bytes(const Header& h) {
  return kHeaderBytes + uint64_t{h.count} * kEntryBytes + uint64_t{h.slots} * 4 +
         uint64_t{h.count} * h.dims + h.strings_bytes;
}

// FNV-1a, 64 bits: the word table's hash and, continued over the body, the file's checksum.
inline constexpr uint64_t kFnvOffset = 14695981039346656037ull;
inline uint64_t fnv1a(const void* data, size_t size, uint64_t hash = kFnvOffset) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  }
  return hash;
}

inline uint64_t word_hash(std::string_view word) { return fnv1a(word.data(), word.size()); }

// Slots for `count` words: a power of two at least twice the count, so probes stay short and
// at least one slot is always empty (a probe always ends).
inline constexpr uint32_t slots_for(uint32_t count) {
  uint32_t slots = 1;
  while (slots < 2 * uint64_t{count}) slots *= 2;
  return slots;
}

}  // namespace opbase::ai::packed
