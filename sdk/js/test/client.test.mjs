// The client against the real daemon: sign-up and sign-in keep a session, the datastore ops
// work as the signed-in user, errors carry the envelope, the admin ops take the admin key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpbaseError, OpbaseNetworkError, ErrorCode, MemoryStorage } from '../src/index.js';
import { client, daemon, freshEmail, signedIn, PASSWORD } from './daemon.mjs';

test('sign-up, sign-in and sign-out keep and forget the session', async () => {
  const changes = [];
  const c = client({ onSessionChange: (tokenSet) => changes.push(tokenSet ? 'in' : 'out') });
  const email = freshEmail('session');
  const profile = await c.auth.signup({ email, password: PASSWORD, display_name: 'Ada' });
  assert.equal(profile.email, email);
  assert.equal(profile.display_name, 'Ada');
  assert.equal(await c.auth.session(), null, 'a sign-up alone signs nobody in');

  const tokenSet = await c.auth.signin({ email, password: PASSWORD });
  assert.equal(tokenSet.token_type, 'bearer');
  assert.equal((await c.auth.user())._userkey, profile._userkey);
  const verified = await c.auth.verifyIdToken();
  assert.equal(verified._userkey, profile._userkey);

  assert.deepEqual(await c.auth.signout(), { signout: true });
  assert.equal(await c.auth.session(), null);
  assert.deepEqual(changes, ['in', 'out']);
  await assert.rejects(c.collection('notes').count(), (error) => error.code === ErrorCode.AUTHENTICATION_FAILED);
});

test('a wrong password is INVALID_CREDENTIALS, a taken email EMAIL_ALREADY_EXISTS', async () => {
  const c = client();
  const email = freshEmail('wrong');
  await c.auth.signup({ email, password: PASSWORD, display_name: 'W' });
  await assert.rejects(c.auth.signin({ email, password: 'Not-The-Password-1' }), (error) => {
    assert.ok(error instanceof OpbaseError);
    assert.equal(error.code, ErrorCode.INVALID_CREDENTIALS);
    assert.equal(error.status, 401);
    assert.match(error.requestId, /^[0-9a-f]{32}$/);
    return true;
  });
  await assert.rejects(c.auth.signup({ email, password: PASSWORD, display_name: 'W' }), { code: 'EMAIL_ALREADY_EXISTS' });
});

test('documents: insert, find with match, sort and limit, update, count, delete and restore', async () => {
  const { client: c } = await signedIn('docs');
  const notes = c.collection(`notes_${process.pid}`);
  const inserted = await notes.insert([
    { title: 'b', n: 2, done: false },
    { title: 'a', n: 1, done: true },
    { title: 'c', n: 3, done: false },
  ]);
  assert.equal(inserted.length, 3);
  assert.ok(inserted.every((doc) => typeof doc._key === 'string'));

  const open = await notes.find({ match: { done: false }, sort: 'n asc', limit: 1 });
  assert.deepEqual(open.data.map((doc) => doc.title), ['b']);
  assert.equal(open.meta.pagination.size, 2);
  assert.equal(open.meta.pagination.has_next, true);
  assert.equal((await notes.findOne({ match: { n: 3 } })).title, 'c');

  const [updated] = await notes.update({ data: { _key: inserted[0]._key, done: true } });
  assert.equal(updated.done, true);
  assert.equal(updated.title, 'b');
  assert.equal(await notes.count({ done: true }), 2);

  const { _ref } = await notes.delete({ n: 1 });
  assert.equal(await notes.count(), 2);
  await notes.restore(_ref);
  assert.equal(await notes.count(), 3);

  const upserted = await notes.upsert({ match: { title: 'd' }, update: { n: 5 }, insert: { title: 'd', n: 4 } });
  assert.equal(upserted.meta.upserted, true);
  assert.equal(upserted.data[0].n, 4);
});

test("one user's documents are not another's", async () => {
  const { client: alice } = await signedIn('alice');
  const { client: bob } = await signedIn('bob');
  const name = `private_${process.pid}`;
  await alice.collection(name).insert({ secret: 1 });
  await bob.collection(name).insert({ mine: 1 });
  const seen = await bob.collection(name).find();
  assert.deepEqual(seen.data.map((doc) => Object.keys(doc).includes('secret')), [false]);
});

test('bad input comes back as VALIDATION_ERROR with the field, unknown ops as UNKNOWN_OPERATION', async () => {
  const { client: c } = await signedIn('bad');
  await assert.rejects(c.collection('notes').insert('not an object'), (error) => {
    assert.equal(error.code, ErrorCode.VALIDATION_ERROR);
    assert.equal(error.status, 400);
    assert.equal(error.details.field, 'data');
    return true;
  });
  await assert.rejects(c.call('no.such_op'), (error) => {
    assert.equal(error.code, ErrorCode.UNKNOWN_OPERATION);
    assert.equal(error.details.op, 'no.such_op');
    return true;
  });
});

