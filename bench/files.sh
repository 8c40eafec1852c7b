#!/usr/bin/env bash
# bench/files.sh: the file benchmark (`make bench-files`). One command does all of it:
#   1. builds Release in build-bench/ (as bench/run.sh does; only the daemon, auth and file),
#   2. starts the daemon (auth, file; the local backend) on a free port of 127.0.0.1 with a
#      throw-away store, signs user u0 up, and starts the baseline server (below),
#   3. makes a file of BENCH_FILES_SIZE (1 GiB) random bytes in the throw-away folder and times
#      its SHA-256 alone (openssl dgst, the library the daemon hashes with; sha256sum without
#      openssl),
#   4. BENCH_FILES_ROUNDS (3) times: the same curl sends the file to the baseline (PUT, curl -T),
#      dd copies it to a new file beside the store with conv=fsync (this disk alone, which varies
#      from minute to minute on a shared machine), curl sends it through the daemon
#      (file.presign_upload with its size and SHA-256, the PUT to the upload URL with the
#      ticket's headers, file.finalize_upload), then fetches it from the baseline and from the
#      daemon (file.get's download_url) to /dev/null; each transfer is
#      timed by curl (-w time_total, speed_upload / speed_download), the daemon's peak RSS growth
#      is taken around each of its transfers (VmHWM, reset first through /proc/<pid>/clear_refs
#      when the kernel allows, else growth over the VmHWM before), and the downloaded bytes'
#      SHA-256 is checked in a second, untimed download piped to the hash; the file is then
#      deleted (file.delete) so the disk holds one copy at a time,
#   5. file.presign_upload and file.get at 16 connections with wrk (the scenarios file_presign
#      and file_get, each with its checked warm-up) right after the /healthz ceiling at 16,
#   6. prints one table: figure, value, baseline or ceiling, ratio, target, whether it is met,
#      the 1-minute load average when the measurement began; the transfers are the medians of
#      the rounds (each round's ratio is taken against that round's baseline, then the median).
# The baseline is a plain loopback copy through a socket with the same curl on the client side:
# a small Python server on 127.0.0.1 that, for a PUT, reads the body in 1 MiB pieces into one
# buffer and drops it (no disk, no hash), and, for a GET, sends the same file from the page
# cache with sendfile(2), as the daemon does. So the upload's ratio prices everything the daemon
# does beyond moving the bytes (SHA-256, writing them, fsync before it answers); the hash of
# step 3 and the dd of each round show what this machine's CPU and disk allow for that.
# Every wait has a time limit; the daemon and the baseline server are stopped on exit (trap),
# and the throw-away folder removed. Traffic goes to 127.0.0.1 only. A run takes about 70 s on
# 2 cores once built (build-bench/ up to date), plus the build otherwise.
#
# Settings (environment variables):
#   BENCH_FILES_SIZE=1073741824   bytes of the uploaded and downloaded file
#   BENCH_FILES_ROUNDS=3          transfer rounds (medians of them in the table)
#   BENCH_FILES_CONNECTIONS=16    connections of the presign and get runs and their ceiling
#   BENCH_FILES_TRANSFER_TIMEOUT_S=300   longest time of one transfer
#   BENCH_DURATION=10s, BENCH_WARMUP=2s  each wrk point (the warm-up's answers are checked)
#   BENCH_WRK_THREADS             most wrk threads, default min(2, cores)
#   BENCH_SET="k=v ..."           extra daemon settings
#   BENCH_BUILD_DIR=build-bench   BENCH_SKIP_BUILD=1 reuses it as it is
#   BENCH_OUT=<dir>               where the logs go (default <build dir>/bench-results/files-<time>)
#   TMPDIR                        where the throw-away folder goes (the store and the file: it
#                                 needs twice BENCH_FILES_SIZE free, on the disk to measure)
set -euo pipefail

BENCH_NAME=bench-files
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

