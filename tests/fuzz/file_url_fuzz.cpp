// libFuzzer target: the local backend's files route reads every request target a client sends
// (urls/signed_url.hpp). Any bytes must give a target or a VALIDATION_ERROR with a reason, never
// a crash; a target that reads must print back to a URL that reads the same, and checking its
// signature must not crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "urls/signed_url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // The first byte picks the method, the rest is the target.
  static constexpr std::string_view kMethods[] = {"PUT", "GET", "HEAD", "POST"};
  const std::string_view method = size > 0 ? kMethods[data[0] % 4] : "GET";
  const std::string_view target = size > 0 ? input.substr(1) : input;
  const auto read = opbase::file::read_file_target(method, target);
  if (!read) {
    if (read.status().code() != "VALIDATION_ERROR") std::abort();
    if (!read.status().details().contains("reason")) std::abort();
    return 0;
  }
  (void)opbase::file::signature_holds(*read, "secret");
  if (read->claimed) {
    const std::string again = opbase::file::signed_target(*read->claimed, "secret");
    const auto reread = opbase::file::read_file_target(method, again);
    if (!reread || !reread->claimed || reread->claimed->nonce != read->claimed->nonce ||
        reread->claimed->expires_s != read->claimed->expires_s || reread->key != read->key ||
        !opbase::file::signature_holds(*reread, "secret")) {
      std::abort();
    }
  }
  return 0;
}
