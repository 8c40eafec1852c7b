# shellcheck shell=bash
# bench/lib/nginx.sh: Debian's nginx for the benchmarks, sourced by bench/lib/bench.sh and by
# set-up hooks. It is unpacked once into the bench's cache rather than installed (an installed
# nginx starts a service on port 80), and each start runs it from a configuration of ours in a
# folder of the run: a worker per core, no access log.

# nginx_binary: the unpacked nginx's path (unpacking it the first time).
nginx_binary() {
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/opbase-bench/nginx"
  if [[ ! -x "$cache/usr/sbin/nginx" ]]; then
    mkdir -p "$cache"
    (cd "$cache" && apt-get download nginx >/dev/null && dpkg -x nginx_*.deb . && rm -f nginx_*.deb)
  fi
  echo "$cache/usr/sbin/nginx"
}

# nginx_start <folder> <http block lines>: starts nginx on a free port of 127.0.0.1 with those
# lines in its http block, where "LISTEN" stands for the port's listen directive, and waits
# until it answers GET /healthz. Sets NGINX_URL and NGINX_PID (the caller stops it); answers 1
# when it does not answer within 5 s.
nginx_start() {
  local dir="$1" lines="$2" port
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
${lines//LISTEN/listen 127.0.0.1:$port}
}
CONF
  setsid "$(nginx_binary)" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' \
    >"$dir/logs/stdout.log" 2>&1 </dev/null &
  NGINX_PID=$!
  NGINX_URL="http://127.0.0.1:$port"
  for _ in $(seq 50); do
    curl -fsS "$NGINX_URL/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$dir/logs/error.log" "$dir/logs/stdout.log" >&2 || true
  return 1
}

# nginx_balancer_lines <url...>: the http block of a load balancer in front of those daemons:
# round robin, with kept-alive connections to each.
nginx_balancer_lines() {
  local url servers=""
  for url in "$@"; do servers+="    server ${url#http://};"$'\n'; done
  cat <<LINES
  upstream daemons {
$servers    keepalive 64;
  }
  server {
    LISTEN;
    client_max_body_size 0;
    location / {
      proxy_pass http://daemons;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
LINES
}
