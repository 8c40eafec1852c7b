// The captcha page example (docs/examples/captcha-guestbook.html) as a visitor uses it, in
// Debian's chromium driven by playwright-core: a static server on its own port serves the page,
// with the daemon's address and keys put in, and the npm altcha widget's file at
// /altcha/altcha.js as the example says. The visitor writes a message, ticks the widget, which
// fetches a challenge from the daemon and solves it in its workers, and signs; the page says the
// message is saved. Then the same answer, sent again from the page, is refused as replayed.
// Run by tests/integration/captcha_test.cpp, which starts the daemon and passes OPBASE_URL,
// OPBASE_ENDPOINT_KEY and OPBASE_API_KEY; OPBASE_SCREENSHOTS names a folder for the pictures.
// Prints "saved <_key>", "solved in <ms> ms (widget: number <n> in <took> ms)" and
// "replay: <reason>"; exits
// non-zero on any failure.
import fs from 'node:fs/promises';
import path from 'node:path';
import { example_page, launch_chromium, repo, require_daemon_env, serve_page } from './browser_tools.mjs';

require_daemon_env('captcha_test');
const shots = process.env.OPBASE_SCREENSHOTS;
if (shots) await fs.mkdir(shots, { recursive: true });

async function serve(request, response) {
  const url = new URL(request.url, 'http://localhost');
  try {
    if (url.pathname === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(await example_page('captcha-guestbook.html'));
    } else if (url.pathname === '/altcha/altcha.js') {
      const widget = await fs.readFile(path.join(repo, 'tests/node_modules/altcha/dist/main/altcha.js'));
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(widget);
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
try {
  const page = await browser.newPage({ viewport: { width: 720, height: 560 } });
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(String(error)));
  const elsewhere = [];
  page.on('request', (request) => {
    const origin = new URL(request.url()).origin;
    if (origin !== new URL(pageUrl).origin && origin !== new URL(process.env.OPBASE_URL).origin &&
        !request.url().startsWith('blob:') && !request.url().startsWith('data:')) {
      elsewhere.push(request.url());
    }
  });
  await page.goto(pageUrl);
  await page.fill('textarea[name=text]', 'Lovely site, from a visitor without an account');
  if (shots) await page.screenshot({ path: path.join(shots, 'captcha-1-form.png') });

  const started = Date.now();
  // The box a person ticks: the widget draws it over its checkbox, so the click goes to the label.
  await page.click('altcha-widget label[for=altcha-checkbox-captcha]');
  const answer = page.locator('input[name=altcha]');
  await page.waitForFunction(() => document.querySelector('input[name=altcha]')?.value, null, { timeout: 60000 });
  const solvedMs = Date.now() - started;
  const payload = await answer.inputValue();
  const { took, number } = JSON.parse(Buffer.from(payload, 'base64').toString());
  if (shots) await page.screenshot({ path: path.join(shots, 'captcha-2-verified.png') });

  await page.click('button[type=submit]');
  await page.waitForFunction(() => document.getElementById('status').textContent !== '', null, { timeout: 30000 });
  const status = await page.textContent('#status');
  if (shots) await page.screenshot({ path: path.join(shots, 'captcha-3-saved.png') });
  const saved = /^Thank you, your message is saved \(([0-9a-f]+)\)\.$/.exec(status);
  if (!saved) failures.push(`the page did not save the message: "${status}"`);
  else console.log(`saved ${saved[1]}`);
  console.log(`solved in ${solvedMs} ms (widget: number ${number} in ${took} ms)`);

  // The same answer again, from the page's origin as the page would send it.
  const replay = await page.evaluate(async ({ url, endpointKey, apiKey, captcha }) => {
    const response = await fetch(`${url}/api/${endpointKey}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-KEY': apiKey },
      body: JSON.stringify({ op: 'collection.insert', collection: 'guestbook', data: { text: 'again' }, captcha }),
    });
    return { status: response.status, body: await response.json() };
  }, { url: process.env.OPBASE_URL, endpointKey: process.env.OPBASE_ENDPOINT_KEY, apiKey: process.env.OPBASE_API_KEY, captcha: payload });
  console.log(`replay: ${replay.body.error?.details?.reason}`);
  if (replay.status !== 401 || replay.body.error?.details?.reason !== 'replayed') {
    failures.push(`the replay was not refused as replayed: ${JSON.stringify(replay)}`);
  }
  if (elsewhere.length) failures.push(`requests to other origins: ${elsewhere.join(', ')}`);
} catch (error) {
  failures.push(String(error?.stack ?? error));
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(`captcha browser test failed:\n${failures.join('\n')}\nconsole: ${messages.join(' | ')}`);
  process.exit(1);
}