SIZE="${BENCH_FILES_SIZE:-1073741824}"
ROUNDS="${BENCH_FILES_ROUNDS:-3}"
CONNECTIONS="${BENCH_FILES_CONNECTIONS:-16}"
TRANSFER_TIMEOUT_S="${BENCH_FILES_TRANSFER_TIMEOUT_S:-300}"
API_TIMEOUT_S=60
TARGET_RATIO=0.5           # transfers against the loopback copy, presign and get against /healthz
TARGET_RSS_MIB=32          # the daemon's peak RSS growth during a transfer

require_positive SIZE ROUNDS CONNECTIONS TRANSFER_TIMEOUT_S
bench_durations 10s 2s
require_tools wrk curl python3 cmake sha256sum dd

# ---- build ----------------------------------------------------------------------------------
# The Release tree of bench/run.sh; only what this benchmark starts.
bench_build opbase auth file
bench_require_daemon auth file
bench_out files-
SUMMARY="$OUT/summary.tsv"

# ---- the throw-away folder: the store, the file, the baseline server ------------------------
bench_temp_dir opbase-bench-files
WORK="$BENCH_TEMP"
STORAGE="$WORK/store"
PAYLOAD="$WORK/payload.bin"
mkdir -p "$STORAGE"

AVAILABLE="$(df -P -B1 "$WORK" | awk 'NR == 2 { print $4 }')"
((AVAILABLE > 2 * SIZE + 268435456)) ||
  die "$WORK has $AVAILABLE bytes free; the file, its stored copy and the dd test need $((2 * SIZE + 268435456))"
FS_TYPE="$(df -P -T "$WORK" | awk 'NR == 2 { print $2 " on " $1 }')"

BENCH_STARTED="$(now)"
LOAD_AT_START="$(load_average)"
say "the file: $SIZE bytes; $ROUNDS rounds; store $WORK ($FS_TYPE); results in $OUT"
say "machine: $(machine_summary); load average $LOAD_AT_START"

# ---- the daemon -----------------------------------------------------------------------------
bench_keys
bench_daemon_args "$STORAGE" auth,file
# The scenarios' own settings ("-- set:" header lines, as bench/run.sh reads them): quotas out
# of reach of the presign run, which also leave room for the big file.
for s in file_presign file_get; do
  while IFS= read -r kv; do
    [[ -n "$kv" ]] && DAEMON_ARGS+=(--set "$kv")
  done < <(scenario_header "$s" set)
done
((SIZE > 5368709120)) && DAEMON_ARGS+=(--set "files.max_size=$SIZE")  # over the 5 GiB default
for kv in ${BENCH_SET:-}; do DAEMON_ARGS+=(--set "$kv"); done
bench_start_daemon daemon "$START_TIMEOUT_S" || die "the daemon did not start"
API="$URL/api/$BENCH_ENDPOINT_KEY"
say "daemon pid $DAEMON_PID at $URL (logs: $OUT/daemon.*)"

# ---- the baseline server --------------------------------------------------------------------
# One connection at a time, which is all curl opens. PUT: answers 100 Continue when asked (as
# the daemon does), reads Content-Length bytes into one 1 MiB buffer, answers {"received": n}.
# GET: the file given, with sendfile(2).
cat >"$WORK/loopback.py" <<'PY'
import os, socket, sys

path, port_file = sys.argv[1], sys.argv[2]
size = os.path.getsize(path)
server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.bind(("127.0.0.1", 0))
server.listen(8)
with open(port_file + ".tmp", "w") as out:
    out.write(str(server.getsockname()[1]))
os.rename(port_file + ".tmp", port_file)
buffer = bytearray(1 << 20)
view = memoryview(buffer)
while True:
    conn, _ = server.accept()
    with conn:
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            got = conn.recv(65536)
            if not got:
                break
            head += got
        if b"\r\n\r\n" not in head:
            continue
        head, rest = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        method = lines[0].split(" ")[0]
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        if method == "PUT":
            length = int(fields.get("content-length", "0"))
            if fields.get("expect", "").lower() == "100-continue":
                conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            left = length - len(rest)
            while left > 0:
                got = conn.recv_into(view, min(left, len(buffer)))
                if got == 0:
                    break
                left -= got
            body = b'{"received":%d}' % (length - left)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
        elif method == "GET":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                         b"Content-Length: %d\r\nConnection: close\r\n\r\n" % size)
            with open(path, "rb") as source:
                conn.sendfile(source)
        else:
            conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n"
                         b"Connection: close\r\n\r\n")
