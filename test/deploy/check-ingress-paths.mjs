// node test/deploy/check-ingress-paths.mjs <main-service OpenAPI JSON> <device-service OpenAPI JSON>
// (scripts/check-deploy.sh, with the documents the running services serve): every documented path of a
// service is routed by the Ingress on each host that serves that service, except {prefix}/metrics, which
// must not be routed anywhere. Prints "ok - ..." / "not ok - ..." lines; exits 1 on a failure.
import { readFileSync } from 'node:fs';
import { covers, ingressRoutes, renderedOverlay } from './ingress-routes.mjs';
import { contract } from './sources.mjs';

const routes = ingressRoutes(renderedOverlay());
let failed = 0;
for (const [index, [name, s]] of Object.entries(contract.services).entries()) {
  const doc = JSON.parse(readFileSync(process.argv[2 + index], 'utf8'));
  const metrics = s.prefix + contract.paths.metrics;
  const hosts = [...new Set(routes.filter((r) => r.backend.service.name === name).map((r) => r.host))];
  // a path parameter stands for one segment; any value does
  const paths = Object.keys(doc.paths ?? {}).map((p) => p.replace(/\{[^}]+\}/g, 'x'));
  // the documents and Swagger UI are not in the document itself
  const documented = [...paths, s.prefix + contract.paths.openapi, s.prefix + contract.paths.swaggerUi];
  const problems = [
    paths.length ? null : `${name}: its OpenAPI document has no paths`,
    ...hosts.flatMap((host) =>
      documented
        .filter((p) => p.toLowerCase() !== metrics.toLowerCase())
        .filter((p) => !routes.some((r) => r.host === host && r.backend.service.name === name && covers(r, p)))
        .map((p) => `${host}${p} is not routed to ${name}`),
    ),
    ...routes
      .filter((r) => covers(r, metrics))
      .map((r) => `${r.host}${r.path} (${r.pathType}) routes ${metrics} to ${r.backend.service.name}`),
  ].filter(Boolean);
  if (problems.length) failed++;
  console.log(
    problems.length
      ? `not ok - Ingress routes every documented path of ${name} but ${metrics}\n    ${problems.slice(0, 20).join('\n    ')}`
      : `ok - Ingress routes every documented path of ${name} (${documented.length}) on ${hosts.join(', ')}, but not ${metrics}`,
  );
}
process.exit(failed ? 1 : 0);
