-- scenario: rules_private_count
-- measures: the same count over the caller's own 10,000 documents: 100. Called by
--           eight users in turn.
--           A Lua request() (bench.cycle_users): compare with the other rules_*
--           figures, not the static ones.
-- plugins: collection, auth
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: rules_private_count.setup.sh seeds the rules scenarios' documents (bench_api.py rules)
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.cycle_users('{"op":"collection.count","collection":"rules_private","match":{"g":7}}', "readers")
bench.expect_body = '"count":100'
