#!/usr/bin/env bash
# A local cluster without Docker: two replicas of each service (the built dist/) on MariaDB, Kafka, and
# nginx in front with both replicas of each service as upstream servers (docker/nginx's template).
#
#   scripts/cluster.sh start                   build dist/ if stale, migrate, start everything, wait until every
#                                              part answers and the consumer groups hold both replicas
#   scripts/cluster.sh stop                    SIGTERM the replicas and nginx (and Kafka if this script started it)
#   scripts/cluster.sh status                  the gateway URL and the replicas' ports; exit 0 when all run
#   scripts/cluster.sh restart <service> <n>   replica n (1 or 2) of a service as Kubernetes restarts a pod: out
#                                              of the gateway's rotation (nginx reload), SIGTERM, start, ready,
#                                              consumer groups settled, back into the rotation (reload)
# A part that does not come up fails the command with the tail of its log.
#
# Settings (environment): CLUSTER_KAFKA=0 runs without Kafka (in-process bus; default 1: scripts/kafka.sh,
# reusing a broker that already runs), CLUSTER_BASE_PORT (default 18080: gateway, then main-service 1 and
# 2, then device-service 1 and 2), CLUSTER_DB_URL (default mysql://root@127.0.0.1:3306; databases
# `cluster` for main-service and `cluster_device` for device-service, each service having its own),
# ZIPKIN_URL (e.g. http://127.0.0.1:9411, scripts/zipkin.sh: every replica sends its traces there; OTEL_*
# variables set by the caller reach the replicas as they are).
# State (pids, ports, logs, nginx prefix) under .cluster/; .cluster/settings keeps the settings above for
# status, restart and stop; .cluster/env holds the values the cluster tests read (test/cluster).
set -euo pipefail
cd "$(dirname "$0")/.."

