// Offline checks of docker/ and k8s/ (scripts/check-deploy.sh runs it): schema validation of every
// Kubernetes object, then cross-checks that fail when manifests, gateway, images and apps drift apart.
// Prints one "ok - ..." / "not ok - ..." line per check; exits 1 when any failed.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { covers, ingressRoutes } from './ingress-routes.mjs';
import { schemaErrors, unknownFieldErrors } from './schema.mjs';
import {
  CONFIG_DIR,
  contract,
  kustomize,
  listedResources,
  parseYaml,
  read,
  readmeNames,
  readmeOwners,
  root,
  validatedNames,
} from './sources.mjs';

let failed = 0;
function check(name, problems) {
  const list = problems.filter(Boolean);
  if (list.length) failed++;
  console.log(list.length ? `not ok - ${name}\n    ${list.join('\n    ')}` : `ok - ${name}`);
}
const services = Object.entries(contract.services);
const byKind = (docs, kind) => docs.filter((d) => d.kind === kind);
const named = (docs, kind, name) => docs.find((d) => d.kind === kind && d.metadata?.name === name);

// --- render: kubectl's kustomize when installed, else each listed resource file on its own (no patches)
const rendered = {};
for (const dir of ['k8s/base', 'k8s/overlays/example']) {
  const docs = kustomize(dir);
  if (docs) rendered[dir] = docs;
  else {
    console.log(`# kubectl not installed: ${dir} not rendered, its listed resource files are validated one by one`);
    rendered[dir] = listedResources(dir);
  }
}
// the example with its optional patch applied, as an operator enables it: a kustomization of its own beside
// the cache, so the patch file lies outside its root (hence no load restriction)
const OPTIONAL_PATCH = 'k8s/overlays/example/scale-on-in-flight.yaml';
const withOptional = `k8s/overlays/example + ${OPTIONAL_PATCH.split('/').pop()}`;
{
  const dir = 'node_modules/.cache/check-deploy/scale-on-in-flight';
  const up = relative(join(root, dir), root);
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(
    join(root, dir, 'kustomization.yaml'),
    `resources:\n  - ${up}/k8s/overlays/example\npatches:\n  - path: ${up}/${OPTIONAL_PATCH}\n`,
  );
  const docs = kustomize(dir, '--load-restrictor', 'LoadRestrictionsNone');
  if (docs) rendered[withOptional] = docs;
  else console.log(`# kubectl not installed: ${OPTIONAL_PATCH} not applied`);
}
const secretTemplates = parseYaml(read('k8s/base/secrets.example.yaml'), 'secrets.example.yaml');
const overlay = rendered['k8s/overlays/example'];

// --- schemas (Kubernetes 1.33) and unknown fields
const labelled = [...Object.entries(rendered), ['k8s/base/secrets.example.yaml', secretTemplates]].flatMap(([src, docs]) =>
  docs.map((doc) => ({ doc, label: `${src}: ${doc.kind}/${doc.metadata?.name}` })),
);
const unknown = unknownFieldErrors(labelled);
const schemaProblems = [];
for (const { doc, label } of labelled) schemaProblems.push(...(await schemaErrors(doc)).map((e) => `${label}: ${e}`));
for (const [label, errors] of unknown) schemaProblems.push(...errors.map((e) => `${label}: ${e}`));
check(`${labelled.length} objects valid against the Kubernetes ${contract.kubernetesVersion} schemas, no unknown fields`, schemaProblems);