PY

# ---- the file -------------------------------------------------------------------------------
# Random bytes: AES-CTR of zeros under a random key when openssl is there (2 s a GiB here),
# else /dev/urandom (5 s a GiB).
say "making the file ($SIZE random bytes)"
if command -v openssl >/dev/null; then
  openssl enc -aes-128-ctr -nosalt -K "$(random_hex 16)" \
    -iv 00000000000000000000000000000000 </dev/zero 2>/dev/null | head -c "$SIZE" >"$PAYLOAD" || true
else
  head -c "$SIZE" /dev/urandom >"$PAYLOAD"
fi
[[ "$(stat -c %s "$PAYLOAD")" == "$SIZE" ]] || die "making the file failed"

# SHA-256 with OpenSSL, as the daemon computes it (coreutils' sha256sum is several times slower
# on CPUs with SHA instructions); sha256sum where openssl is missing. Of a file, or of stdin.
SHA_CMD=(sha256sum)
command -v openssl >/dev/null && SHA_CMD=(openssl dgst -sha256 -r)
# Hashing alone, one of the two things an upload does besides moving the bytes (the disk, the
# other, is timed in each round: it varies from minute to minute on a shared machine).
started="$(now)"
SHA256="$(timeout "$TRANSFER_TIMEOUT_S" "${SHA_CMD[@]}" "$PAYLOAD" | cut -c1-64)"
SHA_S="$(elapsed "$started")"
SHA_LOAD="$(load1)"
say "SHA-256 (${SHA_CMD[0]}): ${SHA_S}s"

SERVER_PORT_FILE="$WORK/loopback.port"
python3 "$WORK/loopback.py" "$PAYLOAD" "$SERVER_PORT_FILE" >"$OUT/loopback.log" 2>&1 &
SERVER_PID=$!
bench_helper "$SERVER_PID"
deadline=$(($(date +%s) + START_TIMEOUT_S))
while [[ ! -s "$SERVER_PORT_FILE" ]] && (($(date +%s) < deadline)); do
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$OUT/loopback.log" >&2; die "the baseline server exited at start"; }
  sleep 0.05
done
[[ -s "$SERVER_PORT_FILE" ]] || die "the baseline server did not start within ${START_TIMEOUT_S}s"
BASELINE_URL="http://127.0.0.1:$(cat "$SERVER_PORT_FILE")/payload.bin"
say "baseline server pid $SERVER_PID at $BASELINE_URL"

# ---- helpers --------------------------------------------------------------------------------
# Before a transfer: the RSS the peak is measured from. The kernel resets VmHWM to the current
# RSS on "5" written to clear_refs (Linux 4.0+); where that is refused, the growth is over the
# VmHWM before, which can hide growth below an earlier peak (the table says which).
HWM_RESET=0
{ echo 5 >"/proc/$DAEMON_PID/clear_refs"; } 2>/dev/null && HWM_RESET=1
rss_base_kb() {
  if ((HWM_RESET)) && { echo 5 >"/proc/$DAEMON_PID/clear_refs"; } 2>/dev/null; then
    daemon_status_kb VmRSS
  else
    daemon_status_kb VmHWM
  fi
}
growth_mib() { awk -v a="$(daemon_status_kb VmHWM)" -v b="$1" 'BEGIN { printf "%.1f", (a - b) / 1024 }'; }

# json_get <path...>: a value of the JSON on stdin ("" when missing); "headers" prints the
# object as curl -H arguments, one a line.
json_get() {
  python3 -c '
import json, sys
try:
    value = json.load(sys.stdin)
    for key in sys.argv[1:]:
        value = value[key]
except Exception:
    value = ""
if isinstance(value, dict):
    print("\n".join("%s: %s" % item for item in value.items()))
else:
    print(value if not isinstance(value, bool) else str(value).lower())' "$@"
}
TOKEN=""
api() {  # api <json>: the daemon's answer, signed in as u0
  curl -sS --max-time "$API_TIMEOUT_S" -H "X-API-KEY: $BENCH_API_KEY" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "$1" "$API"
}

