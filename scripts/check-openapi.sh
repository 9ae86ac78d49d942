#!/usr/bin/env bash
# Checks both OpenAPI documents as a client team uses them, for CI (.ci/run) and developers:
#   1. starts the built embedded server (dist/apps/local, `npm run build`; this script builds nothing) on a
#      free port with throw-away SQLite files, and fetches /main-service/v3/api-docs and /device-service/v3/api-docs;
#   2. lints each with Redocly's recommended rules (redocly.yaml): no problem of any severity;
#   3. generates a TypeScript client from each with openapi-typescript and compiles it (tsc --noEmit --strict).
# Ends with "openapi: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/tap.sh

. scripts/lib/embedded-server.sh

services=(main-service device-service)
start_embedded_server
if ! fetch_documents; then
  fail "fetch the OpenAPI documents from the built server"
  echo "openapi: $passed passed, $failed failed"
  exit 1
fi
ok "fetched both OpenAPI documents from the built server"

# lint: every problem is printed, and any problem (error, warning or hint) fails the check
lint() {
  local service=$1 report=$tmp/$1.lint.json
  npx --no-install redocly lint --extends=recommended --format=json --max-problems=10000 "$tmp/$service.json" >"$report" 2>/dev/null
  node -e '
    const problems = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).problems;
    for (const p of problems) console.log(`  ${p.severity} ${p.ruleId} ${p.location?.[0]?.pointer ?? ""}: ${p.message}`);
    console.log(`  ${problems.length} problems`);
    process.exit(problems.length ? 1 : 0);
  ' "$report"
}

# client: generated types must compile on their own (strict), as a consumer's build would
client() {
  local service=$1
  npx --no-install openapi-typescript "$tmp/$service.json" -o "$tmp/$service.ts" >/dev/null 2>"$tmp/$service.gen.log" || {
    cat "$tmp/$service.gen.log"
    return 1
  }
  # from the temporary directory: the project's tsconfig.json must not apply to a client's build
  (cd "$tmp" && "$OLDPWD/node_modules/.bin/tsc" --noEmit --strict --target es2022 --module commonjs "$service.ts")
}

for service in "${services[@]}"; do
  if lint "$service"; then ok "$service: redocly lint (recommended)"; else fail "$service: redocly lint (recommended)"; fi
  if client "$service"; then ok "$service: openapi-typescript client compiles"; else fail "$service: openapi-typescript client compiles"; fi
done

echo "openapi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
