# The nginx ceiling (scenario nginx): Debian's nginx, unpacked once into the bench's cache rather
# than installed (an installed nginx starts a service on port 80), serving the body /healthz
# serves from a configuration of ours: a worker per core, no access log, the body from memory.
# Its URL in $BENCH_STATE_DIR/nginx_url (the scenario's url-state), its pid in
# $BENCH_STATE_DIR/nginx.pid (bench/run.sh stops it at the end).
set -e
cache="${XDG_CACHE_HOME:-$HOME/.cache}/opbase-bench/nginx"
if [[ ! -x "$cache/usr/sbin/nginx" ]]; then
  mkdir -p "$cache"
  (cd "$cache" && apt-get download nginx >/dev/null && dpkg -x nginx_*.deb . && rm -f nginx_*.deb)
fi
dir="$BENCH_STATE_DIR/nginx"
mkdir -p "$dir/logs"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cat >"$dir/nginx.conf" <<CONF
worker_processes $(nproc);
error_log $dir/logs/error.log warn;
pid $dir/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy; fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$port;
    location = /healthz { default_type application/json; return 200 '{"status":"ok"}'; }
  }
}
CONF
setsid "$cache/usr/sbin/nginx" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' \
  >"$dir/logs/stdout.log" 2>&1 </dev/null &
echo $! >"$BENCH_STATE_DIR/nginx.pid"
for _ in $(seq 50); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "http://127.0.0.1:$port" >"$BENCH_STATE_DIR/nginx_url"
    exit 0
  fi
  sleep 0.1
done
echo "nginx did not answer on port $port" >&2
cat "$dir/logs/error.log" "$dir/logs/stdout.log" >&2 || true
exit 1
