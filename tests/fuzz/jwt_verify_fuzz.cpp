// Fuzzes the id token parser (plugins/auth/keys/jwt.hpp): any bytes as a token must give a Status,
// never a crash, and only a token this process signed may pass. The input also drives a round
// trip: when it is a JSON object, it is signed as claims (with an exp in the future) with an
// ES256 and an HS256 key, and verify must give exactly those claims back, and refuse the token
// once any one character of it changes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "keys/jwt.hpp"
#include "keys/signing_key.hpp"
#include "opbase/base64.hpp"

namespace {

using nlohmann::json;
using opbase::auth::Alg;
using opbase::auth::SigningKey;

constexpr int64_t kNow = 1'800'000'000;

const SigningKey& key_of(Alg alg) {
  static const SigningKey es = *SigningKey::generate(Alg::kEs256);
  static const SigningKey hs = *SigningKey::generate(Alg::kHs256);
  return alg == Alg::kEs256 ? es : hs;
}

const SigningKey* lookup(std::string_view kid) {
  for (Alg alg : {Alg::kEs256, Alg::kHs256}) {
    if (key_of(alg).kid() == kid) return &key_of(alg);
  }
  return nullptr;
}

// Same signed part and the same signature bytes once decoded.
bool same_token(const std::string& a, const std::string& b) {
  const size_t a_dot = a.rfind('.');
  const size_t b_dot = b.rfind('.');
  if (a.substr(0, a_dot) != b.substr(0, b_dot)) return false;
  return opbase::base64url_decode(std::string_view(a).substr(a_dot + 1)) ==
         opbase::base64url_decode(std::string_view(b).substr(b_dot + 1));
}

void check_round_trip(const json& claims_in, Alg alg) {
  json claims = claims_in;
  claims["exp"] = kNow + 60;
  claims.erase("nbf");
  claims.erase("iat");
  auto token = opbase::auth::sign(key_of(alg), claims);
  if (!token) return;  // claims with strings that are not UTF-8
  auto back = opbase::auth::verify(*token, &lookup, kNow, std::nullopt);
  if (!back || *back != claims) std::abort();
  std::string changed = *token;
  const size_t at = claims_in.dump().size() % changed.size();
  changed[at] = changed[at] == 'A' ? 'B' : 'A';
  // A change in the signature's padding bits can leave the decoded bytes alone: then the token
  // is the same token. Any other change must be refused.
  if (opbase::auth::verify(changed, &lookup, kNow, std::nullopt) && !same_token(changed, *token)) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // Nothing but our own signatures verifies, and a random input is not one of them.
  if (opbase::auth::verify(input, &lookup, kNow, std::nullopt, 60)) std::abort();
  const json claims = json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (claims.is_object()) {
    check_round_trip(claims, Alg::kEs256);
    check_round_trip(claims, Alg::kHs256);
  }
  return 0;
}
