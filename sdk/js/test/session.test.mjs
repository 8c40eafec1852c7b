// The token is refreshed before it expires, by the client itself, once for concurrent calls.
// The clock is the test's (the `now` option); the daemon and its tokens are real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage } from '../src/index.js';
import { client, signedIn } from './daemon.mjs';

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

test('two clients on one storage: the second takes the first one\'s refresh instead of reusing the spent token', async () => {
  const { ops, fetchFn } = countingFetch();
  const storage = new MemoryStorage();
  // The first tab's clock is near the token's expiry, so its next call refreshes; the second's
  // is the real one, so the new token set is not due for it.
  let clock = Date.now();
  const { client: first } = await signedIn('tabs', { fetch: fetchFn, now: () => clock, storage });
  const second = client({ fetch: fetchFn, storage });
  const before = await second.auth.session(); // the second tab has read the session
  clock = (before.token_info.exp - 5 * 60) * 1000;
  await first.collection('notes').count(); // refreshes and stores the new set
  const taken = await second.auth.refresh();
  assert.equal(ops.filter((op) => op === 'auth.refresh_token').length, 1, ops.join(','));
  assert.notEqual(taken.refresh_token, before.refresh_token);
  assert.equal(taken.refresh_token, (await first.auth.session()).refresh_token);
  assert.equal(await second.collection('notes').count(), 0);
});

test('a client whose storage was signed out by another ends its session at the refresh', async () => {
  let clock = Date.now();
  const storage = new MemoryStorage();
  const { client: first } = await signedIn('tabs-out', { now: () => clock, storage });
  const changes = [];
  const second = client({ now: () => clock, storage, onSessionChange: (set) => changes.push(set ? 'in' : 'out') });
  const before = await second.auth.session();
  await first.auth.signout();
  clock = (before.token_info.exp - 5 * 60) * 1000;
  await assert.rejects(second.collection('notes').count(), /not signed in/);
  assert.equal(await second.auth.session(), null);
  assert.deepEqual(changes, ['out']);
});

// Id tokens live at least a minute, too long to wait for in a test, so the daemon's answer to
// an expired token is stood in for: `expiredTimes` calls of `op` get the envelope the daemon
// sends for an id token past its exp; every other request goes to the daemon.
function expiringFetch(op, expiredTimes) {
  const sent = [];
  const fetchFn = async (url, init) => {
    const body = JSON.parse(init.body);
    sent.push({ op: body.op, authorization: init.headers.Authorization });
    if (body.op === op && sent.filter((call) => call.op === op).length <= expiredTimes) {
      const envelope = { error: { code: 'TOKEN_EXPIRED', message: 'the id token has expired' } };
      return new Response(JSON.stringify(envelope), { status: 401, headers: { 'Content-Type': 'application/json' } });
    }
    return fetch(url, init);
  };
  return { sent, fetchFn };
}

test('a call answered TOKEN_EXPIRED is refreshed and sent once more with the new token', async () => {
  const { sent, fetchFn } = expiringFetch('collection.count', 1);
  const { client: c } = await signedIn('skew', { fetch: fetchFn });
  const before = await c.auth.session();
  assert.equal(await c.collection('notes').count(), 0);
  const after = await c.auth.session();
  assert.notEqual(after.refresh_token, before.refresh_token);
  const counts = sent.filter((call) => call.op === 'collection.count');
  assert.deepEqual(counts.map((call) => call.authorization), [`Bearer ${before.id_token}`, `Bearer ${after.id_token}`]);
});

test('a second TOKEN_EXPIRED is thrown, not retried again', async () => {
  const { sent, fetchFn } = expiringFetch('collection.count', 2);
  const { client: c } = await signedIn('skew-twice', { fetch: fetchFn });
  await assert.rejects(c.collection('notes').count(), { code: 'TOKEN_EXPIRED', status: 401 });
  assert.equal(sent.filter((call) => call.op === 'collection.count').length, 2);
  assert.equal(sent.filter((call) => call.op === 'auth.refresh_token').length, 1);
});
