// Digests, MACs, randomness and comparison for secrets, on OpenSSL's libcrypto: SHA-256 of a
// string or of data given in pieces, HMAC-SHA256, bytes from OpenSSL's CSPRNG (RAND_bytes) and
// numbers drawn from them without bias, and a comparison whose time does not tell where two
// strings differ. What a plugin keeps at rest instead of a secret (a digest), signs (a MAC) or
// hands out as an unguessable id, token or nonce comes from here. Hex and base64 forms are
// opbase/hex.hpp's and opbase/base64.hpp's encoders over the raw bytes these answer.
//
// OpenSSL failing (no randomness, no SHA-256: a broken system, not a bad request) throws
// std::runtime_error; an op or route that lets it escape answers INTERNAL_ERROR.
//
// Thread-safety: every function may be called from any thread at once; a Sha256 object belongs
// to one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX, kept out of this header

namespace opbase {

// SHA-256 of `data`: 32 raw bytes.
std::string sha256(std::string_view data);
// SHA-256 of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

// SHA-256 of data that comes in pieces (a file as it is read or written): add() each piece in
// order, then finish() once. Movable, not copyable.
class Sha256 {
 public:
  Sha256();
  void add(std::string_view bytes);
  // The digest of everything added: 32 raw bytes. Once; the object is spent afterwards.
  std::string finish();

 private:
  struct ContextFree {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, ContextFree> context_;
};

// HMAC-SHA256 of `data` under `key` (any length, empty included): 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view data);
// HMAC-SHA256 of `data` under `key` as 64 lowercase hex digits.
std::string hmac_sha256_hex(std::string_view key, std::string_view data);

// `n` bytes from OpenSSL's CSPRNG: keys, salts, nonces.
std::string random_bytes(size_t n);
// `n` random bytes as 2 * n lowercase hex digits: ids and tokens.
std::string random_hex(size_t n);
// A number from 0 to `bound` - 1, each equally likely (draws that would favour some are drawn
// again, never reduced by a plain modulo): one-time codes, proof-of-work numbers. `bound` must
// be above 0 (std::invalid_argument otherwise).
uint64_t random_below(uint64_t bound);

// Whether `a` and `b` hold the same bytes, in a time that depends only on their lengths (which
// are not secret: a digest's or a MAC's is fixed), never on where they first differ. Use it for
// every comparison of a secret, a MAC or a digest of a secret with what a client presented.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace opbase
