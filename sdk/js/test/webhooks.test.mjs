// verifyWebhook against the Standard Webhooks library's own signatures, and against a real
// delivery of the daemon to a receiver on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { verifyWebhook, OpbaseError } from '../src/index.js';
import { client, daemon, signedIn } from './daemon.mjs';

// The independent implementation, from the repository's test tools (tests/node_modules).
const require = createRequire(fileURLToPath(new URL('../../../tests/package.json', import.meta.url)));
const { Webhook } = require('standardwebhooks');

const SECRET = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');

function signed(body, { id = 'msg_1', seconds = Math.floor(Date.now() / 1000), secret = SECRET } = {}) {
  const signature = new Webhook(secret).sign(id, new Date(seconds * 1000), body);
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
}

test("a delivery signed by the Standard Webhooks library verifies, and its payload is returned", async () => {
  const body = JSON.stringify({ type: 'document.created', data: { n: 1 } });
  const payload = await verifyWebhook(SECRET, signed(body), body);
  assert.deepEqual(payload, { type: 'document.created', data: { n: 1 } });
  // A Headers object, and several signatures (a rotated secret) among which one matches.
  const headers = new Headers(signed(body));
  headers.set('webhook-signature', `v1,${Buffer.alloc(32).toString('base64')} ${headers.get('webhook-signature')}`);
  assert.equal((await verifyWebhook(SECRET, headers, new TextEncoder().encode(body))).type, 'document.created');
});

test('a changed body, another secret, a stale timestamp or missing headers are refused', async () => {
  const body = '{"a":1}';
  const other = 'whsec_' + Buffer.from('another secret of 32 bytes......').toString('base64');
  const refused = (promise, reason) =>
    assert.rejects(promise, (error) => error instanceof OpbaseError && error.code === 'AUTHENTICATION_FAILED' && reason.test(error.message));
  await refused(verifyWebhook(SECRET, signed(body), '{"a":2}'), /no webhook signature matches/);
  await refused(verifyWebhook(other, signed(body), body), /no webhook signature matches/);
  const old = Math.floor(Date.now() / 1000) - 600;
  await refused(verifyWebhook(SECRET, signed(body, { seconds: old }), body), /timestamp/);
  await refused(verifyWebhook(SECRET, {}, body), /headers are required/);
  // Within a tolerance the receiver chose, the old one is fine.
  assert.deepEqual(await verifyWebhook(SECRET, signed(body, { seconds: old }), body, { toleranceSeconds: 900 }), { a: 1 });
});

// A receiver on 127.0.0.1 that keeps what it gets.
function receiver() {
  const received = [];
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, received })));
}

test("a real delivery of the daemon verifies with the endpoint's secret", async () => {
  const { server, received } = await receiver();
  const admin = client({ adminKey: daemon.adminKey });
  const endpoint = await admin.webhooks.endpoints.create({
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    events: ['document.created'],
  });
  try {
    assert.match(endpoint.secret, /^whsec_/);
    assert.ok((await admin.webhooks.endpoints.list()).some((e) => e.id === endpoint.id && e.secret === undefined));
    const { client: user } = await signedIn('hooked');
    const collection = `hooked_${process.pid}`;
    const [doc] = await user.collection(collection).insert({ n: 7 });
    for (let i = 0; i < 100 && !received.some((r) => r.body.includes(doc._key)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const delivery = received.find((r) => r.body.includes(doc._key));
    assert.ok(delivery, `no delivery of ${doc._key} within 10 s`);
    const payload = await verifyWebhook(endpoint.secret, delivery.headers, delivery.body);
    assert.equal(payload.type, 'document.created');
    // One byte more (a space still parses as the same JSON) breaks the signature.
    await assert.rejects(verifyWebhook(endpoint.secret, delivery.headers, `${delivery.body} `), { code: 'AUTHENTICATION_FAILED' });
    const messages = await admin.webhooks.messages.list({ endpoint: endpoint.id });
    assert.ok(messages.meta.total >= 1);
  } finally {
    await admin.webhooks.endpoints.delete(endpoint.id);
    server.close();
  }
});
