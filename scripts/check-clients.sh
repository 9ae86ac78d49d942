#!/usr/bin/env bash
# Generated clients against the running service, for CI (.ci/run) and developers:
#   1. starts the built embedded server (dist/apps/local, `npm run build`; this script builds nothing) on a
#      free loopback port with throw-away SQLite files, and fetches both OpenAPI documents;
#   2. Java: generates a client from each document with OpenAPI Generator (`-g java --library native`; the
#      generator jar and the client's dependencies are fetched once into ~/.m2 with Maven), compiles them and
#      test/clients/java/RoundTrip.java with javac, and runs the round trip;
#   3. TypeScript: generates the types of each document with openapi-typescript (--default-non-nullable=false), compiles
#      test/clients/typescript/round-trip.ts with them (tsc --strict), and runs the round trip.
# Each round trip prints one "ok"/"not ok" line per check. Ends with "clients: N passed, N failed";
# exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/tap.sh

GENERATOR_VERSION=7.25.0
generator_jar=~/.m2/repository/org/openapitools/openapi-generator-cli/$GENERATOR_VERSION/openapi-generator-cli-$GENERATOR_VERSION.jar
. scripts/lib/embedded-server.sh

finish() {
  echo "clients: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# counts the "ok"/"not ok" lines a round-trip program printed (and prints them)
count() {
  local output=$1
  cat "$output"
  passed=$((passed + $(grep -c '^ok - ' "$output")))
  failed=$((failed + $(grep -c '^not ok - ' "$output")))
}

start_embedded_server
if ! fetch_documents; then
  fail "fetch the OpenAPI documents from the built server"
  finish
fi
ok "fetched both OpenAPI documents from the built server"

# an administrator of a tenant of its own, signed with the secret the server verifies (same environment)
token=$(node dist/apps/main-service/src/mint-token.js --tenant clients --user ci --roles administrator)
run=$(date +%s)$$

java_client() {
  if [ ! -f "$generator_jar" ]; then
    mvn -q dependency:get -Dartifact="org.openapitools:openapi-generator-cli:$GENERATOR_VERSION" -Dtransitive=false || return 1
  fi
  # offline once everything is in ~/.m2 (no update checks); online the first time
  mvn -q -o -f test/clients/java/pom.xml dependency:build-classpath -Dmdep.outputFile="$tmp/java.classpath" >/dev/null 2>&1 ||
    mvn -q -f test/clients/java/pom.xml dependency:build-classpath -Dmdep.outputFile="$tmp/java.classpath" >"$tmp/mvn.log" 2>&1 ||
    { cat "$tmp/mvn.log"; return 1; }
  local service package pids=()
  for service in main device; do
    java -jar "$generator_jar" generate -i "$tmp/$service-service.json" -g java --library native -o "$tmp/java-$service" \
      --invoker-package "backoffice.$service" --api-package "backoffice.$service.api" --model-package "backoffice.$service.model" \
      --additional-properties=hideGenerationTimestamp=true \
      --global-property apiTests=false,modelTests=false,apiDocs=false,modelDocs=false >"$tmp/java-$service.log" 2>&1 &
    pids+=($!)
  done
  for package in "${pids[@]}"; do wait "$package" || { cat "$tmp"/java-*.log | grep -E 'ERROR|Exception' | head -20; return 1; }; done
  # every generated class, not only those the round trip uses: the whole client must compile for its users
  find "$tmp/java-main/src/main/java" "$tmp/java-device/src/main/java" -name '*.java' >"$tmp/java.sources"
  echo test/clients/java/RoundTrip.java >>"$tmp/java.sources"
  javac -nowarn -encoding UTF-8 -cp "$(cat "$tmp/java.classpath")" -d "$tmp/java-classes" "@$tmp/java.sources" 2>&1 |
    grep -v '^Note:' | head -40
  [ "${PIPESTATUS[0]}" -eq 0 ]
}

if java_client; then
  ok "java: clients generated (OpenAPI Generator $GENERATOR_VERSION, java native) and compiled"
  java -cp "$tmp/java-classes:$(cat "$tmp/java.classpath")" RoundTrip "$base" "$token" "$run" >"$tmp/java.out" 2>&1
  java_status=$?
  count "$tmp/java.out"
  if [ "$java_status" -ne 0 ] && ! grep -q '^not ok' "$tmp/java.out"; then fail "java: round trip ended early (exit $java_status)"; fi
else
  fail "java: clients generated (OpenAPI Generator $GENERATOR_VERSION, java native) and compiled"
fi

typescript_client() {
  local service
  mkdir -p "$tmp/ts"
  for service in main-service device-service; do
    # --default-non-nullable=false: a save body's `default` is what a create stores when the field is
    # omitted; by default openapi-typescript would type such fields as required
    npx --no-install openapi-typescript "$tmp/$service.json" --default-non-nullable=false -o "$tmp/ts/$service.ts" \
      >/dev/null 2>"$tmp/$service.gen.log" ||
      { cat "$tmp/$service.gen.log"; return 1; }
  done
  cp test/clients/typescript/round-trip.ts "$tmp/ts/"
  # from the temporary directory: the project's tsconfig.json must not apply to a client's build
  (cd "$tmp/ts" && "$OLDPWD/node_modules/.bin/tsc" --strict --skipLibCheck --target es2022 --module commonjs --types node \
    --typeRoots "$OLDPWD/node_modules/@types" --outDir out round-trip.ts)
}

if typescript_client; then
  ok "typescript: types generated (openapi-typescript) and the round trip compiled (tsc --strict)"
  node "$tmp/ts/out/round-trip.js" "$base" "$token" "$run" >"$tmp/ts.out" 2>&1
  ts_status=$?
  count "$tmp/ts.out"
  if [ "$ts_status" -ne 0 ] && ! grep -q '^not ok' "$tmp/ts.out"; then fail "typescript: round trip ended early (exit $ts_status)"; fi
else
  fail "typescript: types generated (openapi-typescript) and the round trip compiled (tsc --strict)"
fi

finish
