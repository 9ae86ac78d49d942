import { AppException, Field } from '@app/common';
import { EXAMPLE_SECRET } from './registry-examples';
import { hashSecret } from './secret-hash';

/** Provisioning secrets: long enough that guessing is hopeless even without the throttle. */
export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 128;

/**
 * The provisioning secret of a registry record (contract.md "Devices"): `secret`, a write-only input of
 * save/updateById, and `secretHash`, the column `toColumns` fills from it; neither is ever returned or logged.
 */
export const ProvisioningSecret = (): PropertyDecorator =>
  Field.text({
    max: SECRET_MAX_LENGTH,
    min: SECRET_MIN_LENGTH,
    required: true,
    secret: true,
    inputOnly: true,
    example: EXAMPLE_SECRET,
    description: `Provisioning secret (${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} characters) the device or server proves itself with. Write-only: stored as a salted scrypt hash, never returned; omitted on update keeps the stored one.`,
  });

/** Salted scrypt hash of the provisioning secret: server-owned, never selected. */
export const SecretHash = (): PropertyDecorator => Field.text({ max: 255, required: true, secret: true, readOnly: true });

/** toColumns of both registry resources: `secret` becomes its salted hash; nothing else changes. */
export async function secretToHash({ secret, ...row }: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (secret === undefined) return row;
  if (secret === null) throw AppException.validation('secret must not be null');
  return { ...row, secretHash: await hashSecret(secret as string) };
}