// --- the apps themselves: prefixes and default ports, nest build outputs
check(
  "contract prefixes and ports are the apps' own (their manifests)",
  services.map(([name, s]) => {
    const manifest = `apps/${name}/src/${name}.manifest.ts`;
    const src = read(manifest);
    return src.includes(`prefix: '${s.prefix.slice(1)}'`) && src.includes(`defaultPort: ${s.port}`)
      ? null
      : `${name}: ${manifest} has no prefix '${s.prefix.slice(1)}' / defaultPort ${s.port}`;
  }),
);
const nest = JSON.parse(read('nest-cli.json'));
check(
  'contract entry points are nest build outputs (nest-cli.json, tsconfig outDir ../../dist)',
  services.flatMap(([name, s]) => {
    const project = nest.projects[name];
    const outDir = JSON.parse(read(`${project.root}/tsconfig.app.json`)).compilerOptions.outDir;
    const main = join(project.root, outDir, `${project.entryFile}.js`).replace(/^\.\.?\/?/, '');
    const migrate = main.replace(/main\.js$/, 'migrate.js');
    return [
      main === s.main ? null : `${name}: nest builds ${main}, contract says ${s.main}`,
      migrate === s.migrate ? null : `${name}: contract migrate ${s.migrate} is not beside ${main}`,
      existsSync(join(root, project.sourceRoot, 'migrate.ts')) ? null : `${name}: no ${project.sourceRoot}/migrate.ts`,
      !existsSync(join(root, 'dist')) || existsSync(join(root, s.main)) ? null : `${name}: ${s.main} missing from the build`,
    ];
  }),
);

// --- Dockerfile
const dockerfile = read('docker/Dockerfile');
const cmd = dockerfile.match(/^CMD (.*)$/m)?.[1] ?? '';
check('Dockerfile CMD runs dist/apps/$APP/src/main.js, the build output of each APP', [
  ...services.map(([name, s]) =>
    cmd.replaceAll('${APP}', name).replaceAll('$APP', name).includes(`node ${s.main}`)
      ? null
      : `CMD "${cmd}" does not run ${s.main} for APP=${name}`,
  ),
  /^USER \d+(:\d+)?$/m.test(dockerfile) ? null : 'runtime USER must be a numeric non-root uid (runAsNonRoot)',
  /^USER 0\b/m.test(dockerfile) ? 'runtime USER is root' : null,
  ...services.map(([, s]) => (new RegExp(`^EXPOSE .*\\b${s.port}\\b`, 'm').test(dockerfile) ? null : `EXPOSE lacks ${s.port}`)),
  read('docker/healthcheck.js').includes(contract.paths.live) ? null : `docker/healthcheck.js does not probe ${contract.paths.live}`,
]);

