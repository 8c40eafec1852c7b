-- scenario: ins_batch
-- measures: collection.insert of a batch of 100 small documents in one request (one transaction);
--           ops/s counts requests, so documents/s is 100 times it.
-- plugins: collection, auth
-- setup: ins_batch.setup.sh signs user u2 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local docs = {}
for i = 1, 100 do
  docs[i] = string.format('{"name":"doc %d","n":%d,"category":"c%d"}', i, i, i % 10)
end
bench.user_call('{"op":"collection.insert","collection":"bench_batch","data":[' ..
                table.concat(docs, ",") .. ']}', "u2")
bench.expect_body = '"_key":'
