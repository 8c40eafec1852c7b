#include "random_id.hpp"

#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

#include "opbase/hex.hpp"

namespace opbase::webhooks {

std::string random_id(std::string_view prefix, size_t bytes) {
  std::vector<unsigned char> random(bytes);
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
    throw std::runtime_error("no randomness for an id");
  }
  return std::string(prefix) +
         hex_encode(std::string_view(reinterpret_cast<const char*>(random.data()), bytes));
}

}  // namespace opbase::webhooks
