// The live queries of the client (src/realtime.js) against the daemon: events of the writes
// arrive through collection(name).subscribe, several queries share one stream, unsubscribe
// stops them, and a stream cut in the middle is opened again and every query resumed from its
// last event, with nothing missed or repeated. The parser on its own too.
import test from 'node:test';
import assert from 'node:assert/strict';

import { SseParser } from '../src/realtime.js';
import { signedIn } from './daemon.mjs';

/** Collects a query's events; next() waits for the next one. */
function collector() {
  const events = [];
  const waiters = [];
  return {
    events,
    onEvent(event) {
      events.push(event);
      waiters.splice(0).forEach((wake) => wake());
    },
    async next(count = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`waited for ${count} events, got ${events.length}`);
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return events.slice(0, count);
    },
  };
}

test('the parser reads events, retry and comments as the standard frames them', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('retry: 2000\n\nevent: connect\ndata: {"client_id":"rtc_1"}\n'), [{ retry: 2000 }]);
  assert.deepEqual(parser.push('\n: heartbeat\n\nid: evt_1\nevent: created\nda'), [
    { id: null, event: 'connect', data: { client_id: 'rtc_1' } },
  ]);
  assert.deepEqual(parser.push('ta: {"a":"x\\ny"}\r\n\r\n'), [{ id: 'evt_1', event: 'created', data: { a: 'x\ny' } }]);
});

test('a live query gets the events of the writes it may see, and stops when unsubscribed', async () => {
  const { client } = await signedIn('live');
  const notes = client.collection(`notes_${process.pid}_${Date.now()}`);
  const seen = collector();
  const query = await notes.subscribe({ done: false }, seen.onEvent);
  const [doc] = await notes.insert({ title: 'write the docs', done: false });
  const [created] = await seen.next(1);
  assert.equal(created.type, 'created');
  assert.equal(created.key, doc._key);
  assert.equal(created.document.title, 'write the docs');
  assert.match(created.id, /^evt_/);
  await notes.update({ match: { _key: doc._key }, data: { done: true } });
  const [, leave] = await seen.next(2);
  assert.equal(leave.type, 'leave');
  await query.unsubscribe();
  await notes.insert({ title: 'after', done: false });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(seen.events.length, 2);
  client.realtime.close();
});

test('several queries share one stream', async () => {
  const { client } = await signedIn('shared');
  const stem = `s_${process.pid}_${Date.now()}`;
  const a = collector();
  const b = collector();
  await client.collection(`${stem}_a`).subscribe({}, a.onEvent);
  const clientId = client.realtime.clientId;
  await client.collection(`${stem}_b`).subscribe({}, b.onEvent, { keys_only: true });
  assert.equal(client.realtime.clientId, clientId);
  await client.collection(`${stem}_a`).insert({ n: 1 });
  await client.collection(`${stem}_b`).insert({ n: 2 });
  assert.equal((await a.next(1))[0].document.n, 1);
  const [keyOnly] = await b.next(1);
  assert.equal(keyOnly.document, undefined);
  assert.ok(keyOnly.key);
  client.realtime.close();
});

test('a stream cut in the middle is opened again and the query resumed without a gap', async () => {
  // The stream's fetch, which the test cuts as a network would.
  const streams = [];
  const cuttable = (url, init) => {
    if (!String(url).endsWith('/realtime')) return fetch(url, init);
    const controller = new AbortController();
    init.signal?.addEventListener('abort', () => controller.abort());
    streams.push(controller);
    return fetch(url, { ...init, signal: controller.signal });
  };
  const { client } = await signedIn('resume', { fetch: cuttable });
  const log = client.collection(`log_${process.pid}_${Date.now()}`);
  const seen = collector();
  await log.subscribe({}, seen.onEvent);
  await log.insert({ n: 0 });
  await seen.next(1);
  const firstClient = client.realtime.clientId;
  streams.at(-1).abort();
  // Written while the stream is down: they come once it is back.
  await log.insert({ n: 1 });
  await log.insert({ n: 2 });
  const events = await seen.next(3, 10000);
  assert.deepEqual(events.map((e) => e.document.n), [0, 1, 2]);
  assert.notEqual(client.realtime.clientId, firstClient);
  await log.insert({ n: 3 });
  assert.equal((await seen.next(4))[3].document.n, 3);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(seen.events.length, 4, 'nothing twice');
  client.realtime.close();
});
