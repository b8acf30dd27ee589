export type PresentedCredentials =
  | {
      kind: 'credentials';
      clientId: string;
      secret: string;
      /** Sent as HTTP Basic: a failure then answers 401 with WWW-Authenticate (RFC 6749 §5.2). */
      basic: boolean;
    }
  /** No credentials, or an Authorization header that is not well-formed Basic: invalid_client. */
  | { kind: 'none'; basic: boolean }
  /** Basic and body credentials together (RFC 6749 §2.3: one method per request): invalid_request. */
  | { kind: 'both' };

/** RFC 6749 §2.3.1 and appendix B: the Basic user id and password are form-encoded before base64. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function fromBasic(header: string): PresentedCredentials {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
  const secret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
  if (!clientId || !secret) return { kind: 'none', basic: true };
  return { kind: 'credentials', clientId, secret, basic: true };
}

/**
 * The client credentials of a token, revocation or introspection request, decoded in this one place:
 * HTTP Basic (form-encoded id and secret) or `client_id`/`client_secret` in the body, never both.
 */
export function presentedCredentials(
  header: string | undefined,
  body: Record<string, unknown>,
): PresentedCredentials {
  const { client_id: clientId, client_secret: secret } = body;
  if (header !== undefined) {
    const basic = fromBasic(header);
    const bodyId = typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
    if (secret !== undefined || (basic.kind === 'credentials' && bodyId && bodyId !== basic.clientId))
      return { kind: 'both' };
    return basic;
  }
  if (typeof clientId === 'string' && typeof secret === 'string' && clientId && secret)
    return { kind: 'credentials', clientId, secret, basic: false };
  return { kind: 'none', basic: false };
}
