-- scenario: rules_public_feed
-- measures: collection.find {}, limit 20: the newest 20 of the 10,000 documents every signed-in user reads (read rule ["users"]), with the total: a public feed's first page.
--           Called by eight users in turn. A Lua request() (bench.cycle_users): compare with
--           the other rules_* figures, not the static ones.
-- plugins: collection, auth
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: rules_public_feed.setup.sh seeds the rules scenarios' documents (bench_api.py rules)
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.cycle_users('{"op":"collection.find","collection":"rules_public","match":{},"limit":20}', "readers")
bench.expect_body = '"size":10000,'
