import { currentTraceCarrier, TRACE_CARRIER_MAX } from '@app/common/tracing/trace-context';
import { Column } from 'typeorm';

/**
 * `traceContext` of an e-mail or SMS: the W3C trace of the request that last wrote it (tracing/trace-context.ts),
 * which its delivery attempts continue. Null without tracing; never read by the API (select: false).
 */
export const DeliveryTraceColumn = () => Column({ type: 'varchar', length: TRACE_CARRIER_MAX, nullable: true, select: false });

/** toColumns of the e-mail and SMS resources: a write keeps its request's trace, when it has one. */
export function withDeliveryTrace(row: Record<string, unknown>): Record<string, unknown> {
  const traceContext = currentTraceCarrier();
  return traceContext ? { ...row, traceContext } : row;
}
