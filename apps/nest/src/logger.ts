import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@crudbench/node-base/http/run.js';

/**
 * NestLogger writes Nest's own log lines through the app's logger (JSON,
 * slog's field names, as every app logs): its start-up lines (modules,
 * mapped routes) at debug, the only level that wants them, its warnings
 * and errors at theirs; the context (the Nest class that logged) as a
 * field.
 */
export class NestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(fieldsOf(rest), String(message));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(fieldsOf(rest), String(message));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(fieldsOf(rest), String(message));
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.logger.warn(fieldsOf(rest), String(message));
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.logger.error(fieldsOf(rest), message instanceof Error ? message.message : String(message));
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.logger.error(fieldsOf(rest), String(message));
  }
}

/** fieldsOf turns Nest's optional parameters (…, a stack, the context last) into log fields. */
function fieldsOf(rest: unknown[]): object {
  const context = rest.at(-1);
  const stack = rest.length > 1 ? rest.at(-2) : undefined;
  return {
    ...(typeof context === 'string' ? { context } : {}),
    ...(typeof stack === 'string' ? { stack } : {}),
  };
}
