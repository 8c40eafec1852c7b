// Signing keys: generation, storage as JSON, the public JWK. OpenSSL 3 provider APIs only (no
// deprecated EC_KEY).
#include "keys/signing_key.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <array>
#include <utility>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"

namespace opbase::auth {

// The key material, owned once and shared by every copy of a key. Wiped on destruction:
// EVP_PKEY_free clears the private scalar, OPENSSL_cleanse the HMAC secret.
struct SigningKey::Material {
  Alg alg;
  EVP_PKEY* pkey = nullptr;
  std::string secret;

  explicit Material(EVP_PKEY* key) : alg(Alg::kEs256), pkey(key) {}
  explicit Material(std::string s) : alg(Alg::kHs256), secret(std::move(s)) {}
  Material(const Material&) = delete;
  Material& operator=(const Material&) = delete;
  ~Material() {
    EVP_PKEY_free(pkey);
    OPENSSL_cleanse(secret.data(), secret.size());
  }
};

namespace {

constexpr size_t kKidBytes = 16;
constexpr size_t kHs256SecretBytes = 32;  // RFC 7518 3.2: at least the hash size
constexpr size_t kCoordinateBytes = 32;   // a P-256 coordinate
constexpr size_t kMaxKidLength = 128;

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
struct BnFree {
  void operator()(BIGNUM* bn) const { BN_free(bn); }
};
using BnPtr = std::unique_ptr<BIGNUM, BnFree>;

// A kid goes into token headers and the JWKS: printable ASCII, bounded.
bool valid_kid(std::string_view kid) {
  if (kid.empty() || kid.size() > kMaxKidLength) return false;
  for (const char c : kid) {
    if (c < 0x21 || c > 0x7E) return false;
  }
  return true;
}

bool is_p256(EVP_PKEY* pkey) {
  if (EVP_PKEY_is_a(pkey, "EC") != 1) return false;
  std::array<char, 64> group{};
  size_t length = 0;
  if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group.data(), group.size(),
                                     &length) != 1) {
    return false;
  }
  return std::string_view(group.data(), length) == "prime256v1";
}

std::optional<std::string> coordinate(EVP_PKEY* pkey, const char* name) {
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(pkey, name, &raw) != 1) return std::nullopt;
  const BnPtr bn(raw);
  std::array<unsigned char, kCoordinateBytes> bytes{};
  if (BN_bn2binpad(bn.get(), bytes.data(), bytes.size()) != kCoordinateBytes) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::optional<nlohmann::json> es256_public_jwk(EVP_PKEY* pkey, const std::string& kid) {
  const std::optional<std::string> x = coordinate(pkey, OSSL_PKEY_PARAM_EC_PUB_X);
  const std::optional<std::string> y = coordinate(pkey, OSSL_PKEY_PARAM_EC_PUB_Y);
  if (!x || !y) return std::nullopt;
  return nlohmann::json{{"kty", "EC"},
                        {"crv", "P-256"},
                        {"x", base64url_encode(*x)},
                        {"y", base64url_encode(*y)},
                        {"kid", kid},
                        {"use", "sig"},
                        {"alg", "ES256"}};
}

// The callback never asks for a passphrase: the default one would read the terminal.
int no_passphrase(char*, int, int, void*) { return -1; }

EVP_PKEY* read_private_pem(std::string_view pem) {
  if (pem.size() > 64 * 1024) return nullptr;
  const BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!bio) return nullptr;
  return PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr);
}

std::optional<std::string> write_private_pem(EVP_PKEY* pkey) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio) return std::nullopt;
  if (PEM_write_bio_PrivateKey(bio.get(), pkey, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return std::nullopt;
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  if (size <= 0) return std::nullopt;
  std::string pem(data, static_cast<size_t>(size));
  // The BIO's buffer holds the private key too; BIO_free does not wipe it.
  OPENSSL_cleanse(data, static_cast<size_t>(size));
  return pem;
}

const std::string* string_field(const nlohmann::json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end() || !it->is_string()) return nullptr;
  return it->get_ptr<const std::string*>();
}

}  // namespace

std::string_view alg_name(Alg alg) { return alg == Alg::kEs256 ? "ES256" : "HS256"; }

