/**
 * The process logger's options: what a log line may never carry. API keys travel in `x-api-key` and
 * `Authorization: Bearer`, account sessions in the `cds_session` cookie; any object that holds request headers or
 * the raw request bytes would write them out in clear. Node's HTTP parser errors (`HPE_*`) carry the raw bytes of
 * the connection as `rawPacket`, so an error object is never logged as is: `safeError` keeps its name, code,
 * message and stack only.
 */
import type { LoggerOptions } from 'pino';

/** The parts of an error a log line may hold (never `rawPacket`, headers or a request). */
export interface SafeError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
}

/** Headers whose values are secrets (keys, sessions); never written to a log. */
export const REDACT_HEADERS = ['x-api-key', 'authorization', 'cookie', 'set-cookie'] as const;

/** Request header values that are secrets, in any object shape a line might nest them in. */
export const REDACT_PATHS = [
  ...REDACT_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
  'rawPacket',
  '*.rawPacket',
];

/**
 * An error reduced to what is safe to log. Idempotent (the logger's serializer may see an already reduced error);
 * a thrown non-object is described by its type only.
 */
export function safeError(err: unknown): SafeError {
  if (err === null || typeof err !== 'object') return { type: typeof err, message: 'non-error value thrown' };
  const e = err as { name?: unknown; type?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  const type = err instanceof Error ? err.name : typeof e.type === 'string' ? e.type : 'Object';
  return {
    type,
    message: typeof e.message === 'string' ? e.message : '',
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
  };
}

/** Options of the process logger (scripts/start.ts): redaction of secret headers and the safe error serializer. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: safeError },
  };
}
