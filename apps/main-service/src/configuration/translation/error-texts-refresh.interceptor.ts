import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, finalize } from 'rxjs';
import { translationsWritten } from './translation-error.translator';

/** Operations of the translation resource that only read. */
const READS = new Set(['getById', 'page', 'list', 'count', 'listCache']);

/**
 * Drops the cached error texts once a write operation on translations has run (whatever its outcome: a
 * failed batch may still have changed nothing, and a reload is cheap), so this replica's next error
 * response sees the write. Writes go through several storage paths (multi-row SQL among them), so this
 * is hooked on the operations rather than on the storage layer.
 */
@Injectable()
export class ErrorTextsRefreshInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (READS.has(context.getHandler().name)) return next.handle();
    return next.handle().pipe(finalize(translationsWritten));
  }
}
