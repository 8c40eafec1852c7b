// The management console in Debian's chromium, driven by playwright-core, as an administrator
// uses it (docs/operations.md#the-management-console): its first load (assets and time to a
// usable sign-in form), a non-admin refused, sign-in, a webhook endpoint made and a delivery of
// a document the test inserts seen in the log, a stricter password policy that refuses a weak
// sign-up, a user found and disabled, a document deleted and restored, and the audit log. Every
// step saves a screenshot in OPBASE_SCREENSHOTS. The administrator signs in with a mailed code
// as the second factor, read from the daemon's log (OPBASE_DAEMON_LOG; mail.transport=log). Run
// by tests/integration/console_test.cpp, which starts the daemon and passes OPBASE_URL,
// OPBASE_ENDPOINT_KEY, OPBASE_API_KEY, OPBASE_ADMIN_EMAIL and OPBASE_ADMIN_PASSWORD. Prints "figure <name> <value>" lines and exits
// non-zero on the first failure.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'package.json'));
const { chromium } = require('playwright-core');

const env = {};
for (const name of ['OPBASE_URL', 'OPBASE_ENDPOINT_KEY', 'OPBASE_API_KEY', 'OPBASE_ADMIN_EMAIL', 'OPBASE_ADMIN_PASSWORD', 'OPBASE_SCREENSHOTS', 'OPBASE_DAEMON_LOG']) {
  if (!process.env[name]) {
    console.error(`${name} is not set: run this through ctest (console_test), which starts the daemon`);
    process.exit(2);
  }
  env[name] = process.env[name];
}
const base = env.OPBASE_URL;

function fail(step, why) {
  console.error(`FAILED ${step}: ${why}`);
  process.exit(1);
}

