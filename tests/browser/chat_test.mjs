// The chat example (docs/examples/chat.html) as two people use it, in Debian's chromium driven by
// playwright-core: a static server on its own port serves the page, with the daemon's address
// and keys put in, and the JavaScript client's files (sdk/js/src) at /opbase-client/ as the
// example says. Two browser contexts (two people, each with a session of their own) sign in;
// a message typed in one appears in the other, and the answer in the first, without a reload.
// Run by tests/integration/browser_test.cpp, which starts the daemon and passes OPBASE_URL,
// OPBASE_ENDPOINT_KEY and OPBASE_API_KEY; OPBASE_SCREENSHOTS names a folder for the pictures.
// Prints "seen in <ms> ms" per message; exits non-zero on any failure.
import fs from 'node:fs/promises';
import path from 'node:path';
import { example_page, launch_chromium, repo, require_daemon_env, serve_page } from './browser_tools.mjs';

require_daemon_env('browser_test');
const shots = process.env.OPBASE_SCREENSHOTS;
if (shots) await fs.mkdir(shots, { recursive: true });

async function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  try {
    if (url.pathname === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(await example_page('chat.html'));
    } else if (/^\/opbase-client\/[a-z_]+\.js$/.test(url.pathname)) {
      const file = path.join(repo, 'sdk/js/src', path.basename(url.pathname));
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(await fs.readFile(file));
    } else if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
    } else {
      response.writeHead(404).end();
    }
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
}

const { server, pageUrl } = await serve_page(serve);
const browser = await launch_chromium();
const failures = [];
const messages = [];
const stamp = `${process.pid}${Date.now()}`;
try {
  const people = [];
  for (const name of ['ada', 'bo']) {
    const context = await browser.newContext({ viewport: { width: 640, height: 520 } });
    const page = await context.newPage();
    page.on('console', (message) => messages.push(`${name}: ${message.text()}`));
    page.on('pageerror', (error) => messages.push(`${name}: ${error}`));
    await page.goto(pageUrl);
    await page.fill('input[name=email]', `${name}-${stamp}@example.com`);
    await page.fill('input[name=password]', 'Chat-Pass-12345');
    await page.click('#signin button');
    await page.waitForSelector('#room:not([hidden])', { timeout: 15000 });
    people.push({ name, page });
  }
  const [ada, bo] = people;
  // Each says something; the other sees it appear.
  for (const [from, to, text] of [[ada, bo, `hello from ada ${stamp}`], [bo, ada, `hi ada, bo here ${stamp}`]]) {
    const started = Date.now();
    await from.page.fill('#send input[name=text]', text);
    await from.page.click('#send button');
    await to.page.waitForFunction((t) => [...document.querySelectorAll('#messages li')].some((li) => li.textContent.includes(t)),
      text, { timeout: 15000 });
    console.log(`seen in ${Date.now() - started} ms`);
  }
  for (const { name, page } of people) {
    const shown = await page.$$eval('#messages li', (items) => items.map((li) => li.textContent));
    if (shown.length !== 2) failures.push(`${name}'s page shows ${shown.length} messages: ${JSON.stringify(shown)}`);
    const status = await page.textContent('#status');
    if (status) failures.push(`${name}'s page says "${status}"`);
    if (shots) await page.screenshot({ path: path.join(shots, `chat-${name}.png`) });
  }
} catch (error) {
  failures.push(String(error?.stack ?? error));
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(`chat browser test failed:\n${failures.join('\n')}\nconsole: ${messages.join(' | ')}`);
  process.exit(1);
}
