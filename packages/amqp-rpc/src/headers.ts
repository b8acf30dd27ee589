import type { MessagePropertyHeaders } from 'amqplib';

/** AMQP header values arrive typed (strings, numbers, buffers, tables); handlers get plain strings. */
export function headersAsStrings(headers: MessagePropertyHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') result[name] = value;
    else if (Buffer.isBuffer(value)) result[name] = value.toString('utf8');
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
      result[name] = String(value);
    } else result[name] = JSON.stringify(value);
  }
  return result;
}
