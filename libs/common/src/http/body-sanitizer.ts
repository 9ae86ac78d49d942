import { TimeSlice } from '../background/time-slice';
import { AppException } from './app-exception';
import { message } from '../i18n/message';

/** Containers and values walked between two looks at the clock. */
const STEPS_PER_CHECK = 1024;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** A container still to be walked, and where it sits (its parent and its key there), for naming it in an error. */
interface Frame {
  value: Container;
  parent?: Frame;
  key?: string | number;
}

/**
 * Where a value sits, as `[0].x.list[1]`: built only for an error, by walking up from its container.
 * `key` names the value inside `frame`; without it, the path is that of the container itself.
 */
function pathOf(frame: Frame, key?: string | number): string {
  const steps: { inArray: boolean; key: string | number }[] = [];
  if (key !== undefined) steps.push({ inArray: Array.isArray(frame.value), key });
  for (let f = frame; f.parent; f = f.parent) steps.push({ inArray: Array.isArray(f.parent.value), key: f.key! });
  let path = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    path = step.inArray ? `${path}[${step.key}]` : path ? `${path}.${step.key}` : String(step.key);
  }
  return path;
}

/**
 * Strings with a lone UTF-16 surrogate have no UTF-8 form: MariaDB stores them as U+FFFD, so
 * distinct values would collide there. Refused instead of stored differently per engine.
 */
function assertWellFormed(text: string, frame: Frame, key: string | number | undefined, what: string): void {
  // String.prototype.isWellFormed (Node 20+) is typed from lib es2024 on
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed())
    throw AppException.validation(
      message(`{{path}}: ${what} must not contain a lone UTF-16 surrogate`, { path: pathOf(frame, key) || 'body' }),
    );
}

/**
 * Normalises a parsed JSON body in place, in one iterative pass (no recursion, so any depth is safe):
 * - a property whose value is `null` is removed: null means "not given" for every field, as clients
 *   that serialise unset fields as null (Java's defaults) expect; array elements that are null stay,
 *   so a list item is still validated as one;
 * - lone surrogates in any string value or key are refused (400).
 * (Depth and size were bounded before the body was parsed: request-body.ts.)
 * Arrays are walked by index and no path is built unless an error names one: an import's body holds up to
 * a million values, and building a path string per value was most of the time spent on such a body. A long
 * walk gives the event loop a turn every few milliseconds (TimeSlice).
 */
export async function sanitizeBody(body: unknown): Promise<void> {
  const slice = new TimeSlice();
  for (const _ of walk(body)) await slice.pause();
}

/**
 * sanitizeBody for a body known to be small (its JSON text at most SMALL_BODY_BYTES): the same pass, in one
 * go, with no promise or clock in the way of a record's save.
 */
export function sanitizeSmallBody(body: unknown): void {
  for (const _ of walk(body));
}

/** Largest JSON text whose sanitizing runs in one go: a few thousand values, well under a millisecond. */
export const SMALL_BODY_BYTES = 16 * 1024;

/** sanitizeBody's pass; it yields every STEPS_PER_CHECK containers and values, where a long walk may pause. */
function* walk(body: unknown): Generator<void, void, undefined> {
  if (!isContainer(body)) return;
  const stack: Frame[] = [{ value: body }];
  let steps = 0;
  while (stack.length) {
    const frame = stack.pop()!;
    if (++steps % STEPS_PER_CHECK === 0) yield;
    const { value } = frame;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (++steps % STEPS_PER_CHECK === 0) yield;
        const item = value[i];
        if (typeof item === 'string') assertWellFormed(item, frame, i, 'the text');
        else if (isContainer(item)) stack.push({ value: item, parent: frame, key: i });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (++steps % STEPS_PER_CHECK === 0) yield;
      const item = value[key];
      assertWellFormed(key, frame, undefined, 'a property name');
      if (item === null) delete value[key];
      else if (typeof item === 'string') assertWellFormed(item, frame, key, 'the text');
      else if (isContainer(item)) stack.push({ value: item, parent: frame, key });
    }
  }
}
