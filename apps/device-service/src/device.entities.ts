import { BindingLifecycle } from './binding/binding-lifecycle.entity';
import { REGISTRY_RESOURCES } from './registry/registry.resources';
import { TokenThrottleWindow } from './token/token-throttle.entity';

/** device-service's own tables (the shared library adds its outbox and import batches). */
export const DEVICE_ENTITIES: Function[] = [...REGISTRY_RESOURCES.map((r) => r.resource.entity), BindingLifecycle, TokenThrottleWindow];
