// The token is refreshed before it expires, by the client itself, once for concurrent calls.
// The clock is the test's (the `now` option); the daemon and its tokens are real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signedIn } from './daemon.mjs';

// A fetch that counts the ops it sends.
function countingFetch() {
  const ops = [];
  const fetchFn = async (url, init) => {
    ops.push(JSON.parse(init.body).op);
    return fetch(url, init);
  };
  return { ops, fetchFn };
}

test('no refresh while the token has time left', async () => {
  const { ops, fetchFn } = countingFetch();
  let clock = Date.now();
  const { client: c } = await signedIn('fresh', { fetch: fetchFn, now: () => clock });
  await c.collection('notes').count();
  clock += 30 * 60 * 1000; // half the hour of the token's life
  await c.collection('notes').count();
  assert.equal(ops.filter((op) => op === 'auth.refresh_token').length, 0);
});

test('a token near its expiry is refreshed before the call, once for concurrent calls', async () => {
  const { ops, fetchFn } = countingFetch();
  let clock = Date.now();
  const { client: c } = await signedIn('expiring', { fetch: fetchFn, now: () => clock });
  const before = await c.auth.session();
  // Five minutes before expiry: within the margin (a tenth of the hour).
  clock = (before.token_info.exp - 5 * 60) * 1000;
  const counts = await Promise.all(Array.from({ length: 5 }, () => c.collection('notes').count()));
  assert.deepEqual(counts, [0, 0, 0, 0, 0]);
  assert.equal(ops.filter((op) => op === 'auth.refresh_token').length, 1, ops.join(','));
  const after = await c.auth.session();
  assert.notEqual(after.refresh_token, before.refresh_token);
  assert.ok(after.token_info.exp >= before.token_info.exp);
  // The refresh came before the calls that needed it.
  assert.equal(ops.indexOf('auth.refresh_token'), ops.indexOf('collection.count') - 1);
});

test('an expired token is refreshed too, so the call still succeeds', async () => {
  let clock = Date.now();
  const { client: c } = await signedIn('expired', { now: () => clock });
  const before = await c.auth.session();
  clock = (before.token_info.exp + 60) * 1000;
  assert.equal(await c.collection('notes').count(), 0);
});
