// Offline validation of Kubernetes objects with kubernetes-models (generated from the upstream OpenAPI
// schemas of Kubernetes 1.33): its JSON-schema validators check types, enums and required fields; its
// TypeScript interfaces, compiled with tsc, reject unknown fields (JSON schema there allows them).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract, root } from './sources.mjs';

const modulePath = ({ apiVersion, kind }) => `kubernetes-models/${apiVersion}/${kind}`;

/** Schema errors of one object ([] when valid). */
export async function schemaErrors(doc) {
  if (!contract.apiVersions.includes(doc.apiVersion)) {
    return [
      `${doc.apiVersion} is not among the GA APIs served by Kubernetes ${contract.kubernetesVersion} that we use (contract.json apiVersions)`,
    ];
  }
  let Model;
  try {
    Model = (await import(modulePath(doc)))[doc.kind];
  } catch {
    return [`no schema for ${doc.apiVersion} ${doc.kind}`];
  }
  try {
    new Model(doc).validate();
    return [];
  } catch (e) {
    return [String(e.message ?? e)];
  }
}

/** Unknown-field errors per object label, from one tsc run over all objects. */
export function unknownFieldErrors(labelled) {
  const dir = join(root, 'node_modules/.cache/check-deploy');
  mkdirSync(dir, { recursive: true });
  const names = labelled.map((_, i) => `m${i}`);
  const lines = labelled.flatMap(({ doc }, i) => [
    `import type { I${doc.kind} as T${i} } from '${modulePath(doc)}';`,
    `export const ${names[i]}: T${i} = ${JSON.stringify(doc, null, 1)};`,
  ]);
  const file = join(dir, 'manifests.ts');
  writeFileSync(file, lines.join('\n') + '\n');
  const starts = [];
  lines
    .join('\n')
    .split('\n')
    .forEach((l, n) => {
      if (l.startsWith('export const m')) starts.push(n + 1);
    });
  // no @types: only the manifests and the kubernetes-models declarations they import
  const compilerOptions = {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    module: 'commonjs',
    moduleResolution: 'node10',
    ignoreDeprecations: '6.0',
    target: 'es2022',
    types: [],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['manifests.ts'] }));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    return new Map();
  } catch (e) {
    const errors = new Map();
    for (const m of String(e.stdout).matchAll(/manifests\.ts\((\d+),\d+\): error (TS\d+: .*)/g)) {
      const i = starts.filter((s) => s <= Number(m[1])).length - 1;
      const label = i >= 0 ? labelled[i].label : 'manifests.ts';
      errors.set(label, [...(errors.get(label) ?? []), m[2]]);
    }
    if (!errors.size) errors.set('tsc', [String(e.stdout || e.message).slice(0, 500)]);
    return errors;
  }
}
