// Where a sampled heap profile (bench/heap-sampling.mjs) allocated its bytes: the total, the bytes of the services'
// own code and of the bare handler, and the functions that allocated most, by self size.
// Usage: node bench/heap-top.mjs /tmp/heap-<pid>.json [how many functions, default 30]
import { readFileSync } from 'node:fs';

const [file, count = '30'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const bySite = new Map();
const byPart = { total: 0, service: 0, bare: 0 };
const short = (url) =>
  url
    .replace(/.*node_modules\//, '')
    .replace(/.*\/dist\//, 'dist/')
    .replace(/.*\/bench\//, 'bench/');
(function walk(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const site = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  byPart.total += node.selfSize;
  if (url.includes('/dist/')) byPart.service += node.selfSize;
  if (url.includes('/bench/bare/')) byPart.bare += node.selfSize;
  node.children.forEach(walk);
})(profile.head);
const mb = (bytes) => (bytes / 1e6).toFixed(1);
console.log(
  `allocated ${mb(byPart.total)} MB; in the services' own code ${mb(byPart.service)} MB, in the bare handler's ${mb(byPart.bare)} MB`,
);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
  console.log(`${((100 * bytes) / byPart.total).toFixed(1).padStart(5)} %  ${site}`);
