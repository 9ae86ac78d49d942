import type { NextFunction, Request, Response } from 'express';
import { AppException } from './app-exception';
import { message } from '../i18n/message';

/**
 * Deepest nesting of objects and arrays a request body may have. No real body comes near it; the
 * bound keeps recursive conversion and validation (class-transformer, class-validator) far from the
 * call-stack limit, which ~5,000 levels of `[[[...]]]` would otherwise reach.
 */
export const MAX_BODY_DEPTH = 32;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/**
 * Strings with a lone UTF-16 surrogate have no UTF-8 form: MariaDB stores them as U+FFFD, so
 * distinct values would collide there. Refused instead of stored differently per engine.
 */
function assertWellFormed(text: string, path: string, what: string): void {
  // String.prototype.isWellFormed (Node 20+) is typed from lib es2024 on
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed())
    throw AppException.validation(message(`{{path}}: ${what} must not contain a lone UTF-16 surrogate`, { path: path || 'body' }));
}

const child = (path: string, key: string, inArray: boolean): string => (inArray ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * Normalises a parsed JSON body in place, in one iterative pass (no recursion, so any depth is safe):
 * - a property whose value is `null` is removed: null means "not given" for every field, as clients
 *   that serialise unset fields as null (Java's defaults) expect; array elements that are null stay,
 *   so a list item is still validated as one;
 * - nesting deeper than MAX_BODY_DEPTH, and lone surrogates in any string value or key, are refused (400).
 */
export function sanitizeBody(body: unknown): void {
  if (!isContainer(body)) return;
  const stack: { value: Container; depth: number; path: string }[] = [{ value: body, depth: 1, path: '' }];
  while (stack.length) {
    const { value, depth, path } = stack.pop()!;
    if (depth > MAX_BODY_DEPTH)
      throw AppException.validation(message('Request body nests deeper than {{max}} levels', { max: MAX_BODY_DEPTH }));
    const inArray = Array.isArray(value);
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (!inArray) assertWellFormed(key, path, 'a property name');
      if (item === null) {
        if (!inArray) delete (value as Record<string, unknown>)[key];
      } else if (typeof item === 'string') assertWellFormed(item, child(path, key, inArray), 'the text');
      else if (isContainer(item)) stack.push({ value: item, depth: depth + 1, path: child(path, key, inArray) });
    }
  }
}

/** Express middleware applying sanitizeBody to whatever a body parser produced; failures go to the envelope filter. */
export function bodySanitizer(req: Request, _res: Response, next: NextFunction): void {
  try {
    sanitizeBody(req.body);
  } catch (error) {
    return next(error);
  }
  next();
}
