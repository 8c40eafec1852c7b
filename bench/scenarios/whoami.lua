-- scenario: whoami
-- measures: echo.whoami with a real bearer token: noop plus the gateway's token check (the
--           auth.verify_token service: the verified-token cache, the session's liveness) plus
--           the op's own use of the claims (it parses them and prints them back). Its distance
--           to noop is therefore an upper bound of what the token check costs a signed-in op;
--           bench/README.md has the exact share, counted with callgrind.
-- plugins: echo, auth
-- setup: whoami.setup.sh signs user u0 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"echo.whoami"}', "u0")
bench.expect_body = '"user":"'
