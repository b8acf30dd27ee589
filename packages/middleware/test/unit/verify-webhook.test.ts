import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../../src';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const BODY = JSON.stringify({
  type: 'check.spam',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { id: 'c1' },
});

/** A delivery signed by the `standardwebhooks` package, as a receiver gets it. */
function signed(secret: string, id = 'msg_1', at = new Date()) {
  const signature = new Webhook(secret).sign(id, at, BODY);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

describe('verifyWebhook', () => {
  it('when the package signed the body with the secret, it answers the parsed body', () => {
    expect(verifyWebhook(SECRET, signed(SECRET), BODY)).toEqual(JSON.parse(BODY));
    expect(verifyWebhook(SECRET, new Headers(signed(SECRET)), Buffer.from(BODY))).toEqual(JSON.parse(BODY));
  });

  it('when one of two signatures is by the secret (a rotation), it accepts the delivery', () => {
    const headers = signed(SECRET);
    const other = signed(OTHER);
    const both = {
      ...headers,
      'webhook-signature': `${other['webhook-signature']} ${headers['webhook-signature']}`,
    };
    expect(verifyWebhook(SECRET, both, BODY).type).toBe('check.spam');
  });

  it('when the body, the id, the secret or the timestamp is not the signed one, it throws', () => {
    const headers = signed(SECRET);
    const refusals: [Record<string, string>, string, string][] = [
      [headers, `${BODY} `, SECRET],
      [{ ...headers, 'webhook-id': 'msg_2' }, BODY, SECRET],
      [headers, BODY, OTHER],
      [signed(SECRET, 'msg_1', new Date(Date.now() - 10 * 60_000)), BODY, SECRET],
      [{ 'webhook-id': 'msg_1' }, BODY, SECRET],
    ];
    for (const [given, body, secret] of refusals)
      expect(() => verifyWebhook(secret, given, body)).toThrow(WebhookVerificationError);
  });
});
