// What an app written in TypeScript does with the client; the types test compiles it with
// --strict. Lines marked @ts-expect-error must not compile.
import { createClient, OpbaseError, ErrorCode, verifyWebhook, type Document, type Json, type RealtimeEvent, type TokenSet } from '../../src/index.js';

const client = createClient({ url: 'http://127.0.0.1:8080', endpointKey: 'ep', apiKey: 'ak' });

export async function app(): Promise<void> {
  const session: TokenSet = await client.auth.signin({ email: 'a@example.com', password: 'P4ssword!' });
  const ttl: number = session.token_info.ttl;
  const notes = client.collection('notes');
  const { data, meta } = await notes.find({ match: { done: false }, sort: 'n asc', limit: 10 });
  const first: Document | undefined = data[0];
  const total: number | undefined = meta?.pagination.size;
  const count: number = await notes.count({ done: true });
  const inserted: Document[] = await notes.insert({ title: 'x' });
  try {
    await client.call('echo.ping');
  } catch (error) {
    if (error instanceof OpbaseError && error.code === ErrorCode.VALIDATION_ERROR) {
      const field = error.details.field;
      console.log(field, error.requestId, error.retryAfter, error.status);
    }
  }
  const payload = await verifyWebhook<{ type: string }>('whsec_x', new Headers(), '{}');
  const type: string = payload.type;
  const { keys } = await client.auth.jwks();
  console.log(ttl, first, total, count, inserted, type, keys.length);
  const live = await notes.subscribe({ done: false }, (event: RealtimeEvent) => {
    const text: Json | undefined = event.type === 'created' ? event.document?.title : undefined;
    console.log(event.id, event.key, text);
  }, { project: { title: 1 } });
  const resumeAt: string | null = live.lastEventId;
  await live.unsubscribe();
  client.realtime.close();
  console.log(resumeAt);

  // @ts-expect-error the email is required
  await client.auth.signin({ password: 'x' });
  // @ts-expect-error a live query needs its onEvent
  await notes.subscribe({});
  // @ts-expect-error a count resolves to a number
  const wrong: string = await notes.count();
  console.log(wrong);
}
