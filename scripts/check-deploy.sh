#!/usr/bin/env bash
# Offline checks of the deployment files, for CI (.ci/run) and developers:
#   1. k8s/ rendered with kustomize and validated against the Kubernetes schemas, plus cross-checks of
#      k8s/, docker/ and the apps (test/deploy/check-manifests.mjs);
#   2. docker/compose.yaml validated by docker compose (or Debian's docker-compose);
#   3. the gateway: docker/nginx's template rendered for 127.0.0.1 and run by Debian's nginx in front of
#      the built main-service and device-service (SQLite), probed with curl.
# Ends with "deploy: N passed, N failed"; exits non-zero on any failure. Installs nginx-light and
# docker-compose with apt-get when missing (root, as in CI).
set -uo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/tap.sh
# check NAME COMMAND...: one counted result
check() {
  local name=$1
  shift
  if "$@"; then ok "$name"; else fail "$name"; fi
}
contract() { node -p "JSON.parse(require('fs').readFileSync('test/deploy/contract.json','utf8'))$1"; }
apt_install() {
  echo "# installing $* (apt-get)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } >/dev/null 2>&1
}

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# --- 1. manifests and cross-checks
node test/deploy/check-manifests.mjs >"$tmp/manifests.log" 2>&1
cat "$tmp/manifests.log"
passed=$((passed + $(grep -c '^ok - ' "$tmp/manifests.log")))
failed=$((failed + $(grep -c '^not ok - ' "$tmp/manifests.log")))
grep -q '^# manifests: 0 check' "$tmp/manifests.log" || grep -q '^not ok - ' "$tmp/manifests.log" || fail "check-manifests.mjs crashed"

# --- 2. compose: placeholder secrets from the committed example, as an operator's docker/.env would give
if docker compose version >/dev/null 2>&1; then compose=(docker compose)
else
  command -v docker-compose >/dev/null 2>&1 || apt_install docker-compose
  compose=(docker-compose)
fi
if command -v "${compose[0]}" >/dev/null 2>&1 && "${compose[@]}" version >/dev/null 2>&1; then
  check "compose.yaml valid (${compose[*]} config)" "${compose[@]}" --env-file docker/.env.example -f docker/compose.yaml config -q
  grep -v '^JWT_SECRET=' docker/.env.example >"$tmp/no-secret.env"
  check "compose refuses to start without JWT_SECRET" \
    bash -c '! "$@" --env-file "'"$tmp"'/no-secret.env" -f docker/compose.yaml config -q 2>/dev/null' _ "${compose[@]}"
else
  fail "no docker compose nor docker-compose to validate docker/compose.yaml"
fi

# --- 3. gateway: the same nginx template as compose, upstreams on 127.0.0.1
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || apt_install nginx-light
command -v envsubst >/dev/null 2>&1 || apt_install gettext-base
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -f "$(contract '.services["main-service"].main')" ] || npm run build >/dev/null

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
main_port=$(free_port)
device_port=$(free_port)
gw_port=$(free_port)
while [ "$gw_port" = "$main_port" ] || [ "$gw_port" = "$device_port" ] || [ "$device_port" = "$main_port" ]; do gw_port=$(free_port); device_port=$(free_port); done

# TRUST_PROXY=127.0.0.1: the services trust exactly the gateway's address, as in compose and Kubernetes;
# clients come from 127.0.0.2 (untrusted) or 127.0.0.1 (a trusted proxy in front of the gateway)
# the origin of a browser app allowed to call the services (CORS_ORIGINS)
cors_origin=https://admin.example.com
start_service() {
  local name=$1 port=$2
  mkdir -p "$tmp/$name"
  PORT=$port SQLITE_DIR="$tmp/$name" TRUST_PROXY=127.0.0.1 CORS_ORIGINS=$cors_origin LOG_LEVEL=warn \
    node "$(contract ".services['$name'].main")" >"$tmp/$name.log" 2>&1 &
  pids+=($!)
}
start_service main-service "$main_port"
start_service device-service "$device_port"

# gateway_conf DIR MAIN DEVICE PORT MAX_CONNS: the template rendered into DIR, with nginx's own process
# layout there; as root nginx's workers drop to nobody, who needs the temp paths
gateway_conf() {
  local dir=$1
  mkdir -p "$dir/conf.d" "$dir/temp"
  MAIN_SERVICE_UPSTREAM=$2 DEVICE_SERVICE_UPSTREAM=$3 GATEWAY_PORT=$4 UPSTREAM_MAX_CONNS=$5 \
    envsubst '${MAIN_SERVICE_UPSTREAM} ${DEVICE_SERVICE_UPSTREAM} ${GATEWAY_PORT} ${UPSTREAM_MAX_CONNS}' \
    <docker/nginx/templates/default.conf.template >"$dir/conf.d/default.conf"
  cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 64; }
