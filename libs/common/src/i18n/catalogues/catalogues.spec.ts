/**
 * The shipped catalogues: zh-CN and de translate the same templates, keep every placeholder, and cover
 * the validation rules and the Bearer token refusals.
 */
import { TokenRefusal } from '../../auth/token-refusal';
import { VALIDATION_TEMPLATES } from '../../http/validation-clauses';
import { de } from './de';
import { zhCN } from './zh-CN';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('shipped catalogues', () => {
  it('zh-CN and de translate the same templates, none left empty', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(de).sort());
    for (const catalogue of [de, zhCN]) for (const text of Object.values(catalogue)) expect(text.trim()).not.toBe('');
  });

  it('keep the placeholders of each template', () => {
    for (const catalogue of [de, zhCN])
      for (const [template, text] of Object.entries(catalogue))
        expect({ template, got: placeholders(text) }).toEqual({ template, got: placeholders(template) });
  });

  it('cover every validation rule text and every Bearer token refusal', () => {
    const refusals = Object.values(TokenRefusal).map((refuse) => refuse('exp').parts[0].template);
    for (const template of [...VALIDATION_TEMPLATES, ...refusals]) {
      expect({ template, de: template in de }).toEqual({ template, de: true });
      expect({ template, zhCN: template in zhCN }).toEqual({ template, zhCN: true });
    }
  });
});
