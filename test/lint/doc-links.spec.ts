/**
 * The links of README.md and docs/*.md: every relative link names a file of the repository, and every `#anchor`
 * one of the target's headings (as GitHub makes anchors of them), so a reader moving between the documents never
 * lands on nothing. Links inside code blocks are not links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2, ... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** The text without fenced code blocks; withoutCode: nor inline code. */
const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

function brokenLinks(document: string): string[] {
  const markdown = readFileSync(join(ROOT, document), 'utf8');
  const broken: string[] = [];
  for (const [, target] of withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
    const [path, anchor] = target.split('#');
    const file = path ? join(dirname(join(ROOT, document)), decodeURIComponent(path)) : join(ROOT, document);
    if (!existsSync(file)) {
      broken.push(`${document}: ${target} (no ${relative(ROOT, file)})`);
      continue;
    }
    if (anchor && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(anchor))
      broken.push(`${document}: ${target} (no heading #${anchor})`);
  }
  return broken;
}

it.each(DOCUMENTS)('%s: every relative link and anchor resolves', (document) => {
  expect(brokenLinks(document)).toEqual([]);
});

it('README.md stays a page a person reads: at most 20 KB, the rest in docs/', () => {
  expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(20 * 1024);
});
