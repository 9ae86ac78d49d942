# The built embedded server (dist/apps/local, `npm run build`; nothing is built here) for the check scripts:
# `start_embedded_server` starts it on a free loopback port with throw-away SQLite files, in its own
# session, stopped (and its files removed) when the script exits; `fetch_documents` waits until both
# OpenAPI documents are served and saves them as $tmp/main-service.json and $tmp/device-service.json.
# Sets: tmp (a temporary folder), pid, port, base (http://127.0.0.1:<port>).
server=dist/apps/local/src/local.js
if [ ! -f "$server" ]; then
  echo "$server is missing: run npm run build first" >&2
  exit 2
fi

tmp=$(mktemp -d)
pid=
stop_embedded_server() {
  # own session (setsid): stopping the group stops the server and nothing else
  [ -n "$pid" ] && kill -- "-$pid" 2>/dev/null
  [ -n "$pid" ] && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap stop_embedded_server EXIT

start_embedded_server() {
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  PORT=$port SQLITE_DIR=$tmp LOG_LEVEL=warn setsid node "$server" >"$tmp/server.log" 2>&1 &
  pid=$!
  base=http://127.0.0.1:$port
}

# Returns non-zero (after printing the server's last lines) when the documents were not served within 90 s.
fetch_documents() {
  for _ in $(seq 1 90); do
    if curl -fsS "$base/main-service/v3/api-docs" -o "$tmp/main-service.json" 2>/dev/null &&
      curl -fsS "$base/device-service/v3/api-docs" -o "$tmp/device-service.json" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 1
  done
  tail -n 40 "$tmp/server.log"
  return 1
}
