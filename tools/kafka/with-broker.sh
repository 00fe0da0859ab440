#!/usr/bin/env bash
# Run a command with a Kafka broker: the one KAFKA_BROKERS names, else a single-node broker
# started here by broker.sh (and stopped afterwards if this script started it). The command's
# exit code is returned; a broker that cannot start fails the run (exit 1), it is never skipped.
#
#   tools/kafka/with-broker.sh node --test "test/kafka/**/*.kafka.ts"
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"

if [ -n "${KAFKA_BROKERS:-}" ]; then
  exec "$@"
fi

# Where a Docker engine answers (and LABLD_KAFKA_RUNNER is not `jars`), testcontainers runs
# the broker in a container; otherwise (CI, these machines) broker.sh runs it from jars.
runner="${LABLD_KAFKA_RUNNER:-auto}"
if [ "$runner" = container ] || { [ "$runner" = auto ] && docker info >/dev/null 2>&1; }; then
  fifo="$(mktemp -u)"; mkfifo "$fifo"
  # The container lives as long as the fifo's writer (fd 3 here) stays open.
  node "$HERE/container.ts" <"$fifo" >"$fifo.out" &
  holder=$!
  exec 3>"$fifo"
  for _ in $(seq 1 300); do grep -q '^KAFKA_BROKERS=' "$fifo.out" 2>/dev/null && break
    kill -0 "$holder" 2>/dev/null || { echo "the Kafka container did not start"; exit 1; }; sleep 1; done
  brokers="$(sed -n 's/^KAFKA_BROKERS=//p' "$fifo.out")"
  [ -n "$brokers" ] || { echo "the Kafka container did not start in 300 s"; kill "$holder"; exit 1; }
  export KAFKA_BROKERS="$brokers"
  "$@"
  code=$?
  exec 3>&-
  wait "$holder"
  rm -f "$fifo" "$fifo.out"
  exit "$code"
fi

started=0
if ! "$HERE/broker.sh" status >/dev/null 2>&1; then
  "$HERE/broker.sh" start || exit 1
  started=1
fi
export KAFKA_BROKERS="127.0.0.1:${KAFKA_PORT:-19092}"
"$@"
code=$?
[ "$started" = 1 ] && "$HERE/broker.sh" stop
exit "$code"
