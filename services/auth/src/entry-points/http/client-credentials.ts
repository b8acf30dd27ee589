import type { Request } from 'express';

export interface PresentedCredentials {
  clientId: string;
  secret: string;
  /** Sent as HTTP Basic: a failure then answers 401 with WWW-Authenticate (RFC 6749 §5.2). */
  basic: boolean;
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** RFC 6749 §2.3.1: HTTP Basic (form-encoded id and secret) or `client_id`/`client_secret` in the body. */
export function presentedCredentials(req: Request): PresentedCredentials | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon <= 0) return { clientId: '', secret: '', basic: true };
    return {
      clientId: formDecode(decoded.slice(0, colon)),
      secret: formDecode(decoded.slice(colon + 1)),
      basic: true,
    };
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const { client_id: clientId, client_secret: secret } = body;
  if (typeof clientId === 'string' && typeof secret === 'string' && clientId && secret)
    return { clientId, secret, basic: false };
  return undefined;
}
