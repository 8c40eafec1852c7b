#include "vectors/word_vectors.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include "vectors/word_vectors_format.hpp"

namespace opbase::ai {

namespace {

uint32_t u32_at(const char* at) {
  uint32_t value;
  std::memcpy(&value, at, 4);
  return value;
}

packed::Entry entry_at(const char* entries, uint32_t index) {
  const char* at = entries + size_t{index} * packed::kEntryBytes;
  packed::Entry entry;
  std::memcpy(&entry, at, packed::kEntryBytes);
  return entry;
}

static_assert(sizeof(packed::Entry) == packed::kEntryBytes);

Status fault(const std::string& name, const std::string& what) {
  return Status::internal("word vectors " + name + ": " + what);
}

// The whole file, or a Status saying why not.
Status read_all(const std::filesystem::path& file, std::vector<char>* out) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(file, error);
  if (error) return fault(file.string(), "cannot be read (" + error.message() + ")");
  // Far above any real file (about 13 MB): a bound, so a wrong path cannot take all memory.
  if (size > (uintmax_t{1} << 31)) return fault(file.string(), "is too large to be the vectors");
  std::ifstream in(file, std::ios::binary);
  out->resize(static_cast<size_t>(size));
  if (!in || !in.read(out->data(), static_cast<std::streamsize>(size))) {
    return fault(file.string(), "cannot be read");
  }
  return Status::ok();
}

}  // namespace

Result<std::shared_ptr<const WordVectors>> WordVectors::load(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::shared_ptr<WordVectors> vectors(new WordVectors());
  if (Status read = read_all(file, &vectors->data_); !read) return read;
  const std::vector<char>& data = vectors->data_;
  if (data.size() < packed::kHeaderBytes) {
    return fault(name, "is truncated: " + std::to_string(data.size()) + " bytes, no header");
  }
  if (std::memcmp(data.data(), packed::kMagic, 8) != 0) {
    return fault(name, "is not a packed word-vector file (bad magic)");
  }
  packed::Header header;
  uint32_t fields[6];
  std::memcpy(fields, data.data() + 8, sizeof fields);
  header = {fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], 0};
  std::memcpy(&header.checksum, data.data() + 32, 8);
  if (header.version != packed::kVersion) {
    return fault(name, "has format version " + std::to_string(header.version) +
                           ", this build reads " + std::to_string(packed::kVersion));
  }
  if (header.count == 0 || header.dims == 0 || header.dims > packed::kMaxDims ||
      header.source_words < header.count || header.slots != packed::slots_for(header.count)) {
    return fault(name, "has a corrupt header (count " + std::to_string(header.count) + ", dims " +
                           std::to_string(header.dims) + ", slots " + std::to_string(header.slots) +
                           ")");
  }
  const uint64_t expected = packed::file_bytes(header);
  if (data.size() != expected) {
    return fault(name, std::string(data.size() < expected ? "is truncated" : "has trailing bytes") +
                           ": " + std::to_string(data.size()) + " bytes, the header says " +
                           std::to_string(expected));
  }
  const char* body = data.data() + packed::kHeaderBytes;
  if (packed::fnv1a(body, data.size() - packed::kHeaderBytes) != header.checksum) {
    return fault(name, "is corrupt (checksum mismatch)");
  }
  vectors->count_ = header.count;
  vectors->dims_ = header.dims;
  vectors->source_words_ = header.source_words;
  vectors->slots_ = header.slots;
  vectors->entries_ = body;
  vectors->slot_table_ = vectors->entries_ + size_t{header.count} * packed::kEntryBytes;
  vectors->vectors_ =
      reinterpret_cast<const int8_t*>(vectors->slot_table_ + size_t{header.slots} * 4);
  vectors->strings_ =
      reinterpret_cast<const char*>(vectors->vectors_) + size_t{header.count} * header.dims;
  if (Status checked = vectors->check_body(name); !checked) return checked;
  return std::shared_ptr<const WordVectors>(std::move(vectors));
}

// Every entry points inside the strings, has a rank and a finite scale, and is found by lookup
// (which, with every slot in range and one empty, proves the table sound for any word).
Status WordVectors::check_body(const std::string& name) {
  const size_t strings_bytes = data_.size() - static_cast<size_t>(strings_ - data_.data());
  uint32_t used = 0;
  for (uint32_t slot = 0; slot < slots_; ++slot) {
    const uint32_t value = u32_at(slot_table_ + size_t{slot} * 4);
    if (value > count_)
      return fault(name, "has a corrupt word table (slot " + std::to_string(slot) + ")");
    used += value != 0;
  }
  if (used != count_)
    return fault(name, "has a corrupt word table (" + std::to_string(used) + " words in it)");
  for (uint32_t i = 0; i < count_; ++i) {
    const packed::Entry entry = entry_at(entries_, i);
    if (entry.length == 0 || entry.offset > strings_bytes ||
        entry.length > strings_bytes - entry.offset || entry.rank == 0 ||
        entry.rank > source_words_ || !std::isfinite(entry.scale) || entry.scale < 0) {
      return fault(name, "has a corrupt entry for word " + std::to_string(i));
    }
  }
  for (uint32_t i = 0; i < count_; ++i) {
    if (lookup(word(i)).components != vectors_ + size_t{i} * dims_) {
      return fault(name, "has a corrupt word table (word " + std::to_string(i) + " is not found)");
    }
  }
  return Status::ok();
}

std::string_view WordVectors::word(uint32_t index) const {
  const packed::Entry entry = entry_at(entries_, index);
  return {strings_ + entry.offset, entry.length};
}

WordVectors::Row WordVectors::row(uint32_t index) const {
  const packed::Entry entry = entry_at(entries_, index);
  return {vectors_ + size_t{index} * dims_, entry.scale, entry.rank, index};
}

WordVectors::Row WordVectors::lookup(std::string_view text) const {
  const uint32_t mask = slots_ - 1;
  for (uint32_t slot = packed::word_hash(text) & mask;; slot = (slot + 1) & mask) {
    const uint32_t value = u32_at(slot_table_ + size_t{slot} * 4);
    if (value == 0) return {};
    if (word(value - 1) == text) return row(value - 1);
  }
}

}  // namespace opbase::ai
