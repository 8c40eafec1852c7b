-- scenario: signin
-- measures: auth.signin with grant_type password: the user's e-mail claim and document, one
--           argon2id verification (auth.argon2.* defaults: t=2, m=19456 KiB, p=1), a new
--           session written durably, an ES256 id token signed, the user.signedin event. The
--           hash is the point: it is slow on purpose, so expect tens of sign-ins a second per
--           core, not thousands.
-- plugins: auth
-- setup: signin.setup.sh signs user s0 up
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.api_call('{"op":"auth.signin","grant_type":"password","email":"s0@bench.example.com",' ..
               '"password":"Bench-Pass-1"}')
bench.expect_body = '"refresh_token":"'
