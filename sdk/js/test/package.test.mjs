// The package as it is published: its types compile a TypeScript app under --strict, and
// `npm pack` takes only the library, its types and its README.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../../tests/node_modules/typescript/bin/tsc', import.meta.url));

test('the types compile an app under --strict, and refuse what is wrong', () => {
  const usage = fileURLToPath(new URL('./types/usage.ts', import.meta.url));
  try {
    execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext',
      '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', usage], { encoding: 'utf8' });
  } catch (error) {
    assert.fail(`tsc: ${error.stdout}${error.stderr}`);
  }
});

test('npm pack takes the sources, types, README and package.json only', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: packageDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [packed] = JSON.parse(out);
  const files = packed.files.map((f) => f.path).sort();
  assert.equal(packed.name, '@opbase/client');
  assert.ok(files.includes('src/index.js') && files.includes('src/index.d.ts') && files.includes('README.md'), files.join(','));
  assert.deepEqual(files.filter((f) => !f.startsWith('src/') && f !== 'README.md' && f !== 'package.json'), []);
});
