// The daemon the tests call: the C++ harness (tests/integration/js_client_test.cpp) starts it
// and passes where it is in the environment.
import { createClient } from '../src/index.js';

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run these tests through ctest (js_client_test), which starts the daemon`);
  }
  return value;
}

export const daemon = {
  url: required('OPBASE_URL'),
  endpointKey: required('OPBASE_ENDPOINT_KEY'),
  apiKey: required('OPBASE_API_KEY'),
  adminKey: required('OPBASE_ADMIN_KEY'),
};

export const PASSWORD = 'Correct-Horse-Battery-9';

let counter = 0;
/** An address no other test uses. */
export function freshEmail(tag) {
  counter += 1;
  return `${tag}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

export function client(options = {}) {
  return createClient({ ...daemon, adminKey: undefined, ...options });
}

/** A client signed in as a new user. */
export async function signedIn(tag, options = {}) {
  const c = client(options);
  const email = freshEmail(tag);
  await c.auth.signup({ email, password: PASSWORD, display_name: tag });
  await c.auth.signin({ email, password: PASSWORD });
  return { client: c, email };
}
