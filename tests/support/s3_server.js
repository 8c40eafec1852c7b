// A real S3-compatible store for the file plugin's tests (tests/unit/file/backends/s3_backend_test.cpp):
// s3rver (npm @20minutes/s3rver, installed into tests/node_modules by packaging/deps.sh), which
// checks Signature Version 4 like S3 does: header and query-string authentication, the signed
// header fields, the expiry of presigned URLs.
//
// Listens on 127.0.0.1 on a free port, keeps its objects under DIR, and has one bucket,
// "test-bucket". Credentials S3RVER / S3RVER, region us-east-1 (any region is taken). Prints
// "PORT <n>" as the first line on stdout; stops when its stdin closes (the test closes it, or
// died). It does not verify x-amz-checksum-sha256 and keeps no checksum.
//
// Usage: node tests/support/s3_server.js DIR
//
// One difference from S3 is corrected here. S3 percent-encodes every byte of a query value but
// A-Z a-z 0-9 - _ . ~ when it computes a signature ("UriEncode"); s3rver uses JavaScript's
// encodeURIComponent, which also leaves ! ' ( ) * as they are. A download URL's
// response-content-disposition holds "filename*=UTF-8''...", so s3rver alone would refuse URLs
// that S3 accepts. encodeURIComponent is made to encode those five too, which changes nothing
// else a URL means: they are only ever written encoded or not, never read differently.
'use strict';

const path = require('node:path');

const plainEncode = globalThis.encodeURIComponent;
globalThis.encodeURIComponent = (text) =>
  plainEncode(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function loadS3rver() {
  try {
    return require(path.join(__dirname, '..', 'node_modules', '@20minutes', 's3rver'));
  } catch (error) {
    process.stderr.write(
      's3_server.js: cannot load @20minutes/s3rver from tests/node_modules (run ' +
        'packaging/deps.sh, or npm install in tests/): ' + error.message + '\n');
    process.exit(2);
  }
}

async function main() {
  const directory = process.argv[2];
  if (!directory) {
    process.stderr.write('usage: node s3_server.js DIR\n');
    process.exit(2);
  }
  const S3rver = loadS3rver();
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'test-bucket' }],
  });
  const { port } = await server.run();
  process.stdout.write(`PORT ${port}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
}

main().catch((error) => {
  process.stderr.write(`s3_server.js: ${error.stack || error}\n`);
  process.exit(1);
});
