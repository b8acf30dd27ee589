import { z } from 'zod';

/** The items of a comma-separated variable, trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * An optional variable of comma-separated items, each of which `valid` accepts: the items, or one issue
 * (`message` of the items refused) when there is none or any is refused.
 */
export function optionalCommaList(
  valid: (item: string) => boolean,
  message: (bad: string[], items: string[]) => string,
) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const items = commaList(value);
      const bad = items.filter((item) => !valid(item));
      if (items.length === 0 || bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: message(bad, items) });
        return z.NEVER;
      }
      return items;
    });
}
