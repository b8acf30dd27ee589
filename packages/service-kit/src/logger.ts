import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Paths never written to logs. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'password',
  'client_secret',
  'secret',
  'access_token',
  'refresh_token',
  'token',
  '*.password',
  '*.client_secret',
  '*.secret',
  '*.access_token',
  '*.refresh_token',
  '*.token',
  '*.apiKey',
];

export function createLogger(options: {
  service: string;
  level: string;
  destination?: DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
