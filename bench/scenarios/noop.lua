-- scenario: noop
-- measures: POST {"op":"echo.ping"} to /api/<endpoint key>: the whole gateway around an op that
--           does nothing: request id, body read, project lookup by endpoint key, API key check
--           (SHA-256 + constant-time compare), JSON parse, op lookup, access check, the C ABI call
--           into the plugin (which parses the body again and dumps {"pong":true}), the envelope,
--           and the per-request metrics. Its distance to healthz is the gateway's own cost.
-- plugins: echo
-- setup: none (the bench project's keys come from run.sh)
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.api_call('{"op":"echo.ping"}')
bench.expect_body = '{"data":{"pong":true}}'
