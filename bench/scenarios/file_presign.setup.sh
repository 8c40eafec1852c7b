# The user file_presign is signed in as.
exec python3 "$(dirname "$0")/lib/bench_api.py" user u0
