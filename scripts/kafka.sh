#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft, combined broker+controller) for development and CI, or a cluster of
# several such nodes on loopback (`--brokers N` or KAFKA_CLUSTER_SIZE=N, N >= 2) to try replication and failover.
#
#   scripts/kafka.sh start    fetch the jars if needed, format storage on first use, start, wait until ready
#   scripts/kafka.sh stop     SIGTERM (controlled shutdown), wait; SIGKILL only after KAFKA_STOP_TIMEOUT
#   scripts/kafka.sh status   exit 0 when the broker runs
#   scripts/kafka.sh reset    stop and delete the broker's data (topics, offsets)
#
# Cluster mode (scripts/kafka-cluster.sh): the same commands with `--brokers N` act on every node; `start` prints
# the bootstrap list (for KAFKA_BROKERS) on stdout; `brokers` prints it again; `kill ID` SIGKILLs the node of that
# node id (a crash, no controlled shutdown) and `restart ID` starts it again on its data.
#
# Only Maven Central carries the broker, so Maven fetches org.apache.kafka:kafka_2.13 with its runtime
# dependencies (cached in ~/.m2, copied once into .kafka/libs-<version>). Needs a JDK 11+ and Maven.
# Data stays in .kafka/data between start and stop, so a restarted broker keeps its topics and offsets.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VERSION="${KAFKA_VERSION:-3.9.1}"
HOME_DIR="${KAFKA_HOME_DIR:-$ROOT/.kafka}"
LIBS="$HOME_DIR/libs-$VERSION"
DATA="$HOME_DIR/data"
PORT="${KAFKA_PORT:-9092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
PIDFILE="$HOME_DIR/kafka.pid"
LOG="$HOME_DIR/kafka.log"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

say() { printf 'kafka.sh: %s\n' "$*" >&2; }
NAME=Kafka
# shellcheck source=lib/daemon.sh
. "$ROOT/scripts/lib/daemon.sh"


fetch() {
  [ -f "$LIBS/.complete" ] && return 0
  command -v mvn >/dev/null || { say "Maven (mvn) is needed to fetch Kafka from Maven Central"; exit 1; }
  command -v java >/dev/null || { say "a JDK (java 11+) is needed to run Kafka"; exit 1; }
  say "fetching Kafka $VERSION jars from Maven Central (cached in ~/.m2)"
  local pom_dir
  pom_dir=$(mktemp -d)
  # log4j 1 backend: 3.9.x needs it at runtime but the Maven artifact does not declare it (KAFKA-18483)
  cat > "$pom_dir/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.backoffice</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
EOF
  rm -rf "$LIBS.tmp"
  mvn -q -B -Dstyle.color=never -f "$pom_dir/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIBS.tmp" 2>&1 | plain >&2
  rm -rf "$pom_dir" "$LIBS"
  mv "$LIBS.tmp" "$LIBS"
  touch "$LIBS/.complete"
}

write_config() {
  cat > "$HOME_DIR/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
num.partitions=1
auto.create.topics.enable=false
log.dirs=$DATA
EOF
  write_log4j "$HOME_DIR/log4j.properties"
}

# warnings only, and the start-up lines the readiness check waits for
write_log4j() {
  cat > "$1" <<'EOF'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaServer=INFO
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.Kafka$=INFO
EOF
}

start() {
  if running_pid >/dev/null; then say "already running (pid $(running_pid))"; return 0; fi
  if port_open "$PORT"; then say "port $PORT is taken by another process"; exit 1; fi
  mkdir -p "$HOME_DIR"
  fetch
  write_config
  local java=(java -Xms256m -Xmx512m -Dlog4j.configuration="file:$HOME_DIR/log4j.properties" -cp "$LIBS/*")
  if [ ! -f "$DATA/meta.properties" ]; then
    rm -rf "$DATA"
    local cluster
    cluster=$("${java[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | plain | tail -1)
    "${java[@]}" kafka.tools.StorageTool format -t "$cluster" -c "$HOME_DIR/server.properties" 2>&1 >/dev/null | plain >&2
  fi
  say "starting Kafka $VERSION on 127.0.0.1:$PORT (log: $LOG)"
  nohup "${java[@]}" kafka.Kafka "$HOME_DIR/server.properties" > "$LOG" 2>&1 &
  echo $! > "$PIDFILE"
  local pid=$!
  await_ready "$pid" broker_started
}

# the broker opens the client port only once it can serve; the log line confirms start-up finished
broker_started() { port_open "$PORT" && grep -q 'started (kafka.server.KafkaRaftServer)\|Kafka Server started' "$LOG"; }

# cluster mode: `--brokers N` after the command, or KAFKA_CLUSTER_SIZE (1: the single broker); kill, restart and
# brokers act on the cluster only
COMMAND="${1:-}"
[ $# -gt 0 ] && shift
CLUSTER_SIZE="${KAFKA_CLUSTER_SIZE:-}"
if [ "${1:-}" = --brokers ]; then CLUSTER_SIZE="${2:-}"; shift 2 || { say "--brokers needs a count"; exit 2; }; fi
if { [ -n "$CLUSTER_SIZE" ] && [ "$CLUSTER_SIZE" != 1 ]; } || [ "$COMMAND" = kill ] || [ "$COMMAND" = restart ] || [ "$COMMAND" = brokers ]; then
  # shellcheck source=kafka-cluster.sh
  . "$ROOT/scripts/kafka-cluster.sh"
  cluster_command "$COMMAND" "$@"
  exit $?
fi

case "$COMMAND" in
  start) start ;;
  stop) stop ;;
  status) running_pid >/dev/null ;;
  reset) stop; rm -rf "$DATA" ;;
  fetch) mkdir -p "$HOME_DIR"; fetch ;;
  *) echo "usage: $0 start|stop|status|reset|fetch [--brokers N] | $0 brokers|kill ID|restart ID" >&2; exit 2 ;;
esac
