-- scenario: ins_one
-- measures: collection.insert of one small document as a signed-in user: the gateway, the token
--           check (a real ES256 token, verified once and then cached), the collection plugin
--           (validation, _key, timestamps), the store service, and a durable commit (storage.
--           sqlite.synchronous=full; concurrent inserts share one fsync through group commit).
-- plugins: collection, auth
-- setup: ins_one.setup.sh signs user u1 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.insert","collection":"bench_ins","data":{"name":"one","n":1,"tags":["a","b"]}}', "u1")
bench.expect_body = '"_key":'