// An op from the test itself, as an app would call it.
async function call(op, params = {}, token = null) {
  const headers = { 'Content-Type': 'application/json', 'X-API-KEY': env.OPBASE_API_KEY };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${base}/api/${env.OPBASE_ENDPOINT_KEY}`, { method: 'POST', headers, body: JSON.stringify({ op, ...params }) });
  return { status: response.status, body: await response.json() };
}

async function signUpAndIn(email, password) {
  await call('auth.signup', { email, password, display_name: email.split('@')[0] });
  const signedIn = await call('auth.signin', { grant_type: 'password', email, password });
  if (signedIn.status !== 200) fail(`sign-in of ${email}`, JSON.stringify(signedIn.body));
  return signedIn.body.data.id_token;
}

// The webhook receiver: every POST it gets.
const received = [];
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => { body += chunk; });
  request.on('end', () => {
    received.push({ headers: request.headers, body });
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

// The six-digit code of the newest mail to `email` in the daemon's log, or null.
async function mailedCode(email) {
  const lines = (await fs.readFile(env.OPBASE_DAEMON_LOG, 'utf8')).split('\n');
  const mail = lines.reverse().find((line) => line.includes(`mail to ${email}:`));
  const code = mail && /\b(\d{6})\b/.exec(mail.slice(mail.indexOf('|')));
  return code ? code[1] : null;
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(env.OPBASE_SCREENSHOTS, `console-${name}.png`), fullPage: true });
}

// Waits for `predicate` to hold, at most `tries` times `ms` apart.
async function eventually(step, predicate, tries = 40, ms = 250) {
  for (let i = 0; i < tries; ++i) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  fail(step, 'did not happen in time');
}

await fs.mkdir(env.OPBASE_SCREENSHOTS, { recursive: true });
const adaToken = await signUpAndIn('ada@example.com', 'Ada-Pass-123');
await signUpAndIn('mallory@example.com', 'Mallory-Pass-1');
await signUpAndIn('victim@example.com', 'Victim-Pass-1');
const inserted = await call('collection.insert', { collection: 'notes', data: { text: 'keep me' } }, adaToken);
if (inserted.status !== 200) fail('insert', JSON.stringify(inserted.body));

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const keysFragment = `#endpoint_key=${encodeURIComponent(env.OPBASE_ENDPOINT_KEY)}&api_key=${encodeURIComponent(env.OPBASE_API_KEY)}`;
try {
  // ---- the first load: what comes over the wire and how soon the form can be used ----
  {
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign = [];
    page.on('request', (request) => { if (!request.url().startsWith(base)) foreign.push(request.url()); });
    const answer = await page.goto(`${base}/console/`);
    const csp = answer.headers()['content-security-policy'] || '';
    if (!csp.includes("script-src 'self'") || !csp.includes("frame-ancestors 'none'")) fail('first load', `CSP ${csp}`);
    await page.waitForSelector('form.signin input[name=email]');
    if (await page.isVisible('input[name=otp]')) fail('first load', 'the code field shows for a password project');
    const figures = await page.evaluate(() => {
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
      return { interactiveMs: performance.now(), bytes: entries.reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0), files: entries.length };
    });
    console.log(`figure first_load_bytes ${figures.bytes}`);
    console.log(`figure first_load_files ${figures.files}`);
    console.log(`figure first_load_interactive_ms ${figures.interactiveMs.toFixed(0)}`);
    if (figures.bytes > 300 * 1024) fail('first load', `${figures.bytes} bytes`);
    if (foreign.length) fail('first load', `requests elsewhere: ${foreign.join(', ')}`);
    await shot(page, 'signin');
    await context.close();
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => fail('page', error.message));
  const signIn = async (email, password) => {
    await page.goto(`${base}/console/${keysFragment}`);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', password);
    await page.click('form.signin button[type=submit]');
  };

  // ---- a non-admin is refused ----
  await signIn('mallory@example.com', 'Mallory-Pass-1');
  await page.waitForSelector('text=not an administrator');
  if (await page.$('nav')) fail('non-admin', 'the console opened');
  await shot(page, 'refused');

  // ---- an administrator signs in with a mailed code as second factor: the overview ----
  await page.goto(`${base}/console/${keysFragment}`);
  await page.fill('input[name=email]', env.OPBASE_ADMIN_EMAIL);
  await page.fill('input[name=password]', env.OPBASE_ADMIN_PASSWORD);
  await page.click('button:text("E-mail me a code")');
  await page.waitForSelector('input[name=otp]', { state: 'visible' });
  let code = null;
  await eventually('the mailed code', async () => (code = await mailedCode(env.OPBASE_ADMIN_EMAIL)) !== null);
  await page.fill('input[name=otp]', code);
  await shot(page, 'signin-code');
  await page.click('form.signin button[type=submit]');
  await page.waitForSelector('#health');
  if ((await page.textContent('#health')) !== 'ready') fail('overview', 'the daemon is not ready');
  if (page.url().includes('api_key')) fail('overview', 'the keys stayed in the address');
  if (!/[0-9.]+ (B|KiB|MiB|GiB)$/.test(await page.textContent('#store-size'))) fail('overview', 'no store size');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  if (stored.includes('eyJ')) fail('overview', 'a token was stored in the browser');
  await shot(page, 'overview');

  // ---- a webhook endpoint, and a delivery of a document inserted after it ----
  await page.click('nav a[data-page=webhooks]');
  await page.waitForSelector('#webhook-create');
  await page.fill('#webhook-create input[name=url]', receiverUrl);
  await page.click('#webhook-create button[type=submit]');
  await page.waitForSelector('#webhook-secret code');
  if (!(await page.textContent('#webhook-secret code')).startsWith('whsec_')) fail('webhook', 'no secret shown');
  const second = await call('collection.insert', { collection: 'notes', data: { text: 'announce me' } }, adaToken);
  if (second.status !== 200) fail('webhook insert', JSON.stringify(second.body));
  await eventually('webhook delivery', async () => {
    await page.click('#refresh-deliveries');
    await page.waitForTimeout(100);
    const log = await page.textContent('#messages');
    return log.includes('document.created') && log.includes('delivered');
  });
  if (!received.some((r) => r.body.includes('document.created'))) fail('webhook', 'the receiver got nothing');
  await shot(page, 'webhooks');

  // ---- a stricter password policy refuses a weak sign-up at once ----
  await page.click('nav a[data-page=settings]');
  await page.waitForSelector('#settings-auth');
  await page.selectOption('#settings-auth select[name=password_policy]', 'HIGH');
  await page.click('#settings-auth button[type=submit]');
  await page.waitForSelector('text=Saved password_policy');
  const weak = await call('auth.signup', { email: 'weak@example.com', password: 'weakpass1', display_name: 'weak' });
  if (weak.body.error?.code !== 'WEAK_PASSWORD') fail('policy', `a weak sign-up answered ${JSON.stringify(weak.body)}`);
  await shot(page, 'settings');

  // ---- a user found and disabled ----
  await page.click('nav a[data-page=users]');
  await page.fill('input[name=search]', 'victim');
  await page.click('form[role=search] button[type=submit]');
  await page.waitForSelector('#user-results td:text("victim@example.com")');
  await page.click('#user-results tr:has-text("victim@example.com") button:text("Profile")');
  await page.waitForSelector('#user-profile:has-text("victim@example.com")');
  await page.click('#user-results tr:has-text("victim@example.com") button:text("Disable")');
  await page.waitForSelector('text=victim@example.com disabled');
  const refused = await call('auth.signin', { grant_type: 'password', email: 'victim@example.com', password: 'Victim-Pass-1' });
  if (refused.body.error?.details?.reason !== 'disabled') fail('disable', JSON.stringify(refused.body));
  await page.fill('input[name=search]', 'victim');
  await page.click('form[role=search] button[type=submit]');
  await page.waitForSelector('#user-results td:text("disabled")');
  await shot(page, 'users');

  // ---- a document browsed, deleted and restored ----
  await page.click('nav a[data-page=data]');
  await page.waitForSelector('#documents table');
  await page.click('#documents tbody tr >> nth=0 >> button:text("View")');
  const json = await page.textContent('#document-json');
  if (!json.includes('"text"')) fail('data', 'no JSON shown');
  const before = (await page.$$('#documents tbody tr')).length;
  await page.click('#documents tbody tr >> nth=0 >> button:text("Delete")');
  await page.waitForSelector('#undo-delete');
  await eventually('delete', async () => (await page.$$('#documents tbody tr')).length === before - 1);
  const counts = await page.textContent('#collection-counts tbody');
  if (!/notes\s*1\s*0\s*1/.test(counts.replace(/\s+/g, ' '))) fail('delete', `the counts say ${counts}`);
  await shot(page, 'data-deleted');
  await page.click('#undo-delete');
  await page.waitForSelector('text=Restored the documents');
  await eventually('restore', async () => (await page.$$('#documents tbody tr')).length === before);
  const count = await call('collection.count', { collection: 'notes', match: {} }, adaToken);
  if (count.body.data?.count !== 2) fail('restore', `ada counts ${JSON.stringify(count.body)}`);
  await shot(page, 'data');

  // ---- the page follows its collection: a write made elsewhere shows without a reload ----
  await page.waitForSelector('#live-status:text("Live:")', { timeout: 10000 });
  const rowsBefore = (await page.$$('#documents tbody tr')).length;
  const elsewhereDoc = await call('collection.insert', { collection: 'notes', data: { text: 'written elsewhere' } }, adaToken);
  await eventually('live insert', async () => (await page.$$('#documents tbody tr')).length === rowsBefore + 1);
  await shot(page, 'data-live');
  await call('collection.delete', { collection: 'notes', match: { _key: elsewhereDoc.body.data[0]._key } }, adaToken);
  await eventually('live delete', async () => (await page.$$('#documents tbody tr')).length === rowsBefore);

  // ---- a collection's rules: notes opened to readers without a token, then back ----
  await page.click('nav a[data-page=rules]');
  await page.waitForSelector('#rules-editor table');
  await page.fill('input[name=collection]', 'notes');
  await page.click('button:text("Show rules")');
  await page.waitForSelector('text=The rules of notes.');
  if (!(await page.isDisabled('input[name=create-owner]'))) fail('rules', 'create offers owner');
  await page.check('input[name=read-anyone]');
  await page.fill('input[name=update-roles]', 'editor');
  await page.click('#save-rules');
  await page.waitForSelector('text=Saved the rules of notes.');
  const adminSession = await call('auth.signin', { grant_type: 'password', email: env.OPBASE_ADMIN_EMAIL, password: env.OPBASE_ADMIN_PASSWORD });
  const adminToken = adminSession.body.data?.id_token;
  const rules = await call('collection.rules.get', { collection: 'notes' }, adminToken);
  if (JSON.stringify(rules.body.data?.rules?.read) !== '["owner","anyone"]') fail('rules', `read is ${JSON.stringify(rules.body)}`);
  if (JSON.stringify(rules.body.data?.rules?.update) !== '["owner","role:editor"]') fail('rules', `update is ${JSON.stringify(rules.body)}`);
  const open = await call('collection.count', { collection: 'notes', match: {} });
  if (open.body.data?.count !== 2) fail('rules', `without a token: ${JSON.stringify(open.body)}`);
  await shot(page, 'rules');
  await page.click('#rules-editor tbody tr >> nth=0 >> button:text("Default")');
  await page.waitForSelector('text=back to its default');
  const closed = await call('collection.count', { collection: 'notes', match: {} });
  if (closed.status !== 401) fail('rules', `the default read still lets anyone count: ${JSON.stringify(closed.body)}`);

  // ---- the audit log shows the changes ----
  await page.click('nav a[data-page=audit]');
  await page.waitForSelector('#audit-entries table');
  const audit = await page.textContent('#audit-entries');
  for (const op of ['auth.settings.update', 'auth.user.update', 'collection.admin.delete', 'collection.admin.restore', 'collection.rules.update', 'webhooks.endpoint.create']) {
    if (!audit.includes(op)) fail('audit', `${op} is not in the log`);
  }
  await shot(page, 'audit');

  // ---- signing out forgets the session ----
  await page.click('header button:text("Sign out")');
  await page.waitForSelector('form.signin');

  // ---- a session ended elsewhere brings the console back to the sign-in form ----
  await signIn(env.OPBASE_ADMIN_EMAIL, env.OPBASE_ADMIN_PASSWORD);
  await page.waitForSelector('#health');
  const elsewhere = await call('auth.signin', { grant_type: 'password', email: env.OPBASE_ADMIN_EMAIL, password: env.OPBASE_ADMIN_PASSWORD });
  const adminKey = elsewhere.body.data.user_profile._userkey;
  const ended = await call('auth.user.signout', { _userkey: adminKey }, elsewhere.body.data.id_token);
  if (ended.status !== 200) fail('session ended', JSON.stringify(ended.body));
  await eventually('session ended', async () => {
    await page.click('nav a[data-page=audit]').catch(() => {});
    await page.waitForTimeout(200);
    return (await page.$('form.signin')) !== null;
  });
  await page.waitForSelector('text=Your session ended');
  await shot(page, 'session-ended');
  console.log('console test passed');
} finally {
  await browser.close();
  receiver.close();
}
