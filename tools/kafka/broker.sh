#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft: broker and controller in one JVM) on 127.0.0.1,
# from Maven Central jars, for the Kafka tests and CI. Needs only Java 17+ and Maven.
#
#   tools/kafka/broker.sh fetch    download the jars (once) into .tools/kafka/<version>/libs
#   tools/kafka/broker.sh start    fetch, format fresh storage, start, wait until it serves
#   tools/kafka/broker.sh wait     wait until the broker serves (exit 1 after the timeout)
#   tools/kafka/broker.sh stop     SIGTERM (controlled shutdown), SIGKILL after 30 s
#   tools/kafka/broker.sh status   print the pid and the address, exit 1 if not running
#
# Environment (all optional):
#   KAFKA_VERSION        Kafka version (default: the one in tools/kafka/pom.xml; if it cannot be
#                        fetched, 3.9.2 is tried)
#   KAFKA_PORT           client port (default 19092); KAFKA_CONTROLLER_PORT (default 19093)
#   KAFKA_HEAP_OPTS      JVM heap (default -Xms128m -Xmx512m)
#   KAFKA_WAIT_SECONDS   how long start/wait wait (default 90)
#   KAFKA_KEEP_DATA=1    keep topics and offsets across restarts (default: fresh storage)
#   LABLD_TOOLS_DIR      where jars and the broker's state live (default .tools/ of the repo)
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TOOLS="${LABLD_TOOLS_DIR:-$ROOT/.tools}/kafka"
PORT="${KAFKA_PORT:-19092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
RUN="$TOOLS/run-$PORT"
PIDFILE="$RUN/broker.pid"
LOG="$RUN/broker.log"
FALLBACK_VERSION=3.9.2
WAIT_SECONDS="${KAFKA_WAIT_SECONDS:-90}"

say() { echo "kafka-broker: $*" >&2; }

pom_version() {
  sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$HERE/pom.xml" | head -1
}

# Copy kafka_2.13 and its runtime dependencies into $TOOLS/<version>/libs (skipped when present).
fetch_version() {
  local version="$1" libs="$TOOLS/$1/libs"
  if [ -f "$libs/kafka_2.13-$version.jar" ]; then return 0; fi
  say "fetching Kafka $version from Maven Central into $libs"
  mkdir -p "$TOOLS/$version"
  rm -rf "$libs.partial"
  if mvn -q -B -Dstyle.color=never -f "$HERE/pom.xml" -Dkafka.version="$version" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$libs.partial" >&2; then
    rm -rf "$libs" && mv "$libs.partial" "$libs"
  else
    rm -rf "$libs.partial"
    return 1
  fi
}

# Prints the version whose jars are in place.
fetch() {
  local wanted="${KAFKA_VERSION:-$(pom_version)}"
  if fetch_version "$wanted"; then echo "$wanted"; return 0; fi
  if [ -z "${KAFKA_VERSION:-}" ] && [ "$wanted" != "$FALLBACK_VERSION" ]; then
    say "Kafka $wanted could not be fetched; falling back to $FALLBACK_VERSION"
    fetch_version "$FALLBACK_VERSION" && echo "$FALLBACK_VERSION" && return 0
  fi
  say "could not fetch the Kafka jars (is Maven Central reachable?)"
  return 1
}

running_pid() {
  [ -f "$PIDFILE" ] || return 1
  local pid
  pid="$(cat "$PIDFILE")"
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_config() {
  # A static one-voter quorum works on 3.9 and 4.x alike. Replication factors are 1 because
  # there is one broker (the group coordinator is unavailable otherwise). Topics are never
  # auto-created: labld creates them from topics.yaml, so a typo fails instead of creating one.
  cat >"$RUN/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$RUN/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=1000
EOF
  cat >"$RUN/log4j2.properties" <<EOF
status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = $LOG
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = ${KAFKA_LOG_LEVEL:-INFO}
rootLogger.appenderRef.file.ref = file
logger.state.name = state.change.logger
logger.state.level = WARN
EOF
}

wait_ready() {
  local deadline=$((SECONDS + WAIT_SECONDS))
  # Ready = the client port accepts connections and the broker logged that it started (the
  # port opens a moment before the broker has registered with the controller).
  until port_open "$PORT" && grep -q 'Kafka Server started' "$LOG" 2>/dev/null; do
    if ! running_pid >/dev/null; then
      say "the broker exited during start-up; last lines of $LOG:"
      tail -n 30 "$LOG" >&2 2>/dev/null || true
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "not ready after ${WAIT_SECONDS}s; last lines of $LOG:"
      tail -n 30 "$LOG" >&2 2>/dev/null || true
      return 1
    fi
    sleep 0.2
  done
}

start() {
  if pid="$(running_pid)"; then
    say "already running (pid $pid) on 127.0.0.1:$PORT"
    wait_ready
    return
  fi
  if port_open "$PORT" || port_open "$CONTROLLER_PORT"; then
    say "port $PORT or $CONTROLLER_PORT is taken by another process; set KAFKA_PORT/KAFKA_CONTROLLER_PORT"
    return 1
  fi
  local version
  version="$(fetch)"
  local cp="$TOOLS/$version/libs/*"
  mkdir -p "$RUN"
  [ "${KAFKA_KEEP_DATA:-0}" = 1 ] || rm -rf "$RUN/data"
  write_config
  : >"$LOG"
  local t0=$SECONDS
  local jvm_log=(-Dlog4j2.configurationFile="$RUN/log4j2.properties" -Dkafka.logs.dir="$RUN")
  if [ ! -f "$RUN/data/meta.properties" ]; then
    # A cluster id is 16 random bytes in url-safe base64 (what `StorageTool random-uuid` prints,
    # without starting a second JVM). Like Kafka's own Uuid.randomUuid, never one that starts
    # with '-': the format command would take it for an option (1 start in 64 failed so).
    local cluster_id="-"
    while [ "${cluster_id:0:1}" = "-" ]; do
      cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    done
    java -cp "$cp" "${jvm_log[@]}" kafka.tools.StorageTool format -t "$cluster_id" \
      -c "$RUN/server.properties" >>"$LOG" 2>&1
  fi
  # shellcheck disable=SC2086
  nohup java ${KAFKA_HEAP_OPTS:--Xms128m -Xmx512m} -XX:+UseG1GC -Djava.awt.headless=true \
    "${jvm_log[@]}" -cp "$cp" kafka.Kafka "$RUN/server.properties" >>"$LOG.out" 2>&1 &
  echo $! >"$PIDFILE"
  if ! wait_ready; then
    stop
    return 1
  fi
  say "Kafka $version ready on 127.0.0.1:$PORT (pid $(cat "$PIDFILE"), $((SECONDS - t0))s)"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    say "not running"
    rm -f "$PIDFILE"
    return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 1 150); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "no exit after 30s; SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PIDFILE"
  say "stopped (pid $pid)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    echo "running pid $pid on 127.0.0.1:$PORT"
  else
    echo "not running"
    return 1
  fi
}

case "${1:-}" in
  fetch) fetch >/dev/null ;;
  start) start ;;
  wait) wait_ready ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "usage: $0 fetch|start|wait|stop|status" >&2
    exit 2
    ;;
esac
