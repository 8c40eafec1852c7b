# The nginx ceiling (scenario nginx): nginx (bench/lib/nginx.sh) serving the body /healthz
# serves, from memory.
# Its URL in $BENCH_STATE_DIR/nginx_url (the scenario's url-state), its pid in
# $BENCH_STATE_DIR/nginx.pid (bench/run.sh stops it at the end).
set -e
source "$(dirname "$0")/../lib/nginx.sh"
lines='  server {
    LISTEN;
    location = /healthz { default_type application/json; return 200 '"'"'{"status":"ok"}'"'"'; }
  }'
if nginx_start "$BENCH_STATE_DIR/nginx" "$lines"; then
  echo "$NGINX_PID" >"$BENCH_STATE_DIR/nginx.pid"
  echo "$NGINX_URL" >"$BENCH_STATE_DIR/nginx_url"
  exit 0
fi
echo "$NGINX_PID" >"$BENCH_STATE_DIR/nginx.pid"
echo "nginx did not answer" >&2
exit 1
