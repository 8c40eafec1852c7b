-- scenario: admin_users
-- measures: auth.user.list with the server admin key: the newest 50 of 100,000 accounts and
--           meta.total (the console's Users page).
-- plugins: auth, collection
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: admin_users.setup.sh seeds 100,000 accounts (cheap password hashing, so seeding takes
--        a minute; never run beside the signin scenario) and 100,000 documents
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.admin_call('{"op":"auth.user.list","limit":50}')
bench.expect_body = '"total":1000'
