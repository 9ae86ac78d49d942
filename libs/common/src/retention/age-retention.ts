import { Provider } from '@nestjs/common';
import type { ConfigClass } from '../config/environment';
import { fieldsOf } from '../crud/fields/field-registry';
import type { AnyResource } from '../crud/fields/resource';

/**
 * Resources whose records are removed once their main time field (`timeRange`) is older than `days`,
 * live or not (reports and readings, which would otherwise grow without end). Found by the
 * retention job among the app's providers: see `retainByAge`.
 */
export class AgeRetention {
  constructor(
    readonly resources: AnyResource[],
    /** Unset: kept forever. */
    readonly days: number | undefined,
  ) {
    for (const resource of resources) {
      if (!resource.timeRange) throw new Error(`${resource.path}: retention by age needs the resource's main time field (timeRange)`);
      // a time far ahead would keep its record past any period: only a time bounded to now can go by age
      const field = fieldsOf(resource.entity).find((f) => f.property === resource.timeRange);
      if (!field?.past)
        throw new Error(`${resource.path}: retention by age needs ${resource.timeRange} declared Field.time({ past: true })`);
    }
  }
}

export interface AgeRetentionOptions<C extends object> {
  resources: AnyResource[];
  /** The configuration namespace that holds the period. */
  config: ConfigClass<C>;
  /** The period in days, read from that namespace; undefined keeps the records. */
  days: (config: C) => number | undefined;
}

/** The provider an app registers (in any of its modules) to have the given resources' records removed by age. */
export function retainByAge<C extends object>({ resources, config, days }: AgeRetentionOptions<C>): Provider {
  return {
    provide: Symbol(`AgeRetention ${resources.map((r) => r.path).join(', ')}`),
    useFactory: (values: C) => new AgeRetention(resources, days(values)),
    inject: [config],
  };
}