std::optional<Alg> alg_from_name(std::string_view name) {
  if (name == "ES256") return Alg::kEs256;
  if (name == "HS256") return Alg::kHs256;
  return std::nullopt;
}

SigningKey::SigningKey(std::string kid, Alg alg, std::shared_ptr<const Material> material,
                       nlohmann::json public_jwk)
    : kid_(std::move(kid)),
      alg_(alg),
      material_(std::move(material)),
      public_jwk_(std::move(public_jwk)) {}

Result<SigningKey> SigningKey::make(std::string kid, std::shared_ptr<const Material> material) {
  if (!valid_kid(kid)) return Status::validation("signing key: kid must be 1-128 printable chars");
  if (material->alg == Alg::kHs256) {
    if (material->secret.size() < kHs256SecretBytes) {
      return Status::validation("signing key: an HS256 secret needs at least 32 bytes");
    }
    return SigningKey(std::move(kid), Alg::kHs256, std::move(material), nullptr);
  }
  if (material->pkey == nullptr || !is_p256(material->pkey)) {
    return Status::validation("signing key: an ES256 key must be a P-256 private key");
  }
  std::optional<nlohmann::json> jwk = es256_public_jwk(material->pkey, kid);
  if (!jwk) return Status::internal("signing key: cannot read the public key");
  return SigningKey(std::move(kid), Alg::kEs256, std::move(material), std::move(*jwk));
}

Result<SigningKey> SigningKey::generate(Alg alg) {
  std::string kid = base64url_encode(random_bytes(kKidBytes));
  if (alg == Alg::kHs256) {
    auto material = std::make_shared<const Material>(random_bytes(kHs256SecretBytes));
    return make(std::move(kid), std::move(material));
  }
  EVP_PKEY* pkey = EVP_EC_gen("P-256");
  if (pkey == nullptr) return Status::internal("signing key: P-256 key generation failed");
  return make(std::move(kid), std::make_shared<const Material>(pkey));
}

Result<SigningKey> SigningKey::from_json(const nlohmann::json& stored) {
  if (!stored.is_object()) return Status::validation("signing key: not a JSON object");
  const std::string* kid = string_field(stored, "kid");
  const std::string* alg_text = string_field(stored, "alg");
  if (kid == nullptr) return Status::validation("signing key: kid must be a string");
  const std::optional<Alg> alg = alg_text ? alg_from_name(*alg_text) : std::nullopt;
  if (!alg) return Status::validation("signing key: alg must be \"ES256\" or \"HS256\"");
  if (*alg == Alg::kHs256) {
    const std::string* text = string_field(stored, "secret_b64url");
    std::optional<std::string> secret = text ? base64url_decode(*text) : std::nullopt;
    if (!secret) return Status::validation("signing key: secret_b64url must be base64url");
    auto material = std::make_shared<const Material>(std::move(*secret));
    return make(*kid, std::move(material));
  }
  const std::string* pem = string_field(stored, "private_pem");
  if (pem == nullptr) return Status::validation("signing key: private_pem must be a string");
  EVP_PKEY* pkey = read_private_pem(*pem);
  if (pkey == nullptr) return Status::validation("signing key: private_pem is not a private key");
  return make(*kid, std::make_shared<const Material>(pkey));
}

Result<nlohmann::json> SigningKey::to_json() const {
  nlohmann::json out{{"kid", kid_}, {"alg", alg_name(alg_)}};
  if (alg_ == Alg::kHs256) {
    out["secret_b64url"] = base64url_encode(material_->secret);
    return out;
  }
  std::optional<std::string> pem = write_private_pem(material_->pkey);
  if (!pem) return Status::internal("signing key: cannot write the private key");
  out["private_pem"] = std::move(*pem);
  return out;
}

EVP_PKEY* SigningKey::es256_key() const { return material_->pkey; }

std::string_view SigningKey::hs256_secret() const { return material_->secret; }

nlohmann::json jwks(std::span<const SigningKey> keys) {
  nlohmann::json list = nlohmann::json::array();
  for (const SigningKey& key : keys) {
    if (key.alg() == Alg::kEs256) list.push_back(key.public_jwk());
  }
  return {{"keys", std::move(list)}};
}

}  // namespace opbase::auth
