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
