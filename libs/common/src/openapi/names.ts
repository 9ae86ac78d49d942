import { operations } from './paths';
import { tagDescription } from './tags';

// an OpenAPI document is walked as plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const lowerCamel = (segment: string) => segment.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const upperFirst = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Operation ids a person would write: the resource (the path segment before the operation) and the
 * operation, lowerCamel (`orderItemSave`), path parameters left out; where two operations would share one, earlier path
 * segments are added to both until they differ. Two words at least, so never a reserved word alone.
 */
export function nameOperations(document: Json): void {
  // path parameters (`{ns}.json`) name no operation: the segments before them do
  const words = (path: string) =>
    path
      .split('/')
      .filter((segment) => segment && !segment.includes('{'))
      .map(lowerCamel);
  const ops = [...operations(document)].map((o) => ({ ...o, words: words(o.path) }));
  const idOf = (words: string[], length: number) => {
    const used = words.slice(-length);
    return used[0] + used.slice(1).map(upperFirst).join('');
  };
  const lengths = ops.map(() => 2);
  for (let changed = true; changed;) {
    changed = false;
    const ids = ops.map((o, i) => idOf(o.words, lengths[i]));
    ops.forEach((o, i) => {
      const clash = ids.some((id, j) => j !== i && id === ids[i]);
      if (clash && lengths[i] < o.words.length) {
        lengths[i]++;
        changed = true;
      }
    });
  }
  ops.forEach((o, i) => (o.op.operationId = idOf(o.words, lengths[i])));
}

/** Every tag the operations use, in order of first use, with its ApiTag description. */
export function describeTags(document: Json): void {
  const used = [...new Set([...operations(document)].flatMap(({ op }) => (op.tags ?? []) as string[]))];
  document.tags = used.map((name) => ({ name, description: tagDescription(name) ?? name }));
}
