#!/usr/bin/env bash
# A local 3-node MariaDB Galera cluster (Debian's mariadb-server + galera-4) for the galera test leg and by hand.
#
#   scripts/galera.sh start      a new cluster: fresh datadirs, node 1 bootstraps (--wsrep-new-cluster), nodes 2
#                                and 3 join by rsync SST; returns when every node is Synced, ready and sees 3
#   scripts/galera.sh stop       SIGTERM every node, wait for each to exit
#   scripts/galera.sh status     one line per node (state, cluster size); exit 0 when all three are Synced
#   scripts/galera.sh kill N     kill -9 node N (a crash: no clean shutdown, its position is not saved)
#   scripts/galera.sh rejoin N   recover node N's last position (mariadbd --wsrep-recover) and start it with
#                                --wsrep_start_position, so it catches up by IST; returns when it is Synced
#
# Node n (1..3) listens for clients on 127.0.0.1:(GALERA_BASE_PORT + n) (default 3311, 3312, 3313) and uses
# three Galera ports on loopback: group communication 46n0, IST 46n1, SST 46n2 (4610.., 4620.., 4630..).
# root logs in without a password over TCP from 127.0.0.1, as on the machine's own MariaDB.
# State (datadirs, configuration, logs, pid files) under GALERA_DIR (default /tmp/galera), owned by mysql:
# the rsync SST runs as the server's user and must be able to write the joiner's datadir.
# With CI=true, missing packages (mariadb-server, galera-4, rsync) are installed first.
set -euo pipefail

DIR=${GALERA_DIR:-/tmp/galera}
BASE=${GALERA_BASE_PORT:-3310}
PROVIDER=/usr/lib/galera/libgalera_smm.so
START_TIMEOUT=${GALERA_START_TIMEOUT:-120}
STOP_TIMEOUT=60

say() { printf 'galera.sh: %s\n' "$*" >&2; }

client_port() { echo $((BASE + $1)); }
gcomm_port() { echo $((4600 + 10 * $1)); }
ist_port() { echo $((4601 + 10 * $1)); }
sst_port() { echo $((4602 + 10 * $1)); }
node_dir() { echo "$DIR/node$1"; }
pid_of() { cat "$(node_dir "$1")/mariadbd.pid" 2>/dev/null; }
running() { local pid; pid=$(pid_of "$1") && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }
sql() { # node statement: one value per line, no headers
  mariadb -uroot -h127.0.0.1 -P"$(client_port "$1")" --connect-timeout=2 -N -B -e "$2" 2>/dev/null
}
status_value() { sql "$1" "SHOW GLOBAL STATUS LIKE '$2'" | cut -f2; }
synced() {
  [ "$(status_value "$1" wsrep_local_state_comment)" = Synced ] &&
    [ "$(status_value "$1" wsrep_ready)" = ON ] &&
    [ "$(status_value "$1" wsrep_cluster_size)" = 3 ]
}

ensure_packages() {
  local missing=()
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  [ -f "$PROVIDER" ] || missing+=(galera-4)
  command -v rsync >/dev/null 2>&1 || missing+=(rsync)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "${CI:-}" != true ]; then
    say "missing: ${missing[*]} (apt-get install -y ${missing[*]}; CI=true installs them)"
    exit 1
  fi
  say "installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

write_config() { # node
  local n=$1 dir address
  dir=$(node_dir "$n")
  address="gcomm://127.0.0.1:$(gcomm_port 1),127.0.0.1:$(gcomm_port 2),127.0.0.1:$(gcomm_port 3)"
  cat >"$dir/my.cnf" <<EOF
[mariadbd]
user=mysql
datadir=$dir/data
socket=$dir/mariadbd.sock
pid-file=$dir/mariadbd.pid
log-error=$dir/error.log
bind-address=127.0.0.1
port=$(client_port "$n")
server_id=$n
skip-name-resolve
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=128M
innodb_log_file_size=48M
innodb_flush_log_at_trx_commit=2
max_connections=300
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_cluster_name=local_galera
wsrep_cluster_address=$address
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(gcomm_port "$n")
wsrep_provider_options="base_port=$(gcomm_port "$n");gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=64M;cert.log_conflicts=yes"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sst_port "$n")
wsrep_log_conflicts=ON
wsrep_slave_threads=2
EOF
}

launch() { # node [extra mariadbd options...]
  local n=$1
  shift
  local dir
  dir=$(node_dir "$n")
  # its own session, so the node outlives this script and a kill of the script's group spares it
  setsid /usr/sbin/mariadbd --defaults-file="$dir/my.cnf" "$@" </dev/null >>"$dir/stdout.log" 2>&1 &
  # mariadbd writes its pid file itself; wait for it so kill/stop find the server's own pid
  for _ in $(seq 1 30); do [ -s "$dir/mariadbd.pid" ] && return 0; sleep 0.5; done
  say "node $n wrote no pid file"
  tail -n 40 "$dir/error.log" >&2 || true
  exit 1
}

await_synced() { # node
  local n=$1
  for _ in $(seq 1 "$START_TIMEOUT"); do
    if ! running "$n"; then
      tail -n 40 "$(node_dir "$n")/error.log" >&2 || true
      say "node $n exited during start-up"
      exit 1
    fi
    if synced "$n"; then
      say "node $n Synced on 127.0.0.1:$(client_port "$n") (pid $(pid_of "$n"))"
      return 0
    fi
    sleep 1
  done
  tail -n 40 "$(node_dir "$n")/error.log" >&2 || true
  say "node $n not Synced after ${START_TIMEOUT}s"
  exit 1
}

