// An independent check of opbase's webhook signatures with the official Standard Webhooks
// library (npm standardwebhooks): each delivery is verified the way a receiver would.
//
//   node verify_webhook_signatures.mjs <entries.json>
//
// The file holds a JSON array of
//   {"secret": "whsec_...", "id": <Webhook-Id>, "timestamp": <Webhook-Timestamp>,
//    "signature": <Webhook-Signature, "v1,<base64>" possibly several separated by spaces>,
//    "body": <the raw body as text>}
// Prints one line per entry, in order: "ok", or "FAIL <the library's reason>"; exits 0 when every
// entry is ok, 1 when one failed, 2 when the input is unusable (no file, not JSON, empty list).
// The library refuses timestamps more than 5 minutes from now: verify fresh deliveries.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const [path] = process.argv.slice(2);
if (!path) {
  console.error("usage: node verify_webhook_signatures.mjs <entries.json>");
  process.exit(2);
}

let entries;
try {
  entries = JSON.parse(readFileSync(path, "utf8"));
} catch (error) {
  console.error(`cannot read ${path}: ${error.message}`);
  process.exit(2);
}
if (!Array.isArray(entries) || entries.length === 0) {
  console.error(`${path} holds no entries: a JSON array of at least one entry is expected`);
  process.exit(2);
}

let failed = 0;
for (const entry of entries) {
  try {
    new Webhook(entry.secret).verify(entry.body, {
      "webhook-id": entry.id,
      "webhook-timestamp": entry.timestamp,
      "webhook-signature": entry.signature,
    });
    console.log("ok");
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${error.name}: ${error.message}`.replace(/\s+/g, " "));
  }
}
process.exitCode = failed === 0 ? 0 : 1;
