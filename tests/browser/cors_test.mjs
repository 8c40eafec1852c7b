// The API from a real browser page on another origin (docs/api.md#browsers-cors): a static
// server on its own port serves a page and the JavaScript client (sdk/js/src), and Debian's
// chromium, driven by playwright-core, signs up, signs in, inserts and finds from it, and reads
// a failed call's code and request id. Run by tests/integration/browser_test.cpp, which starts
// the daemon and passes OPBASE_URL, OPBASE_ENDPOINT_KEY and OPBASE_API_KEY. Exits non-zero on
// any failure; OPBASE_SCREENSHOT names a PNG to keep the page's picture in.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch_chromium, repo, serve_page } from './browser_tools.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

for (const name of ['OPBASE_URL', 'OPBASE_ENDPOINT_KEY', 'OPBASE_API_KEY']) {
  if (!process.env[name]) {
    console.error(`${name} is not set: run this through ctest (browser_test), which starts the daemon`);
    process.exit(2);
  }
}
const config = { url: process.env.OPBASE_URL, endpointKey: process.env.OPBASE_ENDPOINT_KEY, apiKey: process.env.OPBASE_API_KEY };

// The page, its config, and the client's files under /client/.
async function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  let file = null;
  if (url.pathname === '/' || url.pathname === '/index.html') file = path.join(here, 'page.html');
  if (url.pathname.startsWith('/client/') && /^[a-z_]+\.js$/.test(url.pathname.slice(8))) {
    file = path.join(repo, 'sdk/js/src', url.pathname.slice(8));
  }
  if (url.pathname === '/config.json') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(config));
    return;
  }
  try {
    const body = await fs.readFile(file ?? '/nonexistent');
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8';
    response.writeHead(200, { 'Content-Type': type }).end(body);
  } catch {
    response.writeHead(404).end();
  }
}

const { server, pageUrl } = await serve_page(serve);

const browser = await launch_chromium();
let failures = [];
try {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(String(error)));
  await page.goto(pageUrl);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.__result);
  if (process.env.OPBASE_SCREENSHOT) await page.screenshot({ path: process.env.OPBASE_SCREENSHOT, fullPage: true });
  const byName = Object.fromEntries(result.steps.map((s) => [s.name, s]));
  const expect = (name, pattern) => {
    const s = byName[name];
    if (!s || !s.ok || !pattern.test(String(s.value))) failures.push(`${name}: ${JSON.stringify(s)}`);
  };
  expect('sign up', /^browser-\d+@example\.com$/);
  expect('sign in', /^bearer$/);
  expect('insert', /^from the page$/);
  expect('find', /^1 document\(s\): from the page$/);
  expect('session kept', /^browser-\d+@example\.com$/);
  expect('error readable', /^UNKNOWN_OPERATION 404 request [0-9a-f]{32}$/);
  if (failures.length) failures.push(`console: ${messages.join(' | ')}`);
  console.log(result.steps.map((s) => `${s.ok ? 'ok' : 'FAILED'} ${s.name}: ${s.value ?? s.error}`).join('\n'));
} catch (error) {
  failures.push(String(error?.stack ?? error));
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(`browser test failed:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`browser test: the page on ${pageUrl} used the API at ${config.url}`);
