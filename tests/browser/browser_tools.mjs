// What the browser tests share: Debian's chromium started through playwright-core the one way
// (headless, no sandbox, nothing fetched in the background that a test did not ask for), and a
// static server for a test's page on an origin of its own.
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
const require = createRequire(path.join(repo, 'tests/package.json'));
const { chromium } = require('playwright-core');

export function launch_chromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

// Serves `handle(request, response)` (async) on 127.0.0.1 at a free port: {server, pageUrl}.
export async function serve_page(handle) {
  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, pageUrl: `http://127.0.0.1:${server.address().port}/` };
}
