# A JVM server run in the background by a script of scripts/ (kafka.sh, zipkin.sh): its pid file, readiness
# wait and stop. The sourcing script sets NAME (as its lines name the server), PIDFILE, LOG, START_TIMEOUT and
# STOP_TIMEOUT, and defines say.

running_pid() {
  [ -f "$PIDFILE" ] || return 1
  local pid
  pid=$(cat "$PIDFILE")
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# plain: the text on stdin without terminal escape codes (colours, cursor moves) and carriage returns; the JVM's
# loggers colour their lines, and what a script echoes of them (a log's tail, a tool's complaints) would show
# as `[0m[0m...` where the terminal is not the one the codes were written for. Bare `[0m` remnants go too.
plain() { sed -E 's/\x1B\[[0-9;?]*[ -\/]*[@-~]//g; s/\x1B[@-_]//g; s/\[[0-9;]*m//g; s/\r$//'; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# await_ready PID CHECK: waits until the command CHECK succeeds; fails (and stops the server) when the server
# exits first or START_TIMEOUT seconds pass.
await_ready() {
  local pid=$1 check=$2
  for _ in $(seq 1 "$START_TIMEOUT"); do
    if ! kill -0 "$pid" 2>/dev/null; then tail -40 "$LOG" | plain >&2; say "$NAME exited during start-up"; exit 1; fi
    if "$check"; then
      say "ready (pid $pid)"
      return 0
    fi
    sleep 1
  done
  tail -40 "$LOG" | plain >&2
  say "not ready after ${START_TIMEOUT}s"
  stop
  exit 1
}

# SIGTERM, then SIGKILL only after STOP_TIMEOUT seconds.
stop() {
  local pid
  pid=$(running_pid) || { rm -f "$PIDFILE"; say "not running"; return 0; }
  kill -TERM "$pid"
  for _ in $(seq 1 $((STOP_TIMEOUT * 5))); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PIDFILE"; say "stopped"; return 0; }
    sleep 0.2
  done
  say "no clean stop after ${STOP_TIMEOUT}s: killing"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PIDFILE"
}
