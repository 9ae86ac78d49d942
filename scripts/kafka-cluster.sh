# The cluster mode of scripts/kafka.sh (sourced by it, never run alone): N combined broker+controller KRaft nodes
# on loopback, node ids 1..N, all N voting in the controller quorum, one cluster id formatted into each node's
# own log dir. Node ID listens for clients on KAFKA_CLUSTER_PORT + 2*(ID-1) and for the quorum on the port after
# it (default 9192/9193, 9194/9195, 9196/9197: apart from the single broker's 9092, so both can run). State and
# data stay in .kafka/cluster/node-ID between start and stop; `reset` deletes them.
#
# Settings (environment): KAFKA_CLUSTER_SIZE (or `--brokers N`), KAFKA_CLUSTER_PORT, KAFKA_CLUSTER_HEAP (each
# node's -Xmx, default 320m: three nodes share a small machine), KAFKA_START_TIMEOUT, KAFKA_STOP_TIMEOUT.

CLUSTER_DIR="$HOME_DIR/cluster"
CLUSTER_PORT="${KAFKA_CLUSTER_PORT:-9192}"
CLUSTER_HEAP="${KAFKA_CLUSTER_HEAP:-320m}"
CLUSTER_JAVA=(java -Xms128m "-Xmx$CLUSTER_HEAP" -XX:+UseSerialGC -Dlog4j.configuration="file:$CLUSTER_DIR/log4j.properties" -cp "$LIBS/*")

client_port() { echo $((CLUSTER_PORT + 2 * ($1 - 1))); }
controller_port() { echo $((CLUSTER_PORT + 2 * ($1 - 1) + 1)); }

# the size the cluster was created with (its data), else the requested one
cluster_size() {
  if [ -f "$CLUSTER_DIR/size" ]; then cat "$CLUSTER_DIR/size"; else echo "${CLUSTER_SIZE:-}"; fi
}

# points the daemon helpers (running_pid, await_ready, broker_started) at node ID
use_node() {
  NODE="$1"
  NODE_DIR="$CLUSTER_DIR/node-$NODE"
  PIDFILE="$NODE_DIR/kafka.pid"
  LOG="$NODE_DIR/kafka.log"
  PORT=$(client_port "$NODE")
  NAME="Kafka node $NODE"
}

bootstrap_list() {
  local size list="" id
  size=$(cluster_size)
  for id in $(seq 1 "$size"); do list="$list${list:+,}127.0.0.1:$(client_port "$id")"; done
  echo "$list"
}

write_node_config() {
  local size=$1 id=$2 voters="" v replication min_isr
  for v in $(seq 1 "$size"); do voters="$voters${voters:+,}$v@127.0.0.1:$(controller_port "$v")"; done
  # internal topics and default replication: 3 copies (2 on a 2-node cluster), writes acknowledged by 2
  replication=$((size < 3 ? size : 3))
  min_isr=$((replication > 2 ? 2 : 1))
  mkdir -p "$CLUSTER_DIR/node-$id"
  cat > "$CLUSTER_DIR/node-$id/server.properties" <<EOF
process.roles=broker,controller
node.id=$id
controller.quorum.voters=$voters
listeners=PLAINTEXT://127.0.0.1:$(client_port "$id"),CONTROLLER://127.0.0.1:$(controller_port "$id")
advertised.listeners=PLAINTEXT://127.0.0.1:$(client_port "$id")
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
offsets.topic.replication.factor=$replication
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=$replication
transaction.state.log.min.isr=$min_isr
default.replication.factor=$replication
min.insync.replicas=$min_isr
unclean.leader.election.enable=false
group.initial.rebalance.delay.ms=0
num.partitions=1
auto.create.topics.enable=false
num.network.threads=2
num.io.threads=2
background.threads=2
log.dirs=$CLUSTER_DIR/node-$id/data
EOF
}

# starts node ID's JVM in the background (formatting its log dir with the cluster id on first use)
launch_node() {
  use_node "$1"
  if running_pid >/dev/null; then say "node $NODE already running (pid $(running_pid))"; return 0; fi
  if port_open "$PORT"; then say "port $PORT is taken by another process"; return 1; fi
  if [ ! -f "$NODE_DIR/data/meta.properties" ]; then
    rm -rf "$NODE_DIR/data"
    "${CLUSTER_JAVA[@]}" kafka.tools.StorageTool format -t "$(cat "$CLUSTER_DIR/cluster.id")" -c "$NODE_DIR/server.properties" 2>&1 >/dev/null | plain >&2
  fi
  # the previous run's log stays beside the new one (what a killed node said last)
  [ -f "$LOG" ] && mv "$LOG" "$LOG.1"
  # a session of its own: a node restarted by a test run outlives that run's process group (Ctrl-C, timeout)
  setsid nohup "${CLUSTER_JAVA[@]}" kafka.Kafka "$NODE_DIR/server.properties" > "$LOG" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  say "node $NODE starting on 127.0.0.1:$PORT (pid $!, log: $LOG)"
}

