import type { EntityClass } from '@app/common';
import { BindingLifecycle } from './binding/binding-lifecycle.entity';
import { REGISTRY_RESOURCES } from './registry/registry.resources';

/** device-service's own tables (the shared library adds its outbox and import batches). */
export const DEVICE_ENTITIES: EntityClass[] = [...REGISTRY_RESOURCES.map((r) => r.resource.entity), BindingLifecycle];
