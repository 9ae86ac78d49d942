import { BaseRecord, CrudService, TenantScope } from '@app/common';
import { AddressGuard } from './delivery/address-guard';

type Row = Record<string, unknown>;

/** What guards the writes of a sender configuration (e-mail or SMS): where it connects, and what goes there. */
export interface SenderConfigRules<E extends BaseRecord> {
  idField: keyof E & string;
  /** The field naming the destination, and the host it names in a write body (undefined when absent). */
  destinationField: keyof E & string;
  hostOf(value: unknown): string | undefined;
  /**
   * Fields that say where, and as whom, the secret is presented: changing one clears the stored secret unless
   * the same request gives it, so whoever may edit a configuration cannot send its secret somewhere else.
   */
  boundFields: (keyof E & string)[];
  secretField: keyof E & string;
  /** What the secret column holds once cleared (the SMS secret's column is NOT NULL: empty). */
  clearedSecret: null | '';
}

/**
 * `crud` with save and updateById checked first: the destination must pass the address guard, and an update
 * that moves the configuration without giving the secret clears it. The other operations are crud's own.
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
