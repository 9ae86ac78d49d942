import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/** Nest's start-up chatter, a line per module, controller and route: there for LOG_LEVEL=debug, not at info. */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's logger over one app's pino logger. Each app installs its own while it starts, so that where apps share a
 * process (the combined server) one app's lines do not come out as another's.
 * A stack Nest passes with an error is left out: the exception filter logs what failed in a request itself (an
 * unexpected failure with its stack, under the error id its answer carries), other lines need none.
 */
export class NestLines implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    this.write(context && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, contextOf(rest));
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, contextOf(rest));
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, contextOf(rest));
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, contextOf(rest));
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, contextOf(rest));
  }

  private write(level: Level, message: unknown, context: string | undefined): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields = context ? { context } : {};
    if (message instanceof Error) this.logger[level]({ ...fields, error: message.message }, message.name);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ ...fields, ...message });
    else this.logger[level](fields, String(message));
  }
}

/** Nest passes the context last, after an optional stack (errors) or other parameters; a stack is no context. */
const contextOf = (rest: unknown[]): string | undefined => {
  const last = rest.at(-1);
  return typeof last === 'string' && !last.includes('\n') ? last : undefined;
};
