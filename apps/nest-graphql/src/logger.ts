import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * NestLogger is Nest's logger on the app's pino logger, so that every line
 * the app writes is one JSON object with slog's field names, as the Go
 * apps' are. Nest's own progress lines (modules loaded, routes mapped) are
 * debug, not info: at the default level the app logs what the Go apps log.
 */
export class NestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(fields(rest), String(message));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.logger.debug(fields(rest), String(message));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.logger.trace(fields(rest), String(message));
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.logger.warn(fields(rest), String(message));
  }

  error(message: unknown, ...rest: unknown[]): void {
    const err = message instanceof Error ? message : undefined;
    this.logger.error({ ...fields(rest), ...(err && { err }) }, err ? err.message : String(message));
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.error(message, ...rest);
  }
}

/** fields are Nest's optional parameters as log fields: its last string names the context (the class logging). */
function fields(rest: unknown[]): Record<string, unknown> {
  const context = rest.at(-1);
  return typeof context === 'string' ? { context } : {};
}
