-- scenario: file_presign
-- measures: file.presign_upload of a 1 MiB file with its SHA-256 (that of 1 MiB of zeros),
--           signed in: the token check,
--           the checks of name, content type, size and digest, the caller's quota (a durable
--           conditional update of the user's usage document), the pending record (a durable
--           insert) and the signed upload URL (HMAC-SHA256) in the answer. Every call keeps a
--           pending record that counts against the user's quota until it is purged (24 hours),
--           so the quotas are set out of reach below: at 16 connections the default 100,000
--           files a user would be used up within a run.
-- plugins: auth, file
-- set: files.quota.files_per_user=1000000000
-- set: files.quota.bytes_per_user=1125899906842624
-- setup: file_presign.setup.sh signs user u0 up and in
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"file.presign_upload","name":"bench.bin",' ..
                '"content_type":"application/octet-stream","size":1048576,' ..
                '"sha256":"30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58"}', "u0")
bench.expect_body = '"upload_url":"http'
