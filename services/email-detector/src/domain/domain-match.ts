/**
 * Whether a domain or one of its parent domains is in a set: `a.b.example.com` matches an entry
 * `example.com`. Top-level labels alone are never matched. Returns the matching entry.
 */
export function matchDomainOrParent(asciiDomain: string, entries: ReadonlySet<string>): string | null {
  let candidate = asciiDomain;
  for (;;) {
    const dot = candidate.indexOf('.');
    if (dot < 0) return null;
    if (entries.has(candidate)) return candidate;
    candidate = candidate.slice(dot + 1);
  }
}