http {
  access_log $dir/access.log;
  client_body_temp_path $dir/temp/body;
  proxy_temp_path $dir/temp/proxy;
  fastcgi_temp_path $dir/temp/fastcgi;
  uwsgi_temp_path $dir/temp/uwsgi;
  scgi_temp_path $dir/temp/scgi;
  include $dir/conf.d/*.conf;
}
EOF
  chmod 755 "$tmp" "$dir"
  if [ "$(id -u)" = 0 ]; then chown -R nobody "$dir/temp"; fi
}
start_gateway() { # DIR
  "$nginx" -p "$1" -c "$1/nginx.conf" -g 'daemon off;' 2>>"$1/error.log" &
  pids+=($!)
}
# compose's default, so that the gateway checked is the one compose runs
max_conns=$(sed -n 's/^ *UPSTREAM_MAX_CONNS: "\${UPSTREAM_MAX_CONNS:-\([0-9]*\)}"$/\1/p' docker/compose.yaml)
gateway_conf "$tmp/nginx" "127.0.0.1:$main_port" "127.0.0.1:$device_port" "127.0.0.1:$gw_port" "${max_conns:-none-in-compose}"
check "nginx accepts the rendered gateway template (nginx -t)" "$nginx" -q -t -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf"
start_gateway "$tmp/nginx"

gw=http://127.0.0.1:$gw_port
main_prefix=$(contract '.services["main-service"].prefix')
device_prefix=$(contract '.services["device-service"].prefix')
openapi=$(contract '.paths.openapi')
ready=false
for _ in $(seq 1 90); do
  # the services directly (a broken route must fail its check, not this wait), and nginx's own location
  if curl -fsS -m 2 -o /dev/null "http://127.0.0.1:$main_port$main_prefix$openapi" 2>/dev/null &&
    curl -fsS -m 2 -o /dev/null "http://127.0.0.1:$device_port$device_prefix$openapi" 2>/dev/null &&
    curl -fsS -m 2 -o /dev/null "$gw/gateway/health" 2>/dev/null; then
    ready=true
    break
  fi
  sleep 1
done
if ! $ready; then
  fail "services and gateway did not answer within 90 s"
  tail -20 "$tmp"/*.log "$tmp/nginx/error.log"
fi

# body of a GET through curl (extra curl options first)
get() { curl -sS -m 10 "$@"; }
status() { curl -sS -m 10 -o /dev/null -w '%{http_code}' "$@"; }
# the document of each prefix is that service's: its paths carry its own prefix, never the other's
routed() {
  get "$gw$1$openapi" >"$tmp/doc.json" && node -e '
    const doc = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const paths = Object.keys(doc.paths ?? {});
    process.exit(doc.openapi && paths.length && paths.every((p) => p.startsWith(process.argv[2] + "/")) ? 0 : 1);' "$tmp/doc.json" "$1"
}
check "gateway routes $main_prefix to main-service" routed "$main_prefix" "$device_prefix"
check "gateway routes $device_prefix to device-service" routed "$device_prefix" "$main_prefix"
for prefix in "$main_prefix" "$device_prefix"; do
  ui=$(contract '.paths.swaggerUi')
  html=$(get -L "$gw$prefix$ui")
  assets_ok=true
  for asset in $(grep -oE 'src="\./[^"]+"' <<<"$html" | sed -E 's/src="\.\/(.*)"/\1/'); do
    [ "$(status "$gw$prefix/$asset")" = 200 ] || assets_ok=false
  done
  check "Swagger UI at $prefix$ui loads through the gateway (HTML and its scripts)" bash -c '[[ "$1" == *swagger-ui-bundle.js* && $2 == true ]]' _ "$html" "$assets_ok"
done
check "unknown prefix answers 404 at the gateway" bash -c '[ "$1$2$3" = 404404404 ]' _ \
  "$(status "$gw/other-service/v3/api-docs")" "$(status "$gw/")" "$(status "$gw${main_prefix}x/v3/api-docs")"

token=$(node "$(contract '.services["main-service"].main' | sed 's/main\.js$/mint-token.js/')" --tenant acme --user alice --roles administrator)
client_ip() { get -H "Authorization: Bearer $token" "$@" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{try{console.log(JSON.parse(s).data)}catch{console.log('unparsable: '+s.slice(0,200))}})"; }
ip_path=$main_prefix/main-api/v1/general/configuration/base/getClientIp
expect() { [ "$1" = "$2" ] || { echo "    got '$1', expected '$2'"; return 1; }; }
check "getClientIp through the gateway: a client behind a trusted proxy keeps X-Forwarded-For 203.0.113.7" \
  expect "$(client_ip -H 'X-Forwarded-For: 203.0.113.7' "$gw$ip_path")" 203.0.113.7
check "getClientIp through the gateway: no X-Forwarded-For gives the client's own address" \
  expect "$(client_ip --interface 127.0.0.2 "$gw$ip_path")" 127.0.0.2
check "getClientIp through the gateway: an untrusted client cannot spoof X-Forwarded-For" \
  expect "$(client_ip --interface 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.7' "$gw$ip_path")" 127.0.0.2
check "getClientIp without the gateway: a direct caller's spoofed X-Forwarded-For is ignored" \
  expect "$(client_ip --interface 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.7' "http://127.0.0.1:$main_port$ip_path")" 127.0.0.2

check "getClientIp through the gateway: a trusted proxy's X-Forwarded-For that is not an address gives the connection's" \
  expect "$(client_ip -H 'X-Forwarded-For: <script>alert(1)</script>' "$gw$ip_path")" 127.0.0.1

request_id() { curl -sS -m 10 -o /dev/null -D - "$@" | tr -d '\r' | sed -n 's/^[Xx]-[Rr]equest-[Ii]d: //p'; }
check "gateway passes the caller's X-Request-Id through" expect "$(request_id -H 'X-Request-Id: ci-deploy-0001' "$gw$device_prefix$openapi")" ci-deploy-0001
check "gateway generates an X-Request-Id when none is sent" bash -c '[ -n "$1" ]' _ "$(request_id "$gw$main_prefix$openapi")"
# 17 MB is past the gateway's limit: nginx itself answers 413 (its HTML page, not the services' JSON)
check "gateway rejects bodies above its limit (nginx 413)" bash -c '[[ "$1" == *"413 Request Entity Too Large"* ]]' _ \
  "$(head -c 18000000 /dev/zero | curl -sS -m 20 -H 'Content-Type: application/json' --data-binary @- "$gw$main_prefix/x" 2>&1)"

# 1000 ids of 21 characters in one query string (~26 KB request line): the gateway and the service take it
envelope_of() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{try{const e=JSON.parse(s);console.log(e.status+' '+JSON.stringify(e.data))}catch{console.log('unparsable: '+s.slice(0,200))}})"; }
removes_1000_ids() {
  local base=$1 id_field=$2 body=$3
  local ids first last query
  ids=$(node -e "const c='0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';const r=require('crypto');for(let i=0;i<1000;i++)console.log(Array.from(r.randomBytes(21),b=>c[b%62]).join(''))")
  first=$(head -1 <<<"$ids")
  last=$(tail -1 <<<"$ids")
  for id in "$first" "$last"; do
    expect "$(curl -sS -m 10 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
      -d "{\"$id_field\":\"$id\",${body//ID/$id}}" "$gw$base/save" | envelope_of)" '200 true' || return 1
  done
  query=$(sed 's/^/ids=/' <<<"$ids" | paste -sd '&')
  expect "$(curl -sS -m 20 -X DELETE -H "Authorization: Bearer $token" "$gw$base/removeByIds?$query" | envelope_of)" '200 true' &&
    expect "$(curl -sS -m 10 -H "Authorization: Bearer $token" "$gw$base/getById?id=$last" | envelope_of)" '200 null'
}
check "removeByIds with 1000 ids (~26 KB request line) through the gateway, main-service" \
  removes_1000_ids "$main_prefix/system-api/configuration/data-dictionary-type" dataDictionaryTypeId '"dataDictionaryTypeCode":"code-ID","name":"Name"'
check "removeByIds with 1000 ids (~26 KB request line) through the gateway, device-service" \
  removes_1000_ids "$device_prefix/system-api/device/data-acquisition-server" dataAcquisitionServerId '"dataAcquisitionServerNo":"DAS-ID","secret":"provisioning-secret-0001"'

# CORS (CORS_ORIGINS=$cors_origin): preflights and headers pass the gateway both ways
headers_of() { curl -sS -m 10 -o /dev/null -D - "$@" | tr -d '\r' | tr 'A-Z' 'a-z'; }
cors_preflight() {
  local h
  h=$(headers_of -X OPTIONS -H "Origin: $1" -H 'Access-Control-Request-Method: PUT' -H 'Access-Control-Request-Headers: authorization,content-type' "$gw$2")
  grep -q '^http/1.1 204' <<<"$h" && grep -qx "access-control-allow-origin: $1" <<<"$h" &&
    grep -qx 'access-control-allow-methods: get,post,put,delete' <<<"$h" &&
    grep -qx 'access-control-allow-headers: authorization,content-type,accept-language,x-request-id' <<<"$h" &&
    grep -q '^access-control-max-age: [1-9]' <<<"$h" && grep -q '^vary: .*origin' <<<"$h" && ! grep -q '^access-control-allow-credentials' <<<"$h" ||
    { echo "    got: $h"; return 1; }
}
cors_actual() {
  local h
  h=$(headers_of -H "Origin: $cors_origin" -H "Authorization: Bearer $token" "$gw$1")
  grep -qx "access-control-allow-origin: $cors_origin" <<<"$h" && grep -qx 'access-control-expose-headers: x-request-id' <<<"$h" && grep -q '^x-request-id: .' <<<"$h" ||
    { echo "    got: $h"; return 1; }
}
cors_preflights() { cors_preflight "$cors_origin" "$ip_path" && cors_preflight "$cors_origin" "$device_prefix/system-api/device/data-acquisition-server/count"; }
check "CORS preflight of an allowed origin through the gateway, no token (main-service, device-service)" cors_preflights
check "CORS headers and exposed X-Request-Id on an answer through the gateway" cors_actual "$ip_path"
check "CORS: another origin gets no Access-Control-Allow-Origin through the gateway" \
  bash -c '! grep -q "^access-control-allow-origin" <<<"$1"' _ "$(headers_of -X OPTIONS -H 'Origin: https://evil.example.net' -H 'Access-Control-Request-Method: GET' "$gw$ip_path")"

# {prefix}/metrics: the scraper reads the services directly; the gateway answers 404 (the envelope) in any spelling
metrics=$(contract '.paths.metrics')
not_routed() {
  local prefix path
  for prefix in "$main_prefix" "$device_prefix"; do
    for path in "$prefix$metrics" "$prefix${metrics^^}" "$prefix$metrics/"; do
      expect "$(status "$gw$path")" 404 && expect "$(get "$gw$path" | envelope_of)" '404 null' || { echo "    $path is routed"; return 1; }
    done
    expect "$(status "http://127.0.0.1:$([ "$prefix" = "$main_prefix" ] && echo "$main_port" || echo "$device_port")$prefix$metrics")" 200 || return 1
  done
}
check "gateway answers 404 (envelope) for {prefix}/metrics in any spelling; the services serve it to a direct scraper" not_routed
# the Ingress routes every path the services document, but /metrics (their documents as served now)
get "http://127.0.0.1:$main_port$main_prefix$openapi" >"$tmp/main-doc.json"
get "http://127.0.0.1:$device_port$device_prefix$openapi" >"$tmp/device-doc.json"
node test/deploy/check-ingress-paths.mjs "$tmp/main-doc.json" "$tmp/device-doc.json" >"$tmp/ingress-paths.log" 2>&1
cat "$tmp/ingress-paths.log"
passed=$((passed + $(grep -c '^ok - ' "$tmp/ingress-paths.log")))
failed=$((failed + $(grep -c '^not ok - ' "$tmp/ingress-paths.log")))
grep -q '^\(not \)\?ok - ' "$tmp/ingress-paths.log" || fail "check-ingress-paths.mjs crashed"

# probes through the gateway (no DB_URL here, so ready means SQLite answers)
for prefix in "$main_prefix" "$device_prefix"; do
  for path in "$(contract '.paths.live')" "$(contract '.paths.ready')"; do
    check "probe path $prefix$path answers 200 through the gateway" expect "$(status "$gw$prefix$path")" 200
  done
done

# overload: the same template in a gateway of its own, main-service's upstream a stand-in that the check starts
# (test/deploy/check-gateway-overload.mjs) with UPSTREAM_MAX_CONNS=1, device-service's a port where nothing listens
stand_in_port=$(free_port)
down_port=$(free_port)
gw2_port=$(free_port)
while [ "$(printf '%s\n' "$stand_in_port" "$down_port" "$gw2_port" "$main_port" "$device_port" "$gw_port" | sort -u | wc -l)" != 6 ]; do
  stand_in_port=$(free_port); down_port=$(free_port); gw2_port=$(free_port)
done
gateway_conf "$tmp/nginx-overload" "127.0.0.1:$stand_in_port" "127.0.0.1:$down_port" "127.0.0.1:$gw2_port" 1
start_gateway "$tmp/nginx-overload"
node test/deploy/check-gateway-overload.mjs "http://127.0.0.1:$gw2_port" "$stand_in_port" >"$tmp/overload.log" 2>&1
cat "$tmp/overload.log"
passed=$((passed + $(grep -c '^ok - ' "$tmp/overload.log")))
failed=$((failed + $(grep -c '^not ok - ' "$tmp/overload.log")))
grep -q '^# gateway overload: ' "$tmp/overload.log" || { fail "check-gateway-overload.mjs crashed"; tail -5 "$tmp/nginx-overload/error.log"; }

echo "deploy: $passed passed, $failed failed"
[ "$failed" = 0 ]
