// Random ids of the webhooks plugin: a prefix and random bytes from OpenSSL's CSPRNG in hex
// ("whep_" endpoints, "whd_" delivering daemons). Throws std::runtime_error when the generator
// fails (the SDK turns that into INTERNAL_ERROR). Thread-safety: safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace opbase::webhooks {

std::string random_id(std::string_view prefix, size_t bytes);

}  // namespace opbase::webhooks