// --- environment names
const appNames = validatedNames();
const validated = `the configuration namespaces (${CONFIG_DIR})`;
const readme = readmeNames() ?? new Set();
const runtimeEnv = Object.keys(contract.runtimeEnv);
// a library's own variables (OTEL_*): docs/configuration.md lists them, the library validates them
const standard = (n) => contract.standardEnvPrefixes.some((prefix) => n.startsWith(prefix));
const known = (n) => ((appNames.has(n) || standard(n)) && readme.has(n)) || runtimeEnv.includes(n);
const unknownName = (where) => (n) => (known(n) ? null : `${where}: ${n} is not in ${validated} and docs/configuration.md's table`);
check(`${validated} and docs/configuration.md list the same variables`, [
  ...[...appNames].filter((n) => !readme.has(n)).map((n) => `${n} validated by ${validated}, missing from docs/configuration.md`),
  ...[...readme].filter((n) => !appNames.has(n) && !standard(n)).map((n) => `${n} in docs/configuration.md, not validated by ${validated}`),
]);
const configMap = named(overlay, 'ConfigMap', 'back-office-config');
const configMaps = byKind(overlay, 'ConfigMap');
const owners = readmeOwners();
const envOf = (c) => (c.env ?? []).map((e) => e.name);
const workloads = [...byKind(overlay, 'Deployment'), ...byKind(overlay, 'Job')];
const provided = (workload) => {
  const pod = workload.spec.template.spec;
  const names = pod.containers.flatMap(envOf);
  for (const from of pod.containers.flatMap((c) => c.envFrom ?? [])) {
    if (from.configMapRef) names.push(...Object.keys(named(overlay, 'ConfigMap', from.configMapRef.name)?.data ?? {}));
    if (from.secretRef) names.push(...Object.keys(named(secretTemplates, 'Secret', from.secretRef.name)?.stringData ?? {}));
  }
  return new Set(names);
};
check('every env name in ConfigMap, Secrets and workloads is a variable the apps accept', [
  configMap ? null : 'no ConfigMap back-office-config',
  ...configMaps.flatMap((m) => Object.keys(m.data ?? {}).map(unknownName(`ConfigMap ${m.metadata.name}`))),
  ...secretTemplates.flatMap((s) => Object.keys(s.stringData ?? {}).map(unknownName(`Secret ${s.metadata.name}`))),
  ...workloads.flatMap((w) => w.spec.template.spec.containers.flatMap(envOf).map(unknownName(`${w.kind} ${w.metadata.name}`))),
  ...secretTemplates.flatMap((s) =>
    Object.keys(s.stringData ?? {})
      .filter((n) => !contract.secretEnv.includes(n))
      .map((n) => `${n} in a Secret but not in contract secretEnv`),
  ),
  ...configMaps.flatMap((m) =>
    Object.keys(m.data ?? {})
      .filter((n) => contract.secretEnv.includes(n))
      .map((n) => `secret ${n} in ConfigMap ${m.metadata.name}`),
  ),
]);
// docs/configuration.md marks a service's own variables (`main-service: ...`); the others are shared
const belongsTo = (name, service) => (owners.get(name) ?? service) === service;
check("each Deployment gets docs/configuration.md's shared variables and its service's own, and no other service's", [
  ...byKind(overlay, 'Deployment').flatMap((d) => {
    const have = provided(d);
    const service = d.metadata.name;
    // DEVICE_TOKEN_SECRET signs device tokens: device-service's alone
    const want = [...readme, ...runtimeEnv].filter(
      (n) => belongsTo(n, service) && (n !== 'DEVICE_TOKEN_SECRET' || service === 'device-service'),
    );
    return [
      ...[...new Set(want)].filter((n) => !have.has(n)).map((n) => `Deployment ${service} gets no ${n}`),
      ...[...have].filter((n) => !belongsTo(n, service)).map((n) => `Deployment ${service} gets ${n}, a variable of ${owners.get(n)}`),
    ];
  }),
  ...byKind(overlay, 'Job').flatMap((j) => (provided(j).has('DB_URL') ? [] : [`Job ${j.metadata.name} gets no DB_URL`])),
]);

// --- Deployments, Services, probes, scaling
check(
  'Deployments: container port, PORT, probes and scrape annotations agree with the apps',
  services.flatMap(([name, s]) => {
    const d = named(overlay, 'Deployment', name);
    if (!d) return [`no Deployment ${name}`];
    const pod = d.spec.template.spec;
    const c = pod.containers[0];
    const http = c.ports?.find((p) => p.name === 'http');
    const ann = d.spec.template.metadata.annotations ?? {};
    const probe = (p, path) =>
      p?.httpGet?.path === s.prefix + path && p.httpGet.port === 'http'
        ? null
        : `${name}: probe ${JSON.stringify(p?.httpGet)} should GET ${s.prefix}${path} on port http`;
    return [
      http?.containerPort === s.port ? null : `${name}: containerPort http is ${http?.containerPort}, app listens on ${s.port}`,
      c.env?.find((e) => e.name === 'PORT')?.value === String(s.port) ? null : `${name}: env PORT is not ${s.port}`,
      probe(c.startupProbe, contract.paths.live),
      probe(c.livenessProbe, contract.paths.live),
      probe(c.readinessProbe, contract.paths.ready),
      ann['prometheus.io/scrape'] === 'true' &&
      ann['prometheus.io/path'] === s.prefix + contract.paths.metrics &&
      ann['prometheus.io/port'] === String(s.port)
        ? null
        : `${name}: prometheus.io annotations should scrape ${s.prefix}${contract.paths.metrics} on ${s.port}`,
      c.command ? `${name}: the Deployment overrides the image's CMD` : null,
    ];
  }),
);
// kubelet: a probe fails after timeoutSeconds, and acts after failureThreshold failures periodSeconds apart
const probeWindow = (p) => (p?.periodSeconds ?? 10) * (p?.failureThreshold ?? 3);
check(
  'probes: liveness restarts only after a minute without an answer, readiness removes a pod within 15 s',
  byKind(overlay, 'Deployment').flatMap((d) => {
    const c = d.spec.template.spec.containers[0];
    const { livenessProbe: live, readinessProbe: ready } = c;
    const name = d.metadata.name;
    return [
      probeWindow(live) >= 60 ? null : `${name}: liveness restarts after ${probeWindow(live)} s without an answer, want at least 60`,
      (live?.timeoutSeconds ?? 1) >= 5
        ? null
        : `${name}: liveness timeoutSeconds ${live?.timeoutSeconds ?? 1}, want at least 5 (a busy pod answers late)`,
      probeWindow(ready) <= 15 ? null : `${name}: readiness takes ${probeWindow(ready)} s to remove a pod, want at most 15`,
      // the readiness check gives the database 2 s: the probe waits longer, so the service reports a slow database
      (ready?.timeoutSeconds ?? 1) > 2 ? null : `${name}: readiness timeoutSeconds ${ready?.timeoutSeconds ?? 1}, want above 2`,
    ];
  }),
);
const sleepOf = (c) =>
  Number(c.lifecycle?.preStop?.exec?.command?.join(' ').match(/^sleep (\d+)$/)?.[1] ?? c.lifecycle?.preStop?.sleep?.seconds ?? NaN);
