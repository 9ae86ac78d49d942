import { BaseRecord, CrudService, TenantScope } from '@app/common';
import { DECORATORS } from '@nestjs/swagger';
import { AddressGuard } from './delivery/address-guard';

type Row = Record<string, unknown>;

/** What guards the writes of a sender configuration (e-mail or SMS): where it connects, and what goes there. */
export interface SenderConfigRules<E extends BaseRecord> {
  idField: keyof E & string;
  /** The field naming the destination, and the host it names in a write body (undefined when absent). */
  destinationField: keyof E & string;
  hostOf(value: unknown): string | undefined;
  /**
   * The configuration's list of fields that say where the secret goes, how it travels, or in whose name it is
   * used: an update that changes one (to a value other than the stored one) clears the stored secret unless the
   * same request gives it, so whoever may edit a configuration but was never told its secret cannot have it sent
   * somewhere else, in clear, or on behalf of someone else.
   */
  boundFields: readonly (keyof E & string)[];
  secretField: keyof E & string;
  /** What the secret column holds once cleared (the SMS secret's column is NOT NULL: empty). */
  clearedSecret: null | '';
}

/**
 * `crud` with save and updateById checked first: the destination must pass the address guard, and an update
 * that changes a bound field without giving the secret clears it. The other operations are crud's own (the
 * sender configurations have no importList; a save never changes a stored record: an id in use is refused).
 */
export function guardedSenderConfig<E extends BaseRecord>(
  crud: CrudService<E>,
  guard: AddressGuard,
  rules: SenderConfigRules<E>,
): CrudService<E> {
  const checkDestination = async (body: Row) => {
    const host = rules.hostOf(body[rules.destinationField]);
    if (host) await guard.checkOnSave(rules.destinationField, host);
  };
  return Object.assign(Object.create(crud) as CrudService<E>, {
    save: async (body: object, scope = TenantScope.current()) => {
      await checkDestination(body as Row);
      return crud.save(body, scope);
    },
    updateById: async (body: object, scope = TenantScope.current()) => {
      await checkDestination(body as Row);
      return crud.updateById(await withSecretRule(crud, rules, body as Row, scope), scope);
    },
  });
}

/** The rule in the words of the API documentation. */
export function secretRuleText<E extends BaseRecord>(rules: SenderConfigRules<E>): string {
  return (
    `Changing any of ${rules.boundFields.join(', ')} (to a value other than the stored one) without giving ` +
    `${rules.secretField} in the same request clears the stored ${rules.secretField}: these fields decide where it ` +
    'goes, how it travels and in whose name it is used, so an editor who was never told it cannot have it sent elsewhere.'
  );
}

/**
 * Puts the secret rule in front of the OpenAPI description of the controller's updateById. The standard routes
 * are generated for each resource (CrudController), so the handler documented here is this resource's own.
 */
export function DocumentSecretRule<E extends BaseRecord>(rules: SenderConfigRules<E>): ClassDecorator {
  return (target) => {
    const handler = (target.prototype as Record<string, object>).updateById;
    const operation = (Reflect.getMetadata(DECORATORS.API_OPERATION, handler) ?? {}) as { description?: string };
    const description = [secretRuleText(rules), operation.description].filter(Boolean).join('\n\n');
    Reflect.defineMetadata(DECORATORS.API_OPERATION, { ...operation, description }, handler);
  };
}

/**
 * The update body, with the secret cleared when a bound field changes and no secret is given. The stored
 * record's revision joins the body (unless the caller sent one): the update then applies to the very record
 * compared, or answers 409 if someone changed it meanwhile.
 */
async function withSecretRule<E extends BaseRecord>(
  crud: CrudService<E>,
  rules: SenderConfigRules<E>,
  body: Row,
  scope: TenantScope,
): Promise<Row> {
  if (body[rules.secretField] !== undefined || !rules.boundFields.some((f) => body[f] !== undefined)) return body;
  const stored = await crud.getById(body[rules.idField] as string, scope);
  if (!stored) return body;
  const moved = rules.boundFields.some((f) => body[f] !== undefined && body[f] !== (stored as Row)[f]);
  if (!moved) return body;
  return { revision: stored.revision, ...body, [rules.secretField]: rules.clearedSecret };
}
