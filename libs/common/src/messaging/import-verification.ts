import { ImportBatch } from './import-batch.entity';
import { importDigest } from './import-digest';

/** An import message as it claims to be (parsed, not yet trusted). */
export interface ImportClaim {
  tenantId: string;
  username: string;
  batchId: string;
  items: object[];
}

/**
 * Why a message may not be applied to `batch` (the import_batch row with its id), or null when it is
 * the batch the API created: same id, topic, tenant (and message key), user, item count and items digest.
 * Compared here, exactly, rather than in SQL, where MariaDB's PAD SPACE collations treat 'acme ' as 'acme'.
 * The digest goes last: it is the one check that costs a pass over the items.
 */
export function importMismatch(batch: ImportBatch | null, claim: ImportClaim, messageKey: string, topic: string): string | null {
  if (!batch || batch.batchId !== claim.batchId) return 'no batch with this id was created by the API';
  if (batch.topic !== topic) return 'the batch belongs to another topic';
  if (batch.tenantId !== claim.tenantId || messageKey !== batch.tenantId) return 'tenant does not match the batch';
  if (batch.createdUsername !== claim.username) return 'username does not match the batch';
  if (batch.itemCount !== claim.items.length) return 'item count does not match the batch';
  if (!batch.payloadDigest) return 'the batch has no payload digest to check against';
  if (batch.payloadDigest !== importDigest(claim.items)) return 'payload digest does not match the batch';
  return null;
}
