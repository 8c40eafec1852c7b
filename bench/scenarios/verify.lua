-- scenario: verify
-- measures: auth.verify_id_token of one real ES256 id token, again and again: the gateway, the
--           verified-token cache (a hit after the first call: no signature check), the session's
--           liveness (cached, auth.session_recheck_ms), and the user's profile read from the
--           store for the answer.
-- plugins: auth
-- setup: verify.setup.sh signs user u0 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.api_call('{"op":"auth.verify_id_token","id_token":"' .. bench.state("token-u0") .. '"}')
bench.expect_body = '"email":"u0@bench.example.com"'
