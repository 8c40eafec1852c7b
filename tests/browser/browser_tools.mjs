// What the browser tests share: Debian's chromium started through playwright-core the one way
// (headless, no sandbox, nothing fetched in the background that a test did not ask for), and a
// static server for a test's page on an origin of its own.
import fs from 'node:fs/promises';
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

// The daemon the test's C++ harness started: OPBASE_URL, OPBASE_ENDPOINT_KEY and OPBASE_API_KEY;
// exits 2 when one is missing (the script was run by hand, not through ctest `harness`).
export function require_daemon_env(harness) {
  for (const name of ['OPBASE_URL', 'OPBASE_ENDPOINT_KEY', 'OPBASE_API_KEY']) {
    if (!process.env[name]) {
      console.error(`${name} is not set: run this through ctest (${harness}), which starts the daemon`);
      process.exit(2);
    }
  }
}

// An example page of docs/examples exactly as documented, but for the three values a site owner
// fills in: the daemon's address and the project's keys.
export async function example_page(file) {
  const text = await fs.readFile(path.join(repo, 'docs/examples', file), 'utf8');
  const filled = text.replace("'http://127.0.0.1:8080'", `'${process.env.OPBASE_URL}'`)
    .replace("'YOUR_ENDPOINT_KEY'", `'${process.env.OPBASE_ENDPOINT_KEY}'`)
    .replace("'YOUR_API_KEY'", `'${process.env.OPBASE_API_KEY}'`);
  if (filled.includes('YOUR_')) throw new Error(`${file} no longer has the three values to fill in`);
  return filled;
}
