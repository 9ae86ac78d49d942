// What the Ingress routes, as ingress-nginx matches it: shared by check-manifests.mjs (offline) and
// check-ingress-paths.mjs (against the OpenAPI documents of the running services).
import { kustomize, listedResources } from './sources.mjs';

/** Every path rule of every Ingress in the rendered docs, with its host. */
export const ingressRoutes = (docs) =>
  docs.filter((d) => d.kind === 'Ingress').flatMap((i) => i.spec.rules.flatMap((r) => r.http.paths.map((p) => ({ host: r.host, ...p }))));

/**
 * Whether a rule sends `path` to its backend. Compared case-insensitively: ingress-nginx turns every path
 * of a host into a case-insensitive regular expression as soon as one Ingress of that host uses regex,
 * and the services' router ignores case too. Prefix matching is by whole segments, trailing slashes ignored.
 */
export function covers(route, path) {
  const rule = route.path.toLowerCase().replace(/\/+$/, '');
  const target = path.toLowerCase().replace(/\/+$/, '');
  if (route.pathType === 'Exact') return rule === target;
  return target === rule || target.startsWith(`${rule}/`) || rule === '';
}

/** The example overlay rendered (kubectl's kustomize, else its listed files without patches). */
export const renderedOverlay = () => kustomize('k8s/overlays/example') ?? listedResources('k8s/overlays/example');
