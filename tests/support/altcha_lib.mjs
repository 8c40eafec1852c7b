// An independent side of the captcha plugin's ALTCHA format: npm altcha-lib (its v1 API, the
// format the plugin speaks and the altcha widget still solves) solves, makes and checks what
// the tests hand it.
//
//   node altcha_lib.mjs solve <challenge JSON>        prints the widget's payload (base64)
//   node altcha_lib.mjs check <hmac key> <payload>    prints true or false: verifySolution
//   node altcha_lib.mjs make <hmac key> <number> <expires, unix seconds>
//                                                     prints {"challenge": ..., "payload": ...}
//
// Exits 0 after printing, 1 when solve finds no number, 2 on unusable arguments.
import { createChallenge, solveChallenge, verifySolution } from 'altcha-lib/v1';

const [mode, ...args] = process.argv.slice(2);

// The payload the widget sends for `challenge` answered by `number`.
function payload(challenge, number) {
  const { algorithm, challenge: hash, salt, signature } = challenge;
  return btoa(JSON.stringify({ algorithm, challenge: hash, number, salt, signature }));
}

if (mode === 'solve' && args.length === 1) {
  const challenge = JSON.parse(args[0]);
  const { promise } = solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm,
    challenge.maxnumber);
  const solution = await promise;
  if (!solution) {
    console.error('altcha-lib found no number for', args[0]);
    process.exit(1);
  }
  console.log(payload(challenge, solution.number));
} else if (mode === 'check' && args.length === 2) {
  console.log(String(await verifySolution(args[1], args[0])));
} else if (mode === 'make' && args.length === 3) {
  const challenge = await createChallenge({
    hmacKey: args[0],
    number: Number(args[1]),
    maxnumber: Math.max(Number(args[1]), 1000),
    expires: new Date(Number(args[2]) * 1000),
  });
  console.log(JSON.stringify({ challenge, payload: payload(challenge, Number(args[1])) }));
} else {
  console.error('usage: node altcha_lib.mjs solve <challenge JSON> | check <key> <payload> | make <key> <number> <expires>');
  process.exit(2);
}
