#!/usr/bin/env bash
# A Zipkin server (in-memory storage) for development and CI: the traces the services export with
# OTEL_TRACES_EXPORTER=zipkin land here, and its API (/api/v2/trace/<id>) shows them.
#
#   scripts/zipkin.sh start    fetch the server if needed, start it on 127.0.0.1:9411, wait until /health answers UP
#   scripts/zipkin.sh stop     SIGTERM, wait; SIGKILL only after ZIPKIN_STOP_TIMEOUT
#   scripts/zipkin.sh status   exit 0 when the server runs and answers
#   scripts/zipkin.sh url      the collector endpoint the services send to (OTEL_EXPORTER_ZIPKIN_ENDPOINT)
#
# Maven Central carries the server as one executable jar (io.zipkin:zipkin-server:<version>:jar:exec), which
# Maven fetches into ~/.m2 once. Needs a JDK 17+ (the one the Kafka leg uses) and Maven. Spans live in memory
# only: a restart starts empty.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VERSION="${ZIPKIN_VERSION:-3.5.1}"
HOME_DIR="${ZIPKIN_HOME_DIR:-$ROOT/.zipkin}"
PORT="${ZIPKIN_PORT:-9411}"
JAR="${MAVEN_REPOSITORY:-$HOME/.m2/repository}/io/zipkin/zipkin-server/$VERSION/zipkin-server-$VERSION-exec.jar"
PIDFILE="$HOME_DIR/zipkin.pid"
LOG="$HOME_DIR/zipkin.log"
START_TIMEOUT="${ZIPKIN_START_TIMEOUT:-90}"
STOP_TIMEOUT="${ZIPKIN_STOP_TIMEOUT:-20}"
BASE="http://127.0.0.1:$PORT"

say() { printf 'zipkin.sh: %s\n' "$*" >&2; }
NAME=Zipkin
# shellcheck source=lib/daemon.sh
. "$ROOT/scripts/lib/daemon.sh"

healthy() { curl -fsS -m 2 "$BASE/health" 2>/dev/null | grep -q '"UP"'; }

fetch() {
  [ -f "$JAR" ] && return 0
  command -v mvn >/dev/null || { say "Maven (mvn) is needed to fetch Zipkin from Maven Central"; exit 1; }
  say "fetching zipkin-server $VERSION from Maven Central (cached in ~/.m2)"
  mvn -q -B -Dstyle.color=never dependency:get -Dartifact="io.zipkin:zipkin-server:$VERSION:jar:exec" -Dtransitive=false 2>&1 | plain >&2
}

start() {
  if running_pid >/dev/null; then say "already running (pid $(running_pid))"; return 0; fi
  if port_open "$PORT"; then say "port $PORT is taken by another process"; exit 1; fi
  command -v java >/dev/null || { say "a JDK (java 17+) is needed to run Zipkin"; exit 1; }
  mkdir -p "$HOME_DIR"
  fetch
  say "starting Zipkin $VERSION on $BASE (log: $LOG)"
  # in-memory storage bounded in spans, the oldest traces dropped first; a span with its tags and SQL takes a few KB
  # there, so the cap keeps them well inside the heap (100,000 spans filled 384 MB after the cluster's storm, and
  # Zipkin then refused spans and queries); the collector and API on the loopback interface only
  STORAGE_TYPE=mem MEM_MAX_SPANS="${ZIPKIN_MAX_SPANS:-30000}" QUERY_PORT="$PORT" \
    nohup java -Xms64m -Xmx768m -jar "$JAR" --armeria.ports[0].port="$PORT" --armeria.ports[0].ip=127.0.0.1 \
    --armeria.ports[0].protocols=http >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  local pid=$!
  await_ready "$pid" healthy
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) running_pid >/dev/null && healthy ;;
  url) echo "$BASE/api/v2/spans" ;;
  fetch) fetch ;;
  *) echo "usage: $0 start|stop|status|url|fetch" >&2; exit 2 ;;
esac
