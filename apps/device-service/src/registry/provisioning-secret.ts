import { AppException, Text } from '@app/common';
import { applyDecorators } from '@nestjs/common';
import { MinLength } from 'class-validator';
import { SECRET_MAX_LENGTH, SECRET_MIN_LENGTH } from './numbers';
import { hashSecret } from './secret-hash';

/** The write-only `secret` of a registry save/updateById body (contract.md "Devices"). */
export const ProvisioningSecret = (): PropertyDecorator =>
  applyDecorators(
    Text({
      max: SECRET_MAX_LENGTH,
      required: true,
      writeOnly: true,
      example: 'correct-horse-battery-staple',
      description: `Provisioning secret (${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} characters) the device or server proves itself with. Write-only: stored as a salted scrypt hash, never returned; omitted on update keeps the stored one.`,
    }),
    MinLength(SECRET_MIN_LENGTH),
  );

/** toColumns of both registry resources: `secret` becomes its salted hash; nothing else changes. */
export async function secretToHash({ secret, ...row }: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (secret === undefined) return row;
  if (secret === null) throw AppException.validation('secret must not be null');
  return { ...row, secretHash: await hashSecret(secret as string) };
}
