import type { Language } from '@spam-check/contracts';

/**
 * Picks the response language from Accept-Language among the enabled ones. The gateway sets the header from
 * the path prefix, so detectors and auth behind it answer in the caller's language.
 */
export function pickLanguage(
  header: string | undefined,
  enabled: readonly Language[],
  fallback: Language,
): Language {
  if (!header) return fallback;
  // The gateway forwards a bare code (`de`): known at once, without ranking a list.
  if ((enabled as readonly string[]).includes(header)) return header as Language;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return (
    (ranked.find((entry) => (enabled as readonly string[]).includes(entry.primary))?.primary as Language) ??
    fallback
  );
}
