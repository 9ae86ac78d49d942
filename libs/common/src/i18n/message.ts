/**
 * A translatable text: an English template with `{{name}}` placeholders (i18next's syntax) and the values
 * to put there. The template is the key under which catalogues and translation entries hold its
 * translations, so an answer is composed from translated parts, never translated as one joined string.
 * A parameter may itself be a Message (a resource's title): it is translated with the rest.
 */
export interface Message {
  template: string;
  params?: Readonly<Record<string, MessageParam>>;
}

export type MessageParam = string | number | Message;

export const message = (template: string, params?: Record<string, MessageParam>): Message => (params ? { template, params } : { template });

/** A translation of a template, or undefined when the language has none (the English template is used then). */
export type TemplateLookup = (template: string) => string | undefined;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Fills a message's template (or its translation) in one pass, so a value containing `{{x}}` stays as it is. */
export function render(m: Message, lookup: TemplateLookup = () => undefined): string {
  const template = lookup(m.template) ?? m.template;
  if (!m.params) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = m.params![name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? render(value, lookup) : String(value);
  });
}

/** The clauses of one answer, joined as the envelope's `error` (and, translated, its `localizedError`). */
export const renderAll = (parts: readonly Message[], lookup?: TemplateLookup): string => parts.map((p) => render(p, lookup)).join('; ');