STATE=.cluster
# a running cluster keeps the settings it was started with (status, restart and stop read them from its state)
recorded() { { sed -n "s/^$1=//p" "$STATE/settings" 2>/dev/null || true; } | grep . || echo "$2"; }
KAFKA=${CLUSTER_KAFKA:-$(recorded CLUSTER_KAFKA 1)}
BASE=${CLUSTER_BASE_PORT:-$(recorded CLUSTER_BASE_PORT 18080)}
SERVER=${CLUSTER_DB_URL:-$(recorded CLUSTER_DB_URL mysql://root@127.0.0.1:3306)}
ZIPKIN=${ZIPKIN_URL:-$(recorded ZIPKIN_URL "")}
# signs the tokens the cluster accepts (npm run token with JWT_SECRET set to it mints them)
JWT_SECRET_VALUE=cluster-only-jwt-secret-not-for-production
READY_TIMEOUT=60
# the gateway's bound on requests in progress per replica (docker/compose.yaml's default)
UPSTREAM_MAX_CONNS=256

say() { printf 'cluster.sh: %s\n' "$*" >&2; }

gateway_port=$BASE
port_of() { # service replica
  case $1 in
    main-service) echo $((BASE + $2)) ;;
    device-service) echo $((BASE + 2 + $2)) ;;
  esac
}
database_of() { [ "$1" = main-service ] && echo cluster || echo cluster_device; }
prefix_of() { echo "/$1"; }

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
answers() { curl -fsS -m 2 -o /dev/null "$1" 2>/dev/null; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# " by <process>" when ss can tell what listens on a port
holder_of() { ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:((\(.*\)))/ by \1/p' | head -1; }
show_log() { # file...: the end of each, so a failed start says why
  for file in "$@"; do
    [ -f "$file" ] || continue
    printf -- '--- last lines of %s\n' "$file" >&2
    tail -n 40 "$file" >&2
  done
}
wait_until() { # what url [pidfile of the process that must stay alive] [its log]
  for _ in $(seq 1 "$READY_TIMEOUT"); do
    answers "$2" && return 0
    if [ -n "${3:-}" ] && ! running "$3"; then
      show_log "${4:-}"
      say "$1 exited before it answered $2"
      return 1
    fi
    sleep 1
  done
  show_log "${4:-}"
  say "$1 did not answer $2 within $READY_TIMEOUT s"
  return 1
}

# main-service only: it alone has messaging (device-service has no Kafka settings, as in k8s/ and compose)
kafka_env() { [ "$KAFKA" = 1 ] && [ "$1" = main-service ] && echo "KAFKA_BROKERS=127.0.0.1:9092" || true; }

# main-service delivers the cluster suites' e-mails to an SMTP sink on the loopback address
delivery_env() { [ "$1" = main-service ] && echo "DELIVERY_ALLOWED_HOSTS=127.0.0.1" || true; }

# with ZIPKIN_URL: traces to that Zipkin, each replica its own service instance, spans sent every half second
tracing_env() { # service replica
  [ -n "$ZIPKIN" ] || return 0
  echo "OTEL_TRACES_EXPORTER=zipkin OTEL_EXPORTER_ZIPKIN_ENDPOINT=$ZIPKIN/api/v2/spans OTEL_SERVICE_NAME=$1"
  echo "OTEL_RESOURCE_ATTRIBUTES=service.instance.id=$1-$2 OTEL_BSP_SCHEDULE_DELAY=500"
}

start_replica() { # service replica
  local name=$1 n=$2 port
  port=$(port_of "$1" "$2")
  if running "$STATE/$name-$n.pid"; then return 0; fi
  # the gateway (127.0.0.1) is the only trusted proxy, as in compose and Kubernetes
  # shellcheck disable=SC2046
  env PORT="$port" DB_URL="$SERVER/$(database_of "$name")" JWT_SECRET="$JWT_SECRET_VALUE" TRUST_PROXY=127.0.0.1 \
    LOG_LEVEL="${LOG_LEVEL:-log}" $(kafka_env "$name") $(delivery_env "$name") $(tracing_env "$name" "$n") \
    setsid node "dist/apps/$name/src/main.js" >>"$STATE/$name-$n.log" 2>&1 </dev/null &
  echo $! >"$STATE/$name-$n.pid"
}

wait_replica() { wait_until "$1 $2" "http://127.0.0.1:$(port_of "$1" "$2")$(prefix_of "$1")/health/ready" "$STATE/$1-$2.pid" "$STATE/$1-$2.log"; }

# A main-service replica's Kafka consumers join their groups (main-service.<topic>: no topic prefix) in
# the background once it answers, and while a group rebalances (a replica left or joined; members of a
# killed run stay until their session times out) its partitions wait: an import sent then is applied
# only later. So start and restart return once every group of main-service is Stable with both replicas
# as members, among them the import group the cluster suites use.
CONSUMER_GROUPS="main-service.configuration.data-dictionary.import"
wait_consumers() {
  [ "$KAFKA" = 1 ] || return 0
  node -e '
    const { Kafka, logLevel } = require("kafkajs");
    const [seconds, required] = process.argv.slice(1);
    const admin = new Kafka({ clientId: "cluster-sh", brokers: ["127.0.0.1:9092"], logLevel: logLevel.NOTHING }).admin();
    const deadline = Date.now() + Number(seconds) * 1000;
    const ours = (id) => id.startsWith("main-service.");
    (async () => {
      await admin.connect();
      for (;;) {
        const { groups } = await admin.listGroups();
        const ids = [...new Set([...required.split(" "), ...groups.map((g) => g.groupId).filter(ours)])];
        const waiting = (await admin.describeGroups(ids)).groups.filter((g) => g.state !== "Stable" || g.members.length !== 2);
        if (!waiting.length) break;
        if (Date.now() > deadline) {
          console.error(waiting.map((g) => `${g.groupId}: ${g.state}, ${g.members.length} member(s)`).join("\n"));
          process.exit(1);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      await admin.disconnect();
    })().catch((error) => {
      console.error(error.message);
      process.exit(1);
    });
  ' "$READY_TIMEOUT" "$CONSUMER_GROUPS" && return 0
  show_log "$STATE"/main-service-[12].log
  say "the consumer groups did not settle with both replicas within $READY_TIMEOUT s (above)"
  return 1
}

stop_pid() { # pidfile [seconds]
  local file=$1 pid
  running "$file" || { rm -f "$file"; return 0; }
  pid=$(cat "$file")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((${2:-20} * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { say "pid $pid did not stop: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; }
  rm -f "$file"
}

render_gateway() { # [service replica]: that replica out of the rotation (marked down)
  local nginx_dir=$STATE/nginx left_out=none
  [ -n "${1:-}" ] && left_out=127.0.0.1:$(port_of "$1" "$2")
  mkdir -p "$nginx_dir/conf.d" "$nginx_dir/temp"
  # the template names one server per upstream (compose's service name); the second replica is added
  # as another server line of the same upstream, with the same parameters (max_conns, compose's default)
  MAIN_SERVICE_UPSTREAM=127.0.0.1:$(port_of main-service 1) DEVICE_SERVICE_UPSTREAM=127.0.0.1:$(port_of device-service 1) \
    GATEWAY_PORT=127.0.0.1:$gateway_port UPSTREAM_MAX_CONNS=$UPSTREAM_MAX_CONNS \
    envsubst '${MAIN_SERVICE_UPSTREAM} ${DEVICE_SERVICE_UPSTREAM} ${GATEWAY_PORT} ${UPSTREAM_MAX_CONNS}' <docker/nginx/templates/default.conf.template |
    sed -e "s|^\( *\)server 127.0.0.1:$(port_of main-service 1)\( [^;]*\)\?;|&\n\1server 127.0.0.1:$(port_of main-service 2)\2;|" \
      -e "s|^\( *\)server 127.0.0.1:$(port_of device-service 1)\( [^;]*\)\?;|&\n\1server 127.0.0.1:$(port_of device-service 2)\2;|" |
    sed -e "s|^\( *server $left_out\)\( [^;]*\)\?;|\1\2 down;|" >"$nginx_dir/conf.d/default.conf"
  local abs buffering=
  abs=$(cd "$nginx_dir" && pwd)
  # nginx before 1.23.1 (Debian bookworm ships 1.22.1) can drop the read deadline of a buffered proxied
  # response when a read ends exactly at the bytes the kernel announced (nginx ticket #2367). A worker
  # shutting down after a reload then sees no deadline left, counts itself idle and exits mid-response:
  # the client gets a cut body ("open socket left in connection" in the error log). The unbuffered path
  # reads otherwise and keeps its deadline. The images' gateway (nginx 1.28) buffers as the template says.
  if nginx_older_than 1.23.1; then buffering='proxy_buffering off;'; fi
  # room for every replica at max_conns (4 x 256 requests, two connections each) and the kept-alive
  # ones: nginx answers its 503 before it runs out of connections
  cat >"$nginx_dir/nginx.conf" <<EOF
worker_processes 1;
worker_rlimit_nofile 8192;
pid $abs/nginx.pid;
error_log $abs/error.log warn;
events { worker_connections 4096; }
http {
  access_log $abs/access.log;
  client_body_temp_path $abs/temp/body;
  proxy_temp_path $abs/temp/proxy;
  fastcgi_temp_path $abs/temp/fastcgi;
  uwsgi_temp_path $abs/temp/uwsgi;
  scgi_temp_path $abs/temp/scgi;
  $buffering
  include $abs/conf.d/*.conf;
}
EOF
  # as root nginx's workers drop to nobody, who needs the temp paths
  chmod 755 "$STATE" "$nginx_dir"
  if [ "$(id -u)" = 0 ]; then chown -R nobody "$nginx_dir/temp"; fi
}

nginx_bin() { command -v nginx || echo /usr/sbin/nginx; }
nginx_run() { "$(nginx_bin)" -p "$STATE/nginx" -c "$(pwd)/$STATE/nginx/nginx.conf" "$@"; }
nginx_older_than() { # version
  local have
  have=$("$(nginx_bin)" -v 2>&1 | sed -n 's|.*nginx/\([0-9.]*\).*|\1|p')
  [ "$have" != "$1" ] && [ "$(printf '%s\n%s\n' "$have" "$1" | sort -V | head -1)" = "$have" ]
}

# Renders the gateway ([service replica]: that one marked down) and reloads nginx; returns once its old
# workers have exited. They finish their requests first, and their kept-alive connections to the
# replicas close as they exit, so a replica left out has no connection from the gateway any more.
reload_gateway() {
  local old pid alive
  old=$(pgrep -P "$(cat "$STATE/nginx/nginx.pid")" || true)
  render_gateway "$@"
  nginx_run -q -t
  kill -HUP "$(cat "$STATE/nginx/nginx.pid")"
  for _ in $(seq 1 $((READY_TIMEOUT * 10))); do
    alive=
    for pid in $old; do kill -0 "$pid" 2>/dev/null && alive=$pid; done
    [ -z "$alive" ] && return 0
    sleep 0.1
  done
  show_log "$STATE/nginx/error.log"
  say "nginx's old workers did not exit within $READY_TIMEOUT s of the reload"
  return 1
}

start() {
  mkdir -p "$STATE"
  if [ -f "$STATE/settings" ] && [ "$(recorded CLUSTER_BASE_PORT "")" != "$BASE" ] && running "$STATE/nginx/nginx.pid"; then
    say "a cluster on base port $(recorded CLUSTER_BASE_PORT "") runs: stop it first"
    exit 1
  fi
  printf 'CLUSTER_KAFKA=%s\nCLUSTER_BASE_PORT=%s\nCLUSTER_DB_URL=%s\nZIPKIN_URL=%s\n' "$KAFKA" "$BASE" "$SERVER" "$ZIPKIN" >"$STATE/settings"
  # as npm test does: a test run after this start must not rebuild dist/ under the running replicas
  node scripts/build-if-stale.js
  local port
  for service in main-service device-service; do
    for n in 1 2; do
      port=$(port_of $service $n)
      if ! running "$STATE/$service-$n.pid" && port_open "$port"; then say "port $port is taken$(holder_of "$port")"; exit 1; fi
    done
  done
  if ! running "$STATE/nginx/nginx.pid" && port_open "$gateway_port"; then
    say "gateway port $gateway_port is taken$(holder_of "$gateway_port")"
    exit 1
  fi
  if [ "$KAFKA" = 1 ]; then
    if scripts/kafka.sh status; then : ; else scripts/kafka.sh start && touch "$STATE/kafka-started"; fi
  fi
  local host
  host=$(node -e "const u=new URL(process.argv[1].replace(/^mariadb:/,'mysql:'));console.log(u.hostname+' '+(u.port||3306)+' '+decodeURIComponent(u.username))" "$SERVER")
  read -r db_host db_port db_user <<<"$host"
  for service in main-service device-service; do
    mariadb -h"$db_host" -P"$db_port" -u"$db_user" -e "CREATE DATABASE IF NOT EXISTS \`$(database_of $service)\`"
    DB_URL="$SERVER/$(database_of $service)" node "dist/apps/$service/src/migrate.js" >>"$STATE/migrate.log" 2>&1 ||
      { say "migrations of $service failed ($STATE/migrate.log)"; exit 1; }
  done
  for service in main-service device-service; do for n in 1 2; do start_replica $service $n; done; done
  for service in main-service device-service; do for n in 1 2; do wait_replica $service $n; done; done
  # a running gateway is reloaded: a restart that failed may have left a replica out of its rotation
  if running "$STATE/nginx/nginx.pid"; then
    reload_gateway
  else
    render_gateway
    nginx_run -q -t
    nginx_run || { show_log "$STATE/nginx/error.log"; say "nginx did not start"; exit 1; }
  fi
  wait_until gateway "http://127.0.0.1:$gateway_port/gateway/health" "" "$STATE/nginx/error.log"
  wait_consumers
  cat >"$STATE/env" <<EOF
CLUSTER_URL=http://127.0.0.1:$gateway_port
CLUSTER_MAIN_PORTS="$(port_of main-service 1) $(port_of main-service 2)"
CLUSTER_DEVICE_PORTS="$(port_of device-service 1) $(port_of device-service 2)"
CLUSTER_JWT_SECRET=$JWT_SECRET_VALUE
CLUSTER_KAFKA=$KAFKA
CLUSTER_ZIPKIN=$ZIPKIN
EOF
  status
}

stop() {
  [ -d "$STATE" ] || return 0
  if running "$STATE/nginx/nginx.pid"; then stop_pid "$STATE/nginx/nginx.pid" 10; fi
  for service in main-service device-service; do for n in 1 2; do stop_pid "$STATE/$service-$n.pid"; done; done
  if [ -f "$STATE/kafka-started" ]; then scripts/kafka.sh stop && rm -f "$STATE/kafka-started"; fi
  rm -f "$STATE/env" "$STATE/settings"
}

status() {
  local all=0
  echo "gateway   http://127.0.0.1:$gateway_port $(running "$STATE/nginx/nginx.pid" && echo running || { all=1; echo stopped; })"
  for service in main-service device-service; do
    for n in 1 2; do
      echo "$service $n  port $(port_of $service $n) $(running "$STATE/$service-$n.pid" && echo "running (pid $(cat "$STATE/$service-$n.pid"))" || { all=1; echo stopped; })"
    done
  done
  [ "$KAFKA" = 1 ] && echo "kafka     127.0.0.1:9092 $(scripts/kafka.sh status && echo running || echo stopped)"
  return $all
}

restart() { # service replica
  case "${1:-}:${2:-}" in main-service:[12] | device-service:[12]) ;; *) say "usage: restart main-service|device-service 1|2"; exit 2 ;; esac
  # As Kubernetes takes a pod out of its Service's endpoints before the SIGTERM (preStop): a replica that
  # closes its listener while the gateway still routes to it resets the connections in its accept queue,
  # requests already sent on them included (a 502 that nginx does not send again for a POST).
  reload_gateway "$1" "$2"
  stop_pid "$STATE/$1-$2.pid"
  start_replica "$1" "$2"
  wait_replica "$1" "$2"
  wait_consumers
  # the new workers start with no failure counted against the replica (nginx gives every reload new
  # upstream zones), and it was never tried while down: the caller may stop the other replica right away
  reload_gateway
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart) restart "${2:-}" "${3:-}" ;;
  *) say "usage: $0 start|stop|status|restart <service> <n>"; exit 2 ;;
esac