check(
  'graceful shutdown: terminationGracePeriodSeconds > preStop sleep + SHUTDOWN_TIMEOUT_MS',
  byKind(overlay, 'Deployment').map((d) => {
    const pod = d.spec.template.spec;
    const sleep = sleepOf(pod.containers[0]);
    const timeout = Number(configMap?.data?.SHUTDOWN_TIMEOUT_MS ?? contract.runtimeEnv.SHUTDOWN_TIMEOUT_MS) / 1000;
    return sleep > 0 && pod.terminationGracePeriodSeconds > sleep + timeout
      ? null
      : `${d.metadata.name}: grace ${pod.terminationGracePeriodSeconds}s vs preStop sleep ${sleep}s + shutdown ${timeout}s`;
  }),
);
check(
  'hardened pods: non-root, read-only root, no capabilities, no escalation, /tmp emptyDir, limits',
  workloads.flatMap((w) => {
    const pod = w.spec.template.spec;
    return pod.containers.flatMap((c) => {
      const sc = c.securityContext ?? {};
      const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
      return [
        (sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) === true ? null : 'runAsNonRoot',
        sc.readOnlyRootFilesystem === true ? null : 'readOnlyRootFilesystem',
        sc.allowPrivilegeEscalation === false ? null : 'allowPrivilegeEscalation: false',
        sc.capabilities?.drop?.includes('ALL') ? null : 'capabilities.drop ALL',
        tmp && pod.volumes?.find((v) => v.name === tmp.name)?.emptyDir ? null : '/tmp on an emptyDir',
        c.resources?.requests?.cpu && c.resources?.requests?.memory && c.resources?.limits?.memory ? null : 'resources requests and limits',
      ]
        .filter(Boolean)
        .map((p) => `${w.kind} ${w.metadata.name}/${c.name}: ${p}`);
    });
  }),
);
check(
  'Services, HPAs and PDBs select the Deployments they belong to',
  services.flatMap(([name, s]) => {
    const d = named(overlay, 'Deployment', name);
    const labels = d?.spec.template.metadata.labels ?? {};
    const selects = (sel) => sel && Object.entries(sel).every(([k, v]) => labels[k] === v);
    const svc = named(overlay, 'Service', name);
    const hpa = named(overlay, 'HorizontalPodAutoscaler', name);
    return [
      selects(svc?.spec.selector) ? null : `Service ${name} does not select Deployment ${name}`,
      svc?.spec.ports.some((p) => p.name === 'http' && (p.targetPort === 'http' || p.targetPort === s.port))
        ? null
        : `Service ${name} has no port http to the container's http`,
      hpa?.spec.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === name
        ? null
        : `HPA ${name} does not scale Deployment ${name}`,
      hpa && hpa.spec.minReplicas >= 2 ? null : `HPA ${name}: minReplicas below 2 leaves the PDB nothing to keep`,
      selects(named(overlay, 'PodDisruptionBudget', name)?.spec.selector.matchLabels)
        ? null
        : `PDB ${name} does not select Deployment ${name}`,
      d?.spec.replicas === undefined ? null : `Deployment ${name} sets replicas, which fights the HPA`,
    ];
  }),
);
// the metric the optional patch scales on must be one the services export (a Prometheus metric of the library)
const libraryFiles = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? libraryFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
const exported = (metric) => libraryFiles('libs/common/src').some((f) => read(f).includes(`name: '${metric}'`));
if (rendered[withOptional]) {
  check(`optional ${OPTIONAL_PATCH}: each HPA keeps CPU and adds a per-pod average of a metric the services export`, [
    read('k8s/overlays/example/kustomization.yaml').includes(`# - path: ${OPTIONAL_PATCH.split('/').pop()}`)
      ? null
      : `k8s/overlays/example/kustomization.yaml does not name ${OPTIONAL_PATCH} (commented out) under patches`,
    ...services.flatMap(([name]) => {
      const metrics = named(rendered[withOptional], 'HorizontalPodAutoscaler', name)?.spec.metrics ?? [];
      const pods = metrics.filter((m) => m.type === 'Pods');
      return [
        metrics.some((m) => m.resource?.name === 'cpu') ? null : `HPA ${name} no longer scales on CPU`,
        pods.length ? null : `HPA ${name} has no Pods metric`,
        ...pods.map((m) =>
          m.pods.target.type === 'AverageValue' && exported(m.pods.metric.name)
            ? null
            : `HPA ${name}: ${m.pods.metric.name} (${m.pods.target.type}) is not an average of a metric of libs/common/src`,
        ),
      ];
    }),
  ]);
}
check(
  "migration Jobs run each service's migrate output with its image and database",
  services.flatMap(([name, s]) => {
    const job = named(overlay, 'Job', `${name}-migrate`);
    const c = job?.spec.template.spec.containers[0];
    const image = named(overlay, 'Deployment', name)?.spec.template.spec.containers[0].image;
    return [
      c?.command?.join(' ') === `node ${s.migrate}` ? null : `Job ${name}-migrate should run node ${s.migrate}`,
      c && c.image === image ? null : `Job ${name}-migrate image ${c?.image} differs from the Deployment's ${image}`,
      job?.spec.template.spec.containers[0].envFrom?.some((f) => f.secretRef?.name === `${name}-secrets`)
        ? null
        : `Job ${name}-migrate does not read ${name}-secrets`,
      // docs/deploying.md "How to deploy" applies component=config, then component=migration, then everything
      job?.metadata.labels?.['app.kubernetes.io/component'] === 'migration' ? null : `Job ${name}-migrate lacks label component=migration`,
      ...(c?.envFrom ?? [])
        .filter((f) => f.configMapRef)
        .map((f) =>
          named(overlay, 'ConfigMap', f.configMapRef.name)?.metadata.labels?.['app.kubernetes.io/component'] === 'config'
            ? null
            : `ConfigMap ${f.configMapRef.name} lacks label component=config`,
        ),
      ...byKind(overlay, 'Namespace').map((n) =>
        n.metadata.labels?.['app.kubernetes.io/component'] === 'config'
          ? null
          : `Namespace ${n.metadata.name} lacks label component=config`,
      ),
    ];
  }),
);

