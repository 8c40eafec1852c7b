-- scenario: captcha_challenge
-- measures: captcha.challenge with the API key: a uniform random number and a salt from
--           OpenSSL's generator, one SHA-256 and one HMAC-SHA256 under the project's key (read
--           from the store once, then held), the challenge in the envelope. Nothing is written.
-- plugins: captcha
-- setup: none
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.api_call('{"op":"captcha.challenge"}')
bench.expect_body = '"signature":"'
