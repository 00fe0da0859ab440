#!/usr/bin/env bash
# A throw-away PostgreSQL server on 127.0.0.1 for the store contract suites and CI, from Debian's
# `postgresql` package (installed by .ci/run with apt-get). The cluster lives in
# $LABLD_TOOLS_DIR/postgres (default .tools/ of the repo; /tmp/labld-postgres-$PG_PORT as root) and
# belongs to the `postgres` user, because the server refuses to run as root. Starting a running
# server is a no-op.
#
#   tools/postgres/server.sh start   initdb (once), start, create database `labld`; prints the URL
#   tools/postgres/server.sh stop
#   tools/postgres/server.sh url     postgres://labld@127.0.0.1:$PG_PORT/labld
#
# PG_PORT (default 15432). Trust authentication on loopback only: a test server, never a deployment.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TOOLS="${LABLD_TOOLS_DIR:-$ROOT/.tools}"
PORT="${PG_PORT:-15432}"
# As root the cluster goes under /tmp: the `postgres` user may not be able to enter the checkout
# (a clone under /root, say).
if [ "$(id -u)" = 0 ]; then STATE="${PG_STATE_DIR:-/tmp/labld-postgres-$PORT}"; else STATE="$TOOLS/postgres"; fi
DATA="$STATE/data"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
URL="postgres://labld@127.0.0.1:$PORT/labld"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    [ -x "$BIN/postgres" ] || { echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2; exit 1; }
    mkdir -p "$STATE"
    if [ "$(id -u)" = 0 ]; then chown postgres "$STATE"; fi
    if [ ! -s "$DATA/PG_VERSION" ]; then
      as_postgres "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_postgres "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1 ||
      as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$STATE/server.log" -w -t 60 \
      -o "-h 127.0.0.1 -p $PORT -k /tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
    as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qtAc \
      "SELECT 1 FROM pg_roles WHERE rolname='labld'" | grep -q 1 ||
      as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE ROLE labld LOGIN SUPERUSER"
    as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qtAc \
      "SELECT 1 FROM pg_database WHERE datname='labld'" | grep -q 1 ||
      as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE labld OWNER labld"
    echo "$URL"
    ;;
  stop)
    [ -s "$DATA/PG_VERSION" ] && as_postgres "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  url) echo "$URL" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
