import type { Language } from '@spam-check/contracts';
import type http from 'node:http';

const PREFIXED = /^\/(?:([a-z]{2})\/?)?(api|oauth)(\/.*)$/;

/**
 * The language prefix of docs/design.md, Paths and language prefix: `/deapi/...`, `/de/api/...` and
 * `/api/...` reach the same route. A configured code is stripped from the URL and becomes the request's
 * `Accept-Language` (so the kit's language, and every service behind the gateway, follow it). An unconfigured
 * code is left in place: no route matches it and the request ends in the 404 problem.
 */
export function languagePrefixRewriter(languages: readonly Language[]): (req: http.IncomingMessage) => void {
  return (req) => {
    const match = PREFIXED.exec(req.url ?? '');
    if (!match) return;
    const [, code, root, rest] = match;
    if (code === undefined) return;
    if (!(languages as readonly string[]).includes(code)) return;
    req.url = `/${root}${rest}`;
    req.headers['accept-language'] = code;
  };
}