# waits for node ID in a subshell: await_ready exits (and stops the node) when it fails
await_node() {
  use_node "$1"
  local pid
  pid=$(running_pid) || { say "node $NODE is not running"; return 1; }
  (await_ready "$pid" broker_started)
}

cluster_start() {
  local size=$CLUSTER_SIZE id
  case "$size" in '' | *[!0-9]*) say "--brokers needs a count from 2 to 9"; return 2 ;; esac
  if [ "$size" -lt 2 ] || [ "$size" -gt 9 ]; then say "--brokers needs a count from 2 to 9"; return 2; fi
  if [ -f "$CLUSTER_DIR/size" ] && [ "$(cat "$CLUSTER_DIR/size")" != "$size" ]; then
    say "the cluster in $CLUSTER_DIR has $(cat "$CLUSTER_DIR/size") nodes: 'scripts/kafka.sh reset --brokers $(cat "$CLUSTER_DIR/size")' first"
    return 1
  fi
  mkdir -p "$CLUSTER_DIR"
  fetch
  write_log4j "$CLUSTER_DIR/log4j.properties"
  if [ ! -f "$CLUSTER_DIR/cluster.id" ]; then
    "${CLUSTER_JAVA[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | plain | tail -1 > "$CLUSTER_DIR/cluster.id"
  fi
  echo "$size" > "$CLUSTER_DIR/size"
  for id in $(seq 1 "$size"); do write_node_config "$size" "$id"; done
  # all at once: no node finishes starting before a majority of the quorum runs
  for id in $(seq 1 "$size"); do launch_node "$id" || { cluster_stop; return 1; }; done
  for id in $(seq 1 "$size"); do await_node "$id" || { cluster_stop; return 1; }; done
  say "cluster of $size ready; bootstrap list on stdout"
  bootstrap_list
}

# SIGTERM to every node at once (each shuts down in a controlled way while the quorum still stands), then
# SIGKILL to those still running after KAFKA_STOP_TIMEOUT
cluster_stop() {
  local size id pids=()
  size=$(cluster_size)
  [ -n "$size" ] || { say "no cluster"; return 0; }
  for id in $(seq 1 "$size"); do
    use_node "$id"
    local pid
    if pid=$(running_pid); then kill -TERM "$pid" && pids+=("$pid"); else rm -f "$PIDFILE"; fi
  done
  for _ in $(seq 1 $((STOP_TIMEOUT * 5))); do
    local alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    pids=("${alive[@]}")
    [ ${#pids[@]} -eq 0 ] && break
    sleep 0.2
  done
  if [ ${#pids[@]} -gt 0 ]; then
    say "no clean stop after ${STOP_TIMEOUT}s: killing ${pids[*]}"
    kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
  for id in $(seq 1 "$size"); do rm -f "$CLUSTER_DIR/node-$id/kafka.pid"; done
  say "cluster stopped"
}

cluster_status() {
  local size id state all=0
  size=$(cluster_size)
  [ -n "$size" ] || { say "no cluster"; return 1; }
  for id in $(seq 1 "$size"); do
    use_node "$id"
    if running_pid >/dev/null; then state="running (pid $(running_pid))"; else state=stopped; all=1; fi
    echo "node $id 127.0.0.1:$PORT $state"
  done
  return $all
}

# kill ID: SIGKILL, as a crash would (no controlled shutdown: the controller fences it after its session times out)
cluster_kill() {
  node_arg "${1:-}" || return 2
  use_node "$1"
  local pid
  pid=$(running_pid) || { say "node $NODE is not running"; return 1; }
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$PIDFILE"
  say "node $NODE killed (pid $pid)"
}

cluster_restart() {
  node_arg "${1:-}" || return 2
  launch_node "$1" && await_node "$1"
}

node_arg() {
  local size
  size=$(cluster_size)
  [ -n "$size" ] || { say "no cluster: start one with 'scripts/kafka.sh start --brokers N'"; return 1; }
  case "$1" in
    '' | *[!0-9]*) say "a node id from 1 to $size is needed"; return 1 ;;
  esac
  if [ "$1" -lt 1 ] || [ "$1" -gt "$size" ]; then say "a node id from 1 to $size is needed"; return 1; fi
}

cluster_command() {
  case "$1" in
    start) cluster_start ;;
    stop) cluster_stop ;;
    status) cluster_status ;;
    reset) cluster_stop; rm -rf "$CLUSTER_DIR" ;;
    brokers) [ -n "$(cluster_size)" ] || { say "no cluster"; return 1; }; bootstrap_list ;;
    kill) cluster_kill "${2:-}" ;;
    restart) cluster_restart "${2:-}" ;;
    fetch) mkdir -p "$HOME_DIR"; fetch ;;
    *) echo "usage: scripts/kafka.sh start|stop|status|reset|brokers --brokers N | kill ID | restart ID" >&2; return 2 ;;
  esac
}
