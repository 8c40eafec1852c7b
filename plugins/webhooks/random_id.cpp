#include "random_id.hpp"

#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

namespace opbase::webhooks {

std::string random_id(std::string_view prefix, size_t bytes) {
  std::vector<unsigned char> random(bytes);
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
    throw std::runtime_error("no randomness for an id");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(prefix);
  for (unsigned char b : random) {
    id.push_back(kHex[b >> 4]);
    id.push_back(kHex[b & 15]);
  }
  return id;
}

}  // namespace opbase::webhooks
