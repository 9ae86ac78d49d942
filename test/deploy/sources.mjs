// Reads what the deployment checks compare: the contract, rendered manifests, and the names the apps accept.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const read = (path) => readFileSync(join(root, path), 'utf8');
export const contract = JSON.parse(read('test/deploy/contract.json'));

/** Every YAML document of a text, as plain objects; a YAML error throws with the file name. */
export function parseYaml(text, name) {
  // merge: compose files share blocks with YAML merge keys (<<)
  return parseAllDocuments(text, { merge: true })
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${name}: ${doc.errors[0].message}`);
      return doc.toJS({ maxAliasCount: 1000 });
    })
    .filter((d) => d && typeof d === 'object');
}

// KUBECTL=/nonexistent exercises the fallback below
const kubectlBin = process.env.KUBECTL || 'kubectl';
let kubectl;
/** Renders a kustomization with kubectl's built-in kustomize (extra flags after it); null when kubectl is not installed. */
export function kustomize(dir, ...flags) {
  if (kubectl === undefined) {
    try {
      execFileSync(kubectlBin, ['version', '--client'], { stdio: 'ignore' });
      kubectl = true;
    } catch {
      kubectl = false;
    }
  }
  if (!kubectl) return null;
  return parseYaml(execFileSync(kubectlBin, ['kustomize', join(root, dir), ...flags], { encoding: 'utf8' }), dir);
}

/** Without kubectl: the resource files a kustomization lists (recursively), patches not applied. */
export function listedResources(dir) {
  const k = parseYaml(read(join(dir, 'kustomization.yaml')), dir)[0];
  return (k.resources ?? []).flatMap((r) => {
    const path = join(dir, r);
    return existsSync(join(root, path, 'kustomization.yaml')) ? listedResources(path) : parseYaml(read(path), path);
  });
}

/** Where every environment variable is listed, in one table. */
export const CONFIGURATION_DOC = 'docs/configuration.md';

/** Upper-case names in backticks in the first column of a markdown table between two headings. */
function tableNames(markdown, heading) {
  const start = markdown.indexOf(heading);
  if (start < 0) return null;
  const section = markdown.slice(start + heading.length).split(/\n#{1,3} /)[0];
  const names = section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => l.split('|')[1].match(/`([A-Z][A-Z0-9_]+)`/g) ?? []);
  return new Set(names.map((n) => n.slice(1, -1)));
}

export const readmeNames = () => tableNames(read(CONFIGURATION_DOC), '# Configuration');

/** The service a variable of the configuration table (docs/configuration.md) belongs to (its meaning starts `main-service:` or `device-service:`); shared ones are absent. */
export function readmeOwners() {
  const markdown = read(CONFIGURATION_DOC);
  const owners = new Map();
  for (const line of markdown.slice(markdown.indexOf('# Configuration')).split(/\n## /)[0].split('\n')) {
    if (!line.startsWith('| `')) continue;
    const [, names, meaning] = line.split('|');
    const owner = meaning.trim().match(/^(main-service|device-service):/)?.[1];
    if (owner) for (const name of names.match(/`([A-Z][A-Z0-9_]+)`/g) ?? []) owners.set(name.slice(1, -1), owner);
  }
  return owners;
}

export const CONFIG_DIR = 'libs/common/src/config';

/** The variables the apps validate: every `@Env('NAME')` of the configuration namespaces (CONFIG_DIR/*.config.ts and the apps' own *.config.ts). */
export function validatedNames() {
  const library = readdirSync(join(root, CONFIG_DIR))
    .filter((f) => f.endsWith('.config.ts'))
    .map((f) => join(CONFIG_DIR, f));
  const apps = readdirSync(join(root, 'apps'), { recursive: true })
    .filter((f) => f.endsWith('.config.ts'))
    .map((f) => join('apps', f));
  return new Set([...library, ...apps].flatMap((f) => [...read(f).matchAll(/@Env\('([A-Z][A-Z0-9_]+)'\)/g)].map((m) => m[1])));
}
