import { getMetadataStorage, ValidateBy, validateSync } from 'class-validator';
import { constraintInstances, keepConstraintInstances } from './constraint-instances';

keepConstraintInstances();

const failedRules = (o: object) => validateSync(o).flatMap((e) => Object.keys(e.constraints ?? {}).sort());
const rule = (name: string, test: (value: unknown) => boolean) => ValidateBy({ name, validator: { validate: test } });

class Amount {
  @rule('even', (v) => typeof v === 'number' && v % 2 === 0)
  @rule('positive', (v) => typeof v === 'number' && v > 0)
  value!: unknown;
}

describe('keepConstraintInstances', () => {
  it('validates as before', () => {
    expect(failedRules(Object.assign(new Amount(), { value: 4 }))).toEqual([]);
    expect(failedRules(Object.assign(new Amount(), { value: 3 }))).toEqual(['even']);
    expect(failedRules(Object.assign(new Amount(), { value: -3 }))).toEqual(['even', 'positive']);
  });

  it("answers class-validator's lookups of rule instances from its map, one instance per rule class", () => {
    keepConstraintInstances(); // a second call changes nothing
    const classes = getMetadataStorage()
      .getTargetValidationMetadatas(Amount, '', false, false)
      .map((metadata) => metadata.constraintCls);
    expect(classes).toHaveLength(2);
    // class-validator asked the map for each rule's instance: left to its own container, the map would not hold them
    for (const cls of classes) expect(constraintInstances.has(cls)).toBe(true);
    const instances = classes.map((cls) => constraintInstances.get(cls));
    failedRules(Object.assign(new Amount(), { value: 1 }));
    expect(classes.map((cls) => constraintInstances.get(cls))).toEqual(instances);
    expect(new Set(instances).size).toBe(2);
  });
});
