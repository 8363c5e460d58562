// The logger the NestJS apps (nest, nest-graphql) hand Nest, one copy for
// both: node-base has no Nest of its own, and a LoggerService is only the
// methods below.

/**
 * NestLogger writes Nest's own log lines through the app's pino logger
 * (JSON, slog's field names, as every app logs): its start-up lines
 * (modules, mapped routes) at debug, so that at the default level the app
 * logs what the Go apps log, its verbose lines at trace, its warnings and
 * errors at theirs; the context (the Nest class that logged) and a stack
 * Nest passes as fields, an Error as err.
 */
export class NestLogger {
  constructor(logger) {
    this.logger = logger;
  }

  log(message, ...rest) {
    this.logger.debug(fieldsOf(rest), String(message));
  }

  debug(message, ...rest) {
    this.logger.debug(fieldsOf(rest), String(message));
  }

  verbose(message, ...rest) {
    this.logger.trace(fieldsOf(rest), String(message));
  }

  warn(message, ...rest) {
    this.logger.warn(fieldsOf(rest), String(message));
  }

  error(message, ...rest) {
    const err = message instanceof Error ? message : undefined;
    this.logger.error({ ...fieldsOf(rest), ...(err && { err }) }, err ? err.message : String(message));
  }

  fatal(message, ...rest) {
    this.error(message, ...rest);
  }
}

/** fieldsOf turns Nest's optional parameters (…, a stack, the context last) into log fields. */
function fieldsOf(rest) {
  const context = rest.at(-1);
  const stack = rest.length > 1 ? rest.at(-2) : undefined;
  return {
    ...(typeof context === 'string' ? { context } : {}),
    ...(typeof stack === 'string' ? { stack } : {}),
  };
}
