// Verifying a webhook delivery on the receiving side, as the Standard Webhooks specification
// says: an HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" with the endpoint's secret,
// compared in constant time with each "v1,<base64>" of the webhook-signature header, and a
// timestamp close to now so a captured delivery cannot be replayed later.
import { OpbaseError, ErrorCode } from './errors.js';

const encoder = new TextEncoder();

function base64ToBytes(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

// Equal strings of equal length, in time that does not depend on where they differ.
function constantTimeEqual(a, b) {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function header(headers, name) {
  if (typeof headers?.get === 'function') return headers.get(name);
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return null;
}

function refuse(message) {
  return new OpbaseError({ code: ErrorCode.AUTHENTICATION_FAILED, message, status: 401 });
}

/**
 * Checks a delivery; resolves to the parsed payload, or throws OpbaseError
 * (code AUTHENTICATION_FAILED) naming what is wrong.
 * @param {string} secret  the endpoint's secret, "whsec_<base64>"
 * @param {Headers|object} headers  the request's headers
 * @param {string|Uint8Array} body  the raw body, exactly as received
 * @param {{toleranceSeconds?: number, now?: () => number,
 *          signatureContent?: 'id.timestamp.body' | 'timestamp.body', crypto?: Crypto}} [options]
 *   signatureContent: the endpoint's signature_content (default the standard id.timestamp.body)
 */
export async function verifyWebhook(secret, headers, body, options = {}) {
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? (() => Date.now());
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw refuse('the webhook-id, webhook-timestamp and webhook-signature headers are required');
  }
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now() / 1000 - seconds) > tolerance) {
    throw refuse(`the webhook timestamp is not within ${tolerance} seconds of now`);
  }
  if (typeof secret !== 'string' || !secret) throw new TypeError('opbase: the endpoint secret is required');
  // Node 18 has no global crypto: pass {crypto: require('node:crypto').webcrypto} there.
  const subtle = (options.crypto ?? globalThis.crypto)?.subtle;
  if (!subtle) throw new TypeError('opbase: no Web Crypto here; pass options.crypto (Node 18: node:crypto webcrypto)');
  const key = await subtle.importKey(
    'raw',
    base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = options.signatureContent === 'timestamp.body' ? `${timestamp}.${text}` : `${id}.${timestamp}.${text}`;
  const mac = await subtle.sign('HMAC', key, encoder.encode(signed));
  const expected = bytesToBase64(new Uint8Array(mac));
  const matched = signatures
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && constantTimeEqual(entry.slice(3), expected));
  if (!matched) throw refuse('no webhook signature matches the secret');
  return JSON.parse(text);
}
