import pino from 'pino';
import { DEV_AUTH_SECRET } from './config.js';

/**
 * createLogger returns the app's logger at config's LOG_LEVEL, writing JSON
 * with the field names slog writes (msg, time, level in capitals), so that
 * one log reader serves every app; it warns when AUTH_SECRET was not set.
 */
export function createLogger(config) {
  const logger = pino({
    level: config.logLevel,
    base: undefined,
    messageKey: 'msg',
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label.toUpperCase() }) },
  });
  if (config.authSecret === DEV_AUTH_SECRET) {
    logger.warn('tokens are signed with the public development secret (AUTH_SECRET unset, or set to it): set a secret of your own');
  }
  return logger;
}
