import { PickType } from '@nestjs/swagger';
import { IsInt, IsString, MaxLength, validateSync } from 'class-validator';
import { getMetadataStorage } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

cacheValidationMetadata();

const failedRules = (o: object) => validateSync(o).flatMap((e) => Object.keys(e.constraints ?? {}).map((rule) => `${e.property}:${rule}`));

describe('cacheValidationMetadata', () => {
  it('answers the same rules as before, per class, and the same object for repeated lookups', () => {
    class Base {
      @IsString() name!: unknown;
    }
    class Child extends Base {
      @IsInt() size!: unknown;
    }
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['name', 'size']);
    expect(failedRules(Object.assign(new Child(), { name: 1, size: 'x' })).sort()).toEqual(['name:isString', 'size:isInt']);
    expect(failedRules(Object.assign(new Base(), { name: 1, size: 'x' }))).toEqual(['name:isString']);
  });

  it('sees rules registered after a class was first validated (a mapped type made later, a decorator added later)', () => {
    class Source {
      @IsString() @MaxLength(3) code!: unknown;
      @IsInt() rank!: unknown;
    }
    expect(failedRules(Object.assign(new Source(), { code: 'long', rank: 1 }))).toEqual(['code:maxLength']);
    class Picked extends PickType(Source, ['code'] as const) {}
    expect(failedRules(Object.assign(new Picked(), { code: 'long' }))).toEqual(['code:maxLength']);
    IsInt()(Source.prototype, 'extra');
    expect(failedRules(Object.assign(new Source(), { code: 'ok', rank: 1, extra: 'x' }))).toEqual(['extra:isInt']);
  });

  it('is installed once however often it is called', () => {
    const storage = getMetadataStorage();
    const lookup = storage.getTargetValidationMetadatas;
    cacheValidationMetadata();
    expect(storage.getTargetValidationMetadatas).toBe(lookup);
  });
});