# put <url> <answer file> [curl -H headers...]: sets PUT_LINE to "<seconds> <bytes/s> <status>"
put() {
  local url="$1" answer="$2"; shift 2
  local headers=() h
  for h in "$@"; do [[ -n "$h" ]] && headers+=(-H "$h"); done
  PUT_LINE="$(timeout -k 5 "$TRANSFER_TIMEOUT_S" curl -sS --max-time "$TRANSFER_TIMEOUT_S" \
    -T "$PAYLOAD" "${headers[@]}" -o "$answer" -w '%{time_total} %{speed_upload} %{http_code}' "$url")" ||
    PUT_LINE="- - failed"
}
# get <url>: sets GET_LINE to "<seconds> <bytes/s> <status> <bytes>"
get() {
  GET_LINE="$(timeout -k 5 "$TRANSFER_TIMEOUT_S" curl -sS --max-time "$TRANSFER_TIMEOUT_S" \
    -o /dev/null -w '%{time_total} %{speed_download} %{http_code} %{size_download}' "$1")" ||
    GET_LINE="- - failed 0"
}
word() { echo "$2" | awk -v n="$1" '{ print $n }'; }

# ---- the user and the scenarios' set-up -----------------------------------------------------
for s in file_presign file_get; do run_setup_hook "$s.setup.sh"; done
TOKEN="$(cat "$BENCH_STATE_DIR/token-u0")"

