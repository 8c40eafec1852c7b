-- scenario: ins_one_idx5
-- measures: ins_one into a collection whose five fields a..e have automatic indexes (made by
--           the set-up's queries): each insert also parses the document and writes five index
--           rows in its transaction. Compare with ins_one.
-- plugins: collection, auth
-- setup: ins_one_idx5.setup.sh seeds bench_ins5 and queries each field until it is indexed
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.insert","collection":"bench_ins5","data":{"name":"one","a":1,"b":"b1","c":true,"d":-1,"e":"e1"}}', "u1")
bench.expect_body = '"_key":'
