# Signs user u0 up and in, makes one ready file of 4 KiB for it (file.presign_upload, the PUT to
# its upload URL, file.finalize_upload) and writes its _key to $BENCH_STATE_DIR/file_get.
set -euo pipefail
LIB="$(dirname "$0")/lib"
exec python3 - "$LIB" <<'PY'
import hashlib, json, os, sys, urllib.request
sys.path.insert(0, sys.argv[1])
import bench_api

token = bench_api.token_of("u0")
body = bytes(range(256)) * 16
ticket = bench_api.call({"op": "file.presign_upload", "name": "bench-get.bin",
                         "content_type": "application/octet-stream", "size": len(body),
                         "sha256": hashlib.sha256(body).hexdigest()}, token)
put = urllib.request.Request(ticket["upload_url"], data=body, method="PUT",
                             headers=ticket["headers"])
with urllib.request.urlopen(put, timeout=60) as answer:
    stored = json.loads(answer.read())["data"]
assert stored["size"] == len(body), stored
ready = bench_api.call({"op": "file.finalize_upload", "_key": ticket["_key"]}, token)
assert ready["state"] == "ready" and ready.get("download_url"), ready
with open(os.path.join(bench_api.STATE, "file_get"), "w") as out:
    out.write(ticket["_key"] + "\n")
print("file_get: ready file", ticket["_key"])
PY
