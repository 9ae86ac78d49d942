/** Template parameters: the record's `params`, a JSON object of values. */
export type TemplateParams = Record<string, unknown>;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * Replaces each `{{name}}` with the parameter's value (numbers and booleans as text, other non-strings
 * as JSON); a parameter that is not given renders as nothing. For HTML the values are escaped, so a
 * parameter can never inject markup; the template's own markup is kept.
 */
export function renderTemplate(template: string, params: TemplateParams, format: 'text' | 'html'): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : undefined;
    const text =
      value === undefined || value === null
        ? ''
        : typeof value === 'string'
          ? value
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
    return format === 'html' ? escapeHtml(text) : text;
  });
}

/** `params` text of a record: a JSON object, else no parameters (arrays and unparsable text give none). */
export function parseParams(text: string | null | undefined): TemplateParams {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as TemplateParams) : {};
  } catch {
    return {};
  }
}
