#!/usr/bin/env bash
# A throw-away Apache Jena Fuseki on 127.0.0.1 for the triple store contract suite and CI: the
# `jena-fuseki-server` jar from Maven Central (cached in $LABLD_TOOLS_DIR/fuseki, default .tools/
# of the repo, checked against Maven Central's SHA-1), run on Java 17 with one in-memory
# dataset `/labld` that has query, update and Graph Store Protocol services. Starting a running
# server is a no-op.
#
#   tools/fuseki/server.sh start   download (once), start, wait for /$/ping; prints the dataset URL
#   tools/fuseki/server.sh stop
#   tools/fuseki/server.sh url     http://127.0.0.1:$FUSEKI_PORT/labld
#
# FUSEKI_PORT (default 13030), FUSEKI_VERSION (default 5.6.0, the last line that runs on Java 17),
# FUSEKI_HEAP (default 3g: a 1M-triple graph and its staging copy held in memory at once).
# No authentication on loopback only: a test server, never a deployment.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TOOLS="${LABLD_TOOLS_DIR:-$ROOT/.tools}/fuseki"
PORT="${FUSEKI_PORT:-13030}"
VERSION="${FUSEKI_VERSION:-5.6.0}"
HEAP="${FUSEKI_HEAP:-3g}"
JAR="$TOOLS/jena-fuseki-server-$VERSION.jar"
PIDFILE="$TOOLS/server-$PORT.pid"
URL="http://127.0.0.1:$PORT/labld"
MAVEN="https://repo1.maven.org/maven2/org/apache/jena/jena-fuseki-server/$VERSION/jena-fuseki-server-$VERSION.jar"

running() { [ -s "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

case "${1:-}" in
  start)
    command -v java >/dev/null || { echo "java is not installed (Java 17 or later)" >&2; exit 1; }
    mkdir -p "$TOOLS"
    if [ ! -s "$JAR" ]; then
      curl -fsSL --retry 3 -o "$JAR.part" "$MAVEN"
      sum="$(curl -fsSL --retry 3 "$MAVEN.sha1" | cut -c1-40)"
      echo "$sum  $JAR.part" | sha1sum -c --quiet - || { rm -f "$JAR.part"; echo "checksum mismatch for $MAVEN" >&2; exit 1; }
      mv "$JAR.part" "$JAR"
    fi
    if ! running; then
      # --mem: the dataset lives as long as the server; the suites make their own namespaces.
      # Fuseki writes its run area (FUSEKI_BASE) into the working directory: keep it in the cache.
      cd "$TOOLS"
      FUSEKI_BASE="$TOOLS/run-$PORT" nohup java -Xmx"$HEAP" -jar "$JAR" --localhost --port="$PORT" --update \
        --mem /labld >"$TOOLS/server-$PORT.log" 2>&1 &
      echo $! >"$PIDFILE"
    fi
    for _ in $(seq 1 120); do
      if curl -fs "http://127.0.0.1:$PORT/\$/ping" >/dev/null 2>&1; then echo "$URL"; exit 0; fi
      running || break
      sleep 0.5
    done
    echo "Fuseki did not start on port $PORT; its log:" >&2
    tail -20 "$TOOLS/server-$PORT.log" >&2 || true
    exit 1
    ;;
  stop)
    if running; then
      pid="$(cat "$PIDFILE")"
      kill "$pid"
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    fi
    rm -f "$PIDFILE"
    ;;
  url) echo "$URL" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
