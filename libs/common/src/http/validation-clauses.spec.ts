/**
 * One clause per failing property, with the first rule it breaks: "<property> is required" when missing,
 * then its type, then the other rules; nested properties and list items named by path.
 */
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { Int, Text, TextList } from '../crud/fields/field-rules';
import { render } from '../i18n/message';
import { validationPipe } from './validation';
import { AppException } from './app-exception';

class Sorter {
  @Text({ required: true, max: 8 })
  field: string;
}

class Mail {
  @Text({ required: true, max: 10, format: 'email' })
  fromAddress: string;

  @TextList({ required: true, max: 20, maxItems: 2, format: 'email' })
  toAddresses: string[];

  @Text({ max: 5 })
  subject?: string;

  @Int({ min: 0, max: 9 })
  priority?: number;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => Sorter)
  sorter?: Sorter;
}

async function refusal(body: unknown): Promise<AppException> {
  try {
    await validationPipe(Mail).transform(body, { type: 'body', metatype: Mail });
  } catch (error) {
    return error as AppException;
  }
  throw new Error('accepted');
}

describe('validation clauses', () => {
  it('names each missing property once as required, and a mistyped one by its type (1003)', async () => {
    const e = await refusal({ subject: 123 });
    expect(e.message).toBe('fromAddress is required; toAddresses is required; subject must be a string');
    expect(e.bodyStatus).toBe(1003);
  });

  it('reports the first rule of a present value only: type before length before format', async () => {
    expect((await refusal({ fromAddress: 'x'.repeat(30), toAddresses: ['a@b.cd'] })).message).toBe(
      'fromAddress must be at most 10 characters long',
    );
    expect((await refusal({ fromAddress: 'nope', toAddresses: ['a@b.cd'], priority: '5' })).message).toBe(
      'fromAddress must be an e-mail address; priority must be an integer',
    );
    const range = await refusal({ fromAddress: 'a@b.cd', toAddresses: ['a@b.cd'], priority: 10 });
    expect(range.message).toBe('priority must not be greater than 9');
    expect(range.bodyStatus).toBe(400);
  });

  it('names list items and nested properties by path', async () => {
    expect((await refusal({ fromAddress: 'a@b.cd', toAddresses: ['a@b.cd', 'not mail', 'x@y.zz'] })).message).toBe(
      'toAddresses must contain at most 2 items',
    );
    expect((await refusal({ fromAddress: 'a@b.cd', toAddresses: ['not mail'] })).message).toBe('toAddresses[*] must be an e-mail address');
    expect((await refusal({ fromAddress: 'a@b.cd', toAddresses: ['a@b.cd'], sorter: {} })).message).toBe('sorter.field is required');
  });

  it('composes each clause from a template and its parameters, never from the joined text', async () => {
    const e = await refusal({ fromAddress: 'x'.repeat(30), subject: 5 });
    expect(e.parts.map((p) => p.template)).toEqual([
      '{{property}} must be at most {{max}} characters long',
      '{{property}} is required',
      '{{property}} must be a string',
    ]);
    expect(e.parts.map((p) => render(p))).toEqual([
      'fromAddress must be at most 10 characters long',
      'toAddresses is required',
      'subject must be a string',
    ]);
  });
});