test('a wrong API key is AUTHENTICATION_FAILED; no server is a network error', async () => {
  await assert.rejects(client({ apiKey: 'ak_wrong' }).auth.nonce(), { code: 'AUTHENTICATION_FAILED', status: 401 });
  const nowhere = client({ url: 'http://127.0.0.1:9', timeoutMs: 5000 });
  await assert.rejects(nowhere.auth.nonce(), (error) => {
    assert.ok(error instanceof OpbaseNetworkError);
    assert.equal(error.code, ErrorCode.NETWORK_ERROR);
    return true;
  });
});

test('the session survives in the given storage, as a new page load would find it', async () => {
  const storage = new MemoryStorage();
  const { client: first, email } = await signedIn('stored', { storage });
  await first.collection('notes').insert({ from: 'first' });
  const second = client({ storage });
  assert.equal((await second.auth.user()).email, email);
  assert.equal(await second.collection('notes').count({ from: 'first' }), 1);
});

test('refresh gives a new token set that works; a refused refresh forgets the session', async () => {
  const storage = new MemoryStorage();
  const { client: c } = await signedIn('refresh', { storage });
  const before = await c.auth.session();
  const after = await c.auth.refresh();
  assert.notEqual(after.refresh_token, before.refresh_token);
  assert.equal(await c.collection('notes').count(), 0);

  // A session the server no longer knows (a refresh token that was never issued).
  const forged = { ...after, refresh_token: `${after.refresh_token.split('.')[0]}.${'A'.repeat(43)}` };
  storage.setItem('opbase.session', JSON.stringify(forged));
  const reloaded = client({ storage });
  await assert.rejects(reloaded.auth.refresh(), (error) => error.status === 401);
  assert.equal(await reloaded.auth.session(), null);
  assert.equal(storage.getItem('opbase.session'), null);
});

test('the admin ops take the server admin key', async () => {
  const admin = client({ adminKey: daemon.adminKey });
  const collection = admin.collection(`indexed_${process.pid}`);
  const index = await collection.addIndex('price');
  assert.equal(index.field, 'price');
  assert.equal(index.origin, 'admin');
  assert.ok((await collection.indexes()).indexes.some((i) => i.field === 'price'));
  assert.deepEqual(await collection.dropIndex('price'), { dropped: true });
  await assert.rejects(client().collection('x').indexes(), { code: 'AUTHENTICATION_FAILED' });
});

test('collection rules: a public read, and a document shared with one writer', async () => {
  const admin = client({ adminKey: daemon.adminKey });
  const name = `shared_${process.pid}`;
  const rules = await admin.collection(name).setRules({ read: ['owner', 'shared'], update: ['owner', 'shared'] });
  assert.deepEqual(rules, { read: ['owner', 'shared'], create: ['users'], update: ['owner', 'shared'], delete: ['owner'] });
  const { client: ada } = await signedIn('ada');
  const { client: bob } = await signedIn('bob');
  const { client: eve } = await signedIn('eve');
  const bobKey = (await bob.auth.user())._userkey;
  const [doc] = await ada.collection(name).insert({ text: 'plan', _writers: [bobKey] });
  assert.deepEqual(doc._writers, [bobKey]);
  assert.equal((await bob.collection(name).find()).data.length, 1);
  assert.equal(await eve.collection(name).count(), 0);
  const [edited] = await bob.collection(name).update({ data: { _key: doc._key, text: 'plan b' } });
  assert.equal(edited.text, 'plan b');
  await assert.rejects(bob.collection(name).update({ data: { _key: doc._key, _readers: [bobKey] } }), {
    code: 'FORBIDDEN',
  });
  await admin.collection(name).setRules({ read: ['anyone'] });
  assert.equal((await client().collection(name).find()).data[0].text, 'plan b', 'no token: anyone reads');
  await assert.rejects(client().collection(name).rules(), { code: 'AUTHENTICATION_FAILED' });
});

test('jwks gives the public key that verifies the id token; a wrong endpoint key is UNKNOWN_OPERATION', async () => {
  const { client: c } = await signedIn('jwks');
  const { keys } = await c.auth.jwks();
  const [header, payload, signature] = (await c.auth.session()).id_token.split('.');
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString());
  const jwk = keys.find((key) => key.kid === kid);
  assert.ok(jwk, `the set has the token's key ${kid}`);
  const subtle = globalThis.crypto?.subtle ?? (await import('node:crypto')).webcrypto.subtle;
  const key = await subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const signed = new TextEncoder().encode(`${header}.${payload}`);
  const verify = (data) => subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, Buffer.from(signature, 'base64url'), data);
  assert.equal(await verify(signed), true);
  assert.equal(await verify(new TextEncoder().encode(`${header}.${payload}x`)), false);
  await assert.rejects(client({ endpointKey: 'no-such-endpoint' }).auth.jwks(), { code: 'UNKNOWN_OPERATION', status: 404 });
});
