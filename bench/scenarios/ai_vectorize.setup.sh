# The user ai_vectorize is signed in as.
exec python3 "$(dirname "$0")/lib/bench_api.py" user u0
