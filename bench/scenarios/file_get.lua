-- scenario: file_get
-- measures: file.get of one ready file by its owner: the token check, the record read by _key,
--           the access check, and a fresh signed download URL (HMAC-SHA256) in the answer. No
--           byte of the file is sent (bench/files.sh measures the download itself).
-- plugins: auth, file
-- setup: file_get.setup.sh uploads one small file of u0 through presign, PUT and finalize and
--        keeps its _key
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

local key = bench.state("file_get")
bench.user_call('{"op":"file.get","_key":"' .. key .. '"}', "u0")
bench.expect_body = '"download_url":"http'