// --- Ingress (the gateway in Kubernetes): public sub-trees of each prefix, never {prefix}/metrics
const ingresses = byKind(overlay, 'Ingress');
const routes = ingressRoutes(overlay);
const serviceOf = (path) => services.find(([, s]) => path === s.prefix || path.startsWith(`${s.prefix}/`));
check('Ingress routes each prefix to its Service and port, not its metrics; device-service also on a host of its own', [
  ingresses.length ? null : 'no Ingress',
  ...routes.map((r) => {
    const entry = serviceOf(r.path);
    const svc = named(overlay, 'Service', r.backend.service.name);
    const port = svc?.spec.ports.find((p) => p.name === r.backend.service.port.name || p.port === r.backend.service.port.number);
    if (!entry) return `${r.host}${r.path}: not under a service prefix`;
    return r.backend.service.name === entry[0] && port && ['Prefix', 'Exact'].includes(r.pathType)
      ? null
      : `${r.host}${r.path} -> ${r.backend.service.name}:${JSON.stringify(r.backend.service.port)} (want ${entry[0]}, a port of its Service, pathType Prefix or Exact)`;
  }),
  ...services.map(([name, s]) =>
    routes.some((r) => r.backend.service.name === name && covers(r, `${s.prefix}${contract.paths.openapi}`))
      ? null
      : `no route for ${s.prefix}`,
  ),
  ...services.flatMap(([, s]) =>
    routes
      .filter((r) => covers(r, s.prefix + contract.paths.metrics))
      .map((r) => `${r.host}${r.path} (${r.pathType}) routes ${s.prefix}${contract.paths.metrics}: it is for the cluster's scraper only`),
  ),
  new Set(routes.filter((r) => r.backend.service.name === 'device-service').map((r) => r.host)).size >= 2
    ? null
    : 'device-service needs a host of its own besides the shared one',
  ...routes.map((r) =>
    ingresses.some((i) => i.spec.tls?.some((t) => t.hosts?.includes(r.host))) ? null : `host ${r.host} has no TLS entry`,
  ),
  ...ingresses.map((i) =>
    parseFloat(i.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size']) >= contract.bodyLimitMb
      ? null
      : `${i.metadata.name}: proxy-body-size below ${contract.bodyLimitMb}m`,
  ),
]);

// --- nginx gateway (docker/) and compose
const template = read('docker/nginx/templates/default.conf.template');
const compose = parseYaml(read('docker/compose.yaml'), 'compose.yaml')[0];
const gatewayEnv = compose.services.gateway?.environment ?? {};
const upstreams = Object.fromEntries([...template.matchAll(/upstream (\w+) \{\s*server \$\{(\w+)\}/g)].map((m) => [m[1], m[2]]));
check('nginx routes each prefix to the upstream of its service and port (compose values)', [
  ...services.map(([name, s]) => {
    const loc = template.match(new RegExp(`location ~ \\^${s.prefix}\\(/\\|\\$\\) \\{\\s*proxy_pass http://(\\w+);`));
    const variable = loc && upstreams[loc[1]];
    const target = variable && gatewayEnv[variable];
    return target === `${name}:${s.port}` ? null : `${s.prefix} -> ${loc?.[1]} -> \${${variable}} = ${target}, want ${name}:${s.port}`;
  }),
  /location \/ \{[^}]*return 404/.test(template) ? null : 'no 404 for unknown prefixes',
  /large_client_header_buffers \d+ (\d+)k;/.test(template) &&
  Number(template.match(/large_client_header_buffers \d+ (\d+)k;/)[1]) >= contract.headerLimitKb
    ? null
    : `large_client_header_buffers below ${contract.headerLimitKb}k (request lines of 1000 ids)`,
  ...services.map(([, s]) => {
    // the first regular-expression location that matches wins: metrics must be refused before the prefix is proxied
    const metrics = s.prefix + contract.paths.metrics;
    const first = [...template.matchAll(/location (~\*?) (\S+) \{([^}]*)\}/g)].find(([, op, re]) =>
      new RegExp(re, op === '~*' ? 'i' : '').test(metrics),
    );
    const upper = first && new RegExp(first[2], first[1] === '~*' ? 'i' : '').test(s.prefix + contract.paths.metrics.toUpperCase());
    return first && /return 404/.test(first[3]) && !/proxy_pass/.test(first[3]) && upper
      ? null
      : `${metrics} (and ${s.prefix}${contract.paths.metrics.toUpperCase()}) must be answered 404 by the gateway before any proxy_pass`;
  }),
  // the nginx image's envsubst leaves a variable compose does not set as it is, and nginx then refuses to start
  ...[...new Set([...template.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]))].map((v) =>
    gatewayEnv[v] !== undefined ? null : `the template uses \${${v}}, which compose's gateway does not set`,
  ),
  // bounded upstreams: max_conns on every server, counted for all workers (a zone)
  ...[...template.matchAll(/^upstream (\w+) \{([\s\S]*?)^\}/gm)].flatMap(([, name, body]) => [
    [...body.matchAll(/^\s*server (.*);/gm)].every((m) => /\bmax_conns=/.test(m[1]))
      ? null
      : `upstream ${name}: a server without max_conns`,
    /^\s*zone \w+/m.test(body) ? null : `upstream ${name}: no zone (max_conns would count per worker)`,
  ]),
  // nginx's own upstream failures answer the envelope with Retry-After; the services' own answers pass
  /error_page 502 503 504 = @(\w+);/.test(template) &&
  new RegExp(
    `location @${template.match(/error_page 502 503 504 = @(\w+);/)[1]} \\{[^}]*add_header Retry-After \\d+ always;[^}]*return 503 '\\{`,
  ).test(template)
    ? null
    : 'error_page 502 503 504 must lead to a named location answering 503 with Retry-After (always) and the envelope',
  /proxy_intercept_errors\s+on/.test(template)
    ? "proxy_intercept_errors on would replace the services' own 503s and their Retry-After"
    : null,
  /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/.test(template) ? null : 'X-Forwarded-For is not appended',
  /proxy_set_header X-Forwarded-Proto /.test(template) ? null : 'no X-Forwarded-Proto',
  /proxy_set_header X-Request-Id /.test(template) ? null : 'no X-Request-Id',
  parseFloat(template.match(/client_max_body_size (\d+)m;/)?.[1]) >= contract.bodyLimitMb
    ? null
    : `client_max_body_size below ${contract.bodyLimitMb}m`,
  // the gateway, not the service, cuts a slow client (nginx's client timeouts default to 60 s)
  ...['client_header_timeout', 'client_body_timeout'].map((name) => {
    const seconds = Number(template.match(new RegExp(`${name} (\\d+)s;`))?.[1] ?? 60);
    const service = Number(configMap?.data?.HTTP_REQUEST_TIMEOUT_MS) / 1000;
    return service > seconds ? null : `HTTP_REQUEST_TIMEOUT_MS (${service} s) must exceed the gateway's ${name} (${seconds} s)`;
  }),
]);
check(
  'compose: services, ports, commands and env names agree with the apps',
  services.flatMap(([name, s]) => {
    const app = compose.services[name];
    const migrate = compose.services[`${name}-migrate`];
    const env = app?.environment ?? {};
    return [
      app?.build?.args?.APP === name ? null : `compose ${name}: build arg APP is not ${name}`,
      String(env.PORT) === String(s.port) ? null : `compose ${name}: PORT is not ${s.port}`,
      migrate?.command?.join(' ') === `node ${s.migrate}` ? null : `compose ${name}-migrate should run node ${s.migrate}`,
      app?.depends_on?.[`${name}-migrate`]?.condition === 'service_completed_successfully'
        ? null
        : `compose ${name} must wait for ${name}-migrate`,
      env.TRUST_PROXY === compose.services.gateway?.networks?.backoffice?.ipv4_address
        ? null
        : `compose ${name}: TRUST_PROXY is not the gateway's address`,
      app?.ports ? `compose ${name} publishes a port: only the gateway may (TRUST_PROXY)` : null,
      ...[...Object.keys(env), ...Object.keys(migrate?.environment ?? {})].map(unknownName(`compose ${name}`)),
      ...Object.keys(env)
        .filter((n) => !belongsTo(n, name))
        .map((n) => `compose ${name} gets ${n}, a variable of ${owners.get(n)}`),
    ];
  }),
);

console.log(`# manifests: ${failed} check(s) failed`);
process.exit(failed ? 1 : 0);