# ---- transfers ------------------------------------------------------------------------------
TSV="$OUT/transfers.tsv"
printf 'round\tdirection\tpath\tseconds\tbytes_per_s\tstatus\tdaemon_cpu_s\trss_growth_mib\tload1\n' >"$TSV"
record() {  # record <round> <direction> <path> <seconds> <bytes/s> <status> <cpu s> <growth> <load>
  local IFS=$'\t'
  echo "$*" >>"$TSV"
}
FAILURES=()
for round in $(seq "$ROUNDS"); do
  # Upload, the baseline first.
  load="$(load1)"
  put "$BASELINE_URL" "$OUT/baseline-put.json" "Content-Type: application/octet-stream"
  received="$(json_get received <"$OUT/baseline-put.json" 2>/dev/null || true)"
  [[ "$(word 3 "$PUT_LINE")" == 200 && "$received" == "$SIZE" ]] ||
    FAILURES+=("round $round: the baseline upload answered $(word 3 "$PUT_LINE") (received ${received:-?})")
  record "$round" upload baseline $PUT_LINE - - "$load"

  # The disk alone: the same bytes written to a new file beside the store and fsynced.
  load="$(load1)"
  started="$(now)"
  timeout "$TRANSFER_TIMEOUT_S" dd if="$PAYLOAD" of="$WORK/dd.bin" bs=256K conv=fsync status=none ||
    die "dd of the file failed"
  dd_s="$(elapsed "$started")"
  rm -f "$WORK/dd.bin"
  record "$round" upload disk "$dd_s" "$(awk -v s="$SIZE" -v t="$dd_s" 'BEGIN { printf "%.0f", s / t }')" - - - "$load"

  ticket="$(api '{"op":"file.presign_upload","name":"bench-files.bin","content_type":"application/octet-stream","size":'"$SIZE"',"sha256":"'"$SHA256"'"}')"
  key="$(json_get data _key <<<"$ticket")"
  upload_url="$(json_get data upload_url <<<"$ticket")"
  [[ -n "$key" && -n "$upload_url" ]] || die "file.presign_upload failed: $ticket"
  mapfile -t ticket_headers < <(json_get data headers <<<"$ticket")
  load="$(load1)"
  base="$(rss_base_kb)"
  cpu="$(daemon_cpu_ticks)"
  put "$upload_url" "$OUT/daemon-put.json" "${ticket_headers[@]}"
  cpu_s="$(cpu_seconds_since "$cpu")"
  growth="$(growth_mib "$base")"
  stored_sha="$(json_get data sha256 <"$OUT/daemon-put.json" 2>/dev/null || true)"
  [[ "$(word 3 "$PUT_LINE")" == 200 && "$stored_sha" == "$SHA256" ]] ||
    FAILURES+=("round $round: the upload answered $(word 3 "$PUT_LINE"): $(head -c 300 "$OUT/daemon-put.json" 2>/dev/null)")
  record "$round" upload daemon $PUT_LINE "$cpu_s" "$growth" "$load"

  started="$(now)"
  ready="$(api '{"op":"file.finalize_upload","_key":"'"$key"'"}')"
  echo "$round $(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", (b - a) * 1000 }')" >>"$OUT/finalize-ms.txt"
  [[ "$(json_get data state <<<"$ready")" == ready ]] || die "file.finalize_upload failed: $ready"
  download_url="$(json_get data download_url <<<"$(api '{"op":"file.get","_key":"'"$key"'"}')")"
  [[ -n "$download_url" ]] || die "file.get answered no download_url"

  # Download, the baseline first.
  load="$(load1)"
  get "$BASELINE_URL"
  [[ "$(word 3 "$GET_LINE")" == 200 && "$(word 4 "$GET_LINE")" == "$SIZE" ]] ||
    FAILURES+=("round $round: the baseline download answered $GET_LINE")
  record "$round" download baseline $(word 1 "$GET_LINE") $(word 2 "$GET_LINE") $(word 3 "$GET_LINE") - - "$load"

  load="$(load1)"
  base="$(rss_base_kb)"
  cpu="$(daemon_cpu_ticks)"
  get "$download_url"
  cpu_s="$(cpu_seconds_since "$cpu")"
  growth="$(growth_mib "$base")"
  [[ "$(word 3 "$GET_LINE")" == 200 && "$(word 4 "$GET_LINE")" == "$SIZE" ]] ||
    FAILURES+=("round $round: the download answered $GET_LINE")
  record "$round" download daemon $(word 1 "$GET_LINE") $(word 2 "$GET_LINE") $(word 3 "$GET_LINE") "$cpu_s" "$growth" "$load"

  # The bytes that come back, untimed.
  got_sha="$(timeout -k 5 "$TRANSFER_TIMEOUT_S" curl -sS --max-time "$TRANSFER_TIMEOUT_S" "$download_url" |
    "${SHA_CMD[@]}" | cut -c1-64)" || got_sha="failed"
  echo "$round $got_sha" >>"$OUT/download-sha256.txt"
  [[ "$got_sha" == "$SHA256" ]] || FAILURES+=("round $round: the downloaded bytes' SHA-256 is $got_sha, not $SHA256")

  deleted="$(api '{"op":"file.delete","_key":"'"$key"'"}')"
  [[ "$(json_get data deleted <<<"$deleted")" == true ]] || say "file.delete failed: $deleted"
  say "round $round: $(awk -F'\t' -v r="$round" '$1 == r && $5 != "-" { printf "%s %s %.0f MB/s; ", $2, $3, $5 / 1e6 }' "$TSV")"
done

# ---- presign and get with wrk ---------------------------------------------------------------
CEIL_LOAD="$(load1)"
measure healthz "$CONNECTIONS" "healthz-c$CONNECTIONS"
CEIL="$(field rps "$RESULT")"
CEIL_RESULT="$RESULT"
[[ -n "$CEIL" ]] || die "the /healthz ceiling failed (see $OUT/healthz-c$CONNECTIONS.log)"
PRESIGN_LOAD="$(load1)"
measure file_presign "$CONNECTIONS" "file_presign-c$CONNECTIONS"
PRESIGN="$RESULT"
GET_LOAD="$(load1)"
measure file_get "$CONNECTIONS" "file_get-c$CONNECTIONS"
GETOP="$RESULT"

