import { RequestContext } from '../tenancy/request-context';
import { TenantScope } from '../tenancy/tenant-scope';
import { activeTraceId } from '../tracing/trace-context';

/** The columns a write stamps for its history entry, which the table's triggers read from the row (history-sql.ts). */
export interface WriteStamp {
  lastWriter: string;
  lastRequestId: string | null;
  lastTraceId: string | null;
}

/** Bounds of the stamped columns: a request id a client sent is cut, never refused. */
const REQUEST_ID_LENGTH = 64;

/** Who writes (the scope's writer), in which request and trace: stamped wherever lastModified* is, and by background writes. */
export function writeStamp(scope: TenantScope): WriteStamp {
  return {
    lastWriter: scope.writer,
    lastRequestId: RequestContext.logFields().requestId?.slice(0, REQUEST_ID_LENGTH) ?? null,
    lastTraceId: activeTraceId() ?? null,
  };
}
