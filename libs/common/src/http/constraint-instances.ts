import { useContainer } from 'class-validator';

/** The rule instances by class, once kept (exported for its spec). */
export const constraintInstances = new WeakMap<object, unknown>();

let kept = false;

/**
 * class-validator makes one instance of each rule's class (every IsString, MaxLength or ValidateBy applied to a
 * property is a class of its own) and, left to its default container, finds that instance again for every
 * check of every value by a linear search through all of them. A service declares a few thousand rules, so
 * that search took most of the time spent validating a body. Through the library's public container hook the
 * instance is found in a map instead: still one instance per class, made on first use. Process-wide, like
 * the library's default container.
 */
export function keepConstraintInstances(): void {
  if (kept) return;
  kept = true;
  useContainer({
    get(someClass: new () => unknown): unknown {
      let instance = constraintInstances.get(someClass);
      if (instance === undefined) constraintInstances.set(someClass, (instance = new someClass()));
      return instance;
    },
  });
}