# ---- the table ------------------------------------------------------------------------------
# median <direction> <path> <column>: over the rounds, from transfers.tsv
median() {
  awk -F'\t' -v d="$1" -v p="$2" -v c="$3" "$BENCH_AWK_MEDIAN"'
    NR > 1 && $2 == d && $3 == p && $c != "-" { n++; v[n] = $c }
    END { if (n == 0) print ""; else print median(v, n) }' "$TSV"
}
# ratio_median <direction> [path]: the median over the rounds of the daemon's speed over the
# baseline's (or the path's) in the same round
ratio_median() {
  awk -F'\t' -v d="$1" -v p="${2:-baseline}" "$BENCH_AWK_MEDIAN"'
    NR > 1 && $2 == d && $5 != "-" { s[$1, $3] = $5; r[$1] = 1 }
    END {
      for (k in r) if (s[k, p] > 0 && s[k, "daemon"] != "") { n++; v[n] = s[k, "daemon"] / s[k, p] }
      if (n == 0) print ""; else printf "%.3f\n", median(v, n)
    }' "$TSV"
}
max_of() {  # max_of <direction> <column>: the largest over the daemon's rounds
  awk -F'\t' -v d="$1" -v c="$2" 'NR > 1 && $2 == d && $3 == "daemon" && $c != "-" { if (n++ == 0 || $c > m) m = $c }
    END { print (n ? m : "") }' "$TSV"
}
mbs() { awk -v v="$1" 'BEGIN { if (v == "") print "-"; else printf "%.0f MB/s", v / 1e6 }'; }
met() {  # met <value> <op> <limit>
  awk -v v="$1" -v o="$2" -v l="$3" 'BEGIN { if (v == "" || v == "-") print "-"; else if ((o == ">=" && v >= l) || (o == "<" && v < l)) print "yes"; else print "NO" }'
}
printf 'figure\tvalue\tbaseline_or_ceiling\tratio\ttarget\tmet\tload1\n' >"$SUMMARY"
row() { local IFS=$'\t'; echo "$*" >>"$SUMMARY"; }

GIB="$(awk -v s="$SIZE" 'BEGIN { printf (s % 1073741824 == 0 ? "%d GiB" : "%.2f GiB"), s / 1073741824 }')"
for d in upload download; do
  value="$(median "$d" daemon 5)"
  seconds="$(awk -v v="$(median "$d" daemon 4)" 'BEGIN { if (v == "") print "?"; else printf "%.2f", v }')"
  base="$(median "$d" baseline 5)"
  ratio="$(ratio_median "$d")"
  cpu="$(median "$d" daemon 7)"
  verb="PUT to the upload URL with curl -T, until the answer (after the fsync)"
  [[ "$d" == download ]] && verb="GET of the download URL with curl, to /dev/null"
  row "$GIB $d: $verb" "$(mbs "$value") (${seconds} s; daemon CPU ${cpu:-?} s)" \
    "$(mbs "$base") loopback copy" "${ratio:--}" ">= $TARGET_RATIO" "$(met "$ratio" ">=" "$TARGET_RATIO")" \
    "$(awk -F'\t' -v d="$d" 'NR > 1 && $2 == d && $3 == "daemon" { print $9; exit }' "$TSV")"
  growth="$(max_of "$d" 8)"
  row "  daemon peak RSS growth during the $d (largest of $ROUNDS)" "${growth:-?} MiB" "-" "-" \
    "< $TARGET_RSS_MIB MiB" "$(met "$growth" "<" "$TARGET_RSS_MIB")" "-"