# Node 1 alone: synced means Primary with itself until the others join.
await_bootstrapped() {
  for _ in $(seq 1 "$START_TIMEOUT"); do
    running 1 || { tail -n 40 "$(node_dir 1)/error.log" >&2; say "node 1 exited during start-up"; exit 1; }
    [ "$(status_value 1 wsrep_ready)" = ON ] && return 0
    sleep 1
  done
  say "node 1 did not bootstrap after ${START_TIMEOUT}s"
  exit 1
}

start() {
  local n
  for n in 1 2 3; do
    if running "$n"; then
      say "node $n already runs (scripts/galera.sh stop first)"
      exit 1
    fi
  done
  ensure_packages
  rm -rf "$DIR"
  mkdir -p "$DIR"
  for n in 1 2 3; do
    mkdir -p "$(node_dir "$n")/data"
    write_config "$n"
  done
  chown -R mysql:mysql "$DIR"
  # only node 1 needs system tables: the joiners receive node 1's datadir by SST. "normal" root
  # authentication gives root@localhost/127.0.0.1 an empty password, like a fresh machine MariaDB's TCP login.
  mariadb-install-db --defaults-file="$(node_dir 1)/my.cnf" --auth-root-authentication-method=normal \
    --skip-test-db >"$(node_dir 1)/install.log" 2>&1 || {
    cat "$(node_dir 1)/install.log" >&2
    exit 1
  }
  launch 1 --wsrep-new-cluster
  await_bootstrapped
  say "node 1 bootstrapped the cluster"
  # one joiner at a time: each SST makes its donor briefly a Donor/Desynced node
  for n in 2 3; do
    launch "$n"
    await_joined "$n"
  done
  for n in 1 2 3; do await_synced "$n"; done
}

await_joined() { # node: Synced, whatever the cluster size (the third node may not be there yet)
  local n=$1
  for _ in $(seq 1 "$START_TIMEOUT"); do
    running "$n" || { tail -n 40 "$(node_dir "$n")/error.log" >&2; say "node $n exited while joining"; exit 1; }
    [ "$(status_value "$n" wsrep_local_state_comment)" = Synced ] && return 0
    sleep 1
  done
  tail -n 40 "$(node_dir "$n")/error.log" >&2 || true
  say "node $n did not join after ${START_TIMEOUT}s"
  exit 1
}

stop_node() { # node
  local n=$1 pid
  pid=$(pid_of "$n") || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid"
  for _ in $(seq 1 "$STOP_TIMEOUT"); do
    kill -0 "$pid" 2>/dev/null || {
      say "node $n stopped"
      return 0
    }
    sleep 1
  done
  say "node $n did not stop after ${STOP_TIMEOUT}s: kill -9"
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  local n
  # the last node to leave keeps safe_to_bootstrap; order does not matter for a throw-away test cluster
  for n in 3 2 1; do stop_node "$n"; done
}

status() {
  local n ok=0 state size
  for n in 1 2 3; do
    if ! running "$n"; then
      echo "node $n: not running"
      ok=1
      continue
    fi
    state=$(status_value "$n" wsrep_local_state_comment || true)
    size=$(status_value "$n" wsrep_cluster_size || true)
    echo "node $n: 127.0.0.1:$(client_port "$n") pid $(pid_of "$n") ${state:-no answer} cluster_size ${size:-?}"
    [ "$state" = Synced ] && [ "$size" = 3 ] || ok=1
  done
  return $ok
}

crash() { # node
  local n=$1 pid
  running "$n" || {
    say "node $n is not running"
    exit 1
  }
  pid=$(pid_of "$n")
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  say "node $n killed (pid $pid)"
}

rejoin() { # node
  local n=$1 dir position
  dir=$(node_dir "$n")
  if running "$n"; then
    say "node $n already runs"
    exit 1
  fi
  # what galera_recovery does: --wsrep-recover reads InnoDB's last committed position and prints it, then exits
  rm -f "$dir/recover.log"
  /usr/sbin/mariadbd --defaults-file="$dir/my.cnf" --wsrep-recover --log-error="$dir/recover.log" \
    >/dev/null 2>&1 || true
  position=$(sed -n 's/.*WSREP: Recovered position: *\([^ ]*\).*/\1/p' "$dir/recover.log" | tail -1)
  if [ -z "$position" ]; then
    cat "$dir/recover.log" >&2 || true
    say "node $n: no recovered position"
    exit 1
  fi
  say "node $n recovered position $position"
  rm -f "$dir/mariadbd.pid"
  launch "$n" --wsrep_start_position="$position"
  await_synced "$n"
}

node_arg() {
  case ${1:-} in
    1 | 2 | 3) echo "$1" ;;
    *)
      say "node number 1, 2 or 3 expected"
      exit 2
      ;;
  esac
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  kill) crash "$(node_arg "${2:-}")" ;;
  rejoin) rejoin "$(node_arg "${2:-}")" ;;
  *)
    echo "usage: scripts/galera.sh start|stop|status|kill N|rejoin N" >&2
    exit 2
    ;;
esac
