// An independent check of opbase's id tokens with a standard JOSE library (npm jose): fetch the
// project's JWKS over HTTP, verify the token's signature, algorithm, expiry and audience.
//
//   node verify_id_token.mjs <jwks url> <id token> <expected audience>
//
// Prints the verified payload as JSON and exits 0, or prints the library's error code
// (e.g. ERR_JWS_SIGNATURE_VERIFICATION_FAILED) and exits 1.
import { createRemoteJWKSet, jwtVerify } from "jose";

const [jwksUrl, token, audience] = process.argv.slice(2);
if (!jwksUrl || !token || !audience) {
  console.error("usage: node verify_id_token.mjs <jwks url> <id token> <expected audience>");
  process.exit(2);
}

try {
  const keys = createRemoteJWKSet(new URL(jwksUrl));
  const { payload, protectedHeader } = await jwtVerify(token, keys, {
    audience,
    algorithms: ["ES256"],
  });
  console.log(JSON.stringify({ header: protectedHeader, payload }));
} catch (error) {
  console.log(error.code ?? error.name ?? "ERROR");
  process.exit(1);
}
