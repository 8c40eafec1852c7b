-- scenario: rules_shared_find
-- measures: collection.find {}, newest first, limit 100, with the total, of a to-do
--           list collection of 1,000 lists x 10 documents shared through _readers and _writers
--           (read rule ["owner", "shared"]): the caller sees 3 lists, 30 documents. Called by
--           eight users in turn.
--           A Lua request() (bench.cycle_users): compare with the other rules_*
--           figures, not the static ones.
-- plugins: collection, auth
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: rules_shared_find.setup.sh seeds the rules scenarios' documents (bench_api.py rules)
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.cycle_users('{"op":"collection.find","collection":"rules_shared","match":{},"limit":100}', "readers")
bench.expect_body = '"size":30,'
