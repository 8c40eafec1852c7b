// @opbase/client: the JavaScript client of the opbase API. README.md shows how to use it.
export { createClient, OpbaseClient } from './client.js';
export { OpbaseError, OpbaseNetworkError, ErrorCode } from './errors.js';
export { MemoryStorage } from './session.js';
export { verifyWebhook } from './verify_webhook.js';
