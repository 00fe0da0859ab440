#!/usr/bin/env bash
# A throw-away Redis server on 127.0.0.1 for the shared-store suites and CI, from Debian's
# `redis-server` package (installed by .ci/run with apt-get). In memory only (no RDB, no AOF):
# a test server, never a deployment. Starting a running server is a no-op.
#
#   tools/redis/server.sh start   start, wait until it answers PING; prints the URL
#   tools/redis/server.sh stop
#   tools/redis/server.sh url     redis://127.0.0.1:$REDIS_PORT
#
# REDIS_PORT (default 16379). State (pid file, log) in /tmp/labld-redis-$REDIS_PORT.
set -euo pipefail
PORT="${REDIS_PORT:-16379}"
STATE="${REDIS_STATE_DIR:-/tmp/labld-redis-$PORT}"
URL="redis://127.0.0.1:$PORT"

ping() { redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; }

case "${1:-}" in
  start)
    command -v redis-server >/dev/null || { echo "Redis is not installed (apt-get install -y redis-server)" >&2; exit 1; }
    mkdir -p "$STATE"
    if ! ping; then
      redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --save '' --appendonly no \
        --dir "$STATE" --pidfile "$STATE/redis.pid" --logfile "$STATE/server.log" >/dev/null
      for _ in $(seq 1 50); do ping && break; sleep 0.1; done
      ping || { echo "Redis did not answer on port $PORT (see $STATE/server.log)" >&2; exit 1; }
    fi
    echo "$URL"
    ;;
  stop)
    if ping; then redis-cli -h 127.0.0.1 -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; fi
    ;;
  url) echo "$URL" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