done
sha_ok="$(awk -v want="$SHA256" '$2 != want { bad++ } END { print (NR > 0 && bad == 0) ? "yes" : "NO" }' "$OUT/download-sha256.txt")"
row "  SHA-256 of the downloaded bytes, $ROUNDS downloads" "$( [[ "$sha_ok" == yes ]] && echo "all equal to the file's" || echo "DIFFERENT (see download-sha256.txt)")" "-" "-" "equal" "$sha_ok" "-"
finalize_ms="$(awk '{ print $2 }' "$OUT/finalize-ms.txt" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')"
row "  file.finalize_upload of the uploaded file, ms with curl's own start (median)" "${finalize_ms:-?}" "-" "-" "-" "-" "-"
row "  context: SHA-256 of the file, ${SHA_CMD[0]} (hashing alone)" "$(mbs "$(awk -v s="$SIZE" -v t="$SHA_S" 'BEGIN { print s / t }')") (${SHA_S} s)" "-" "-" "-" "-" "$SHA_LOAD"
row "  the upload against this disk alone: dd of the file, conv=fsync, in each round" "$(mbs "$(median upload daemon 5)")" \
  "$(mbs "$(median upload disk 5)") dd" "$(ratio_median upload disk)" "-" "-" \
  "$(awk -F'\t' 'NR > 1 && $2 == "upload" && $3 == "disk" { print $9; exit }' "$TSV")"
wrk_row() {  # wrk_row <label> <RESULT> <load>
  local r="$2" ratio
  if [[ -z "$r" ]]; then row "$1" "FAILED" "$CEIL/s /healthz" "-" ">= $TARGET_RATIO" "NO" "$3"; return; fi
  ratio="$(awk -v a="$(field rps "$r")" -v b="$CEIL" 'BEGIN { printf "%.3f", a / b }')"
  row "$1" "$(awk -v v="$(field rps "$r")" 'BEGIN { printf "%.0f/s", v }'); p50 $(field p50_ms "$r") / p99 $(field p99_ms "$r") ms; $(field errors "$r") errors; $(field cpu_us "$r") us CPU/op" \
    "$(awk -v v="$CEIL" 'BEGIN { printf "%.0f/s", v }') /healthz" "$ratio" ">= $TARGET_RATIO" "$(met "$ratio" ">=" "$TARGET_RATIO")" "$3"
}
wrk_row "file.presign_upload, $CONNECTIONS connections" "$PRESIGN" "$PRESIGN_LOAD"
wrk_row "file.get, $CONNECTIONS connections" "$GETOP" "$GET_LOAD"
row "  /healthz, $CONNECTIONS connections (the ceiling)" "$(awk -v v="$CEIL" 'BEGIN { printf "%.0f/s", v }'); p50 $(field p50_ms "$CEIL_RESULT") / p99 $(field p99_ms "$CEIL_RESULT") ms; $(field cpu_us "$CEIL_RESULT") us CPU/op" "-" "-" "-" "-" "$CEIL_LOAD"

echo
echo "files: $GIB through the local backend, $ROUNDS rounds (medians); $(date '+%Y-%m-%d %H:%M'); $CORES cores; store on $FS_TYPE"
echo "load average at the start $LOAD_AT_START, at the end $(load_average)"
awk -F'\t' '
  NR == 1 { printf "%-86s %-58s %-24s %6s %-12s %-4s %5s\n", "figure", "value", "baseline / ceiling", "ratio", "target", "met", "load"; next }
  { printf "%-86s %-58s %-24s %6s %-12s %-4s %5s\n", $1, $2, $3, $4, $5, $6, $7 }' "$SUMMARY"
echo "(ratio: the daemon's bytes/s over the loopback copy's in the same round, then the median of the rounds;"
echo " against dd, the upload's bytes/s over dd's in the same round; for presign and get, ops/s over /healthz"
echo " ops/s just before. RSS growth: VmHWM after the transfer minus"
echo " $( ((HWM_RESET)) && echo "VmRSS before it (VmHWM reset through clear_refs)" || echo "VmHWM before it (clear_refs refused: growth under an earlier peak is not seen)"). load: 1-minute load average when the measurement began.)"
if [[ -s "$OUT/daemon.err" ]] && grep -qv 'mail.transport=log' "$OUT/daemon.err"; then
  say "the daemon wrote to stderr (see $OUT/daemon.err):"
  grep -v 'mail.transport=log' "$OUT/daemon.err" | tail -n 5 >&2
fi
for f in "${FAILURES[@]}"; do say "FAILED: $f"; done
say "the whole run took $(elapsed "$BENCH_STARTED") s; results in $OUT"
((${#FAILURES[@]} == 0)) || exit 1
