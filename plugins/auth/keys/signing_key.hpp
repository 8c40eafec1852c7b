// A key that signs and verifies ID tokens: its kid, its JWS algorithm and the key material.
// ES256 keys (the default) hold a P-256 key pair and publish their public half as a JWK; HS256
// keys hold a shared secret that is never published. Keys are immutable once made; copies share
// the material, which is wiped when the last copy goes. Thread-safety: a SigningKey may be used
// from many threads at once (OpenSSL 3 allows concurrent use of one EVP_PKEY).
#pragma once

#include <openssl/types.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::auth {

enum class Alg { kEs256, kHs256 };

// "ES256" / "HS256".
std::string_view alg_name(Alg alg);
// Exact, case-sensitive names only: "none", "es256", "RS256" and the rest are nullopt.
std::optional<Alg> alg_from_name(std::string_view name);

class SigningKey {
 public:
  // A fresh key with a random kid (16 random bytes, base64url): a P-256 key pair for ES256, 32
  // random bytes for HS256. Fails only when OpenSSL does (INTERNAL_ERROR).
  static Result<SigningKey> generate(Alg alg);

  // A key as stored by to_json(). VALIDATION_ERROR names what is wrong: not an object, a missing
  // or empty kid, an unknown alg, a PEM that is not a P-256 private key, an HS256 secret shorter
  // than 32 bytes (RFC 7518 section 3.2: at least the size of the hash).
  static Result<SigningKey> from_json(const nlohmann::json& stored);

  // For storage: {"kid","alg":"ES256","private_pem"} (PKCS#8) or {"kid","alg":"HS256",
  // "secret_b64url"}. Holds the secret: never log it.
  Result<nlohmann::json> to_json() const;

  // {"kty":"EC","crv":"P-256","x","y","kid","use":"sig","alg":"ES256"} for ES256; null for HS256.
  const nlohmann::json& public_jwk() const { return public_jwk_; }

  const std::string& kid() const { return kid_; }
  Alg alg() const { return alg_; }
  // The key pair of an ES256 key; null for HS256.
  EVP_PKEY* es256_key() const;
  // The secret of an HS256 key; empty for ES256.
  std::string_view hs256_secret() const;

 private:
  struct Material;
  SigningKey(std::string kid, Alg alg, std::shared_ptr<const Material> material,
             nlohmann::json public_jwk);

  // Checks the material (a P-256 key pair, a long enough secret) and derives the public JWK.
  static Result<SigningKey> make(std::string kid, std::shared_ptr<const Material> material);

  std::string kid_;
  Alg alg_;
  std::shared_ptr<const Material> material_;
  nlohmann::json public_jwk_;
};

// {"keys":[...]}: the public JWKs of the ES256 keys, in order. HS256 keys are left out: their
// secret is the verification key too.
nlohmann::json jwks(std::span<const SigningKey> keys);

}  // namespace opbase::auth
