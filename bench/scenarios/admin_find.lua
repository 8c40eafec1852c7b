-- scenario: admin_find
-- measures: collection.admin.find with the server admin key: the newest 50 of 100,000 documents
--           of 100 users and the pagination total (the console's Data page).
-- plugins: auth, collection
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: admin_find.setup.sh seeds 100,000 accounts (cheap password hashing, so seeding takes
--        a minute; never run beside the signin scenario) and 100,000 documents
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.admin_call('{"op":"collection.admin.find","collection":"admin_docs","match":{},"limit":50}')
bench.expect_body = '"size":100000'
