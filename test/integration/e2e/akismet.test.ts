import { randomBytes } from 'node:crypto';
import { checkListSchema } from '@spam-check/contracts';
import { wholeList } from '@spam-check/test-support';
import { akismetStackForSuite } from './akismet-stack';

const BLOG = 'https://blog.example.org/';
/** A blatant spam comment with its author's address: a hybrid check. */
const SPAM_WITH_AUTHOR = {
  comment_content: 'spam-check-test-spam',
  comment_author_email: 'maria@example.org',
};
const HAM_COMMENT =
  'Thank you for the write-up on pruning apple trees in late winter. We tried it in our garden in 2023 and ' +
  'the harvest was much better, especially on the older trees near the fence.';

describe('Akismet-compatible endpoints through the gateway (real stack)', () => {
  const suite = akismetStackForSuite();

  it('when a key is issued, verify-key answers valid for it as key, as api_key and as the host name, and invalid otherwise', async () => {
    const { key } = await suite.clientWithKey('verify');
    expect(key).toMatch(/^[0-9a-f]+-[0-9a-f]{32}$/);
    for (const form of [{ key }, { api_key: key }] as Record<string, string>[]) {
      const answer = await suite.akismet('verify-key', { ...form, blog: BLOG });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('valid');
    }
    const bySubdomain = await suite.akismet(
      'verify-key',
      { blog: BLOG },
      { host: `${key}.rest.example.net` },
    );
    expect(bySubdomain.body).toBe('valid');
    const wrong = await suite.akismet('verify-key', { key: `${key.slice(0, -1)}0`, blog: BLOG });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toBe('invalid');
    expect(wrong.headers['x-akismet-debug-help']).toMatch(/API key is not valid/);
  });

  it('when a required field or the key is missing, the answer says which in X-akismet-debug-help', async () => {
    const { key } = await suite.clientWithKey('missing');
    const noBlog = await suite.akismet('comment-check', { key, comment_content: HAM_COMMENT });
    expect(noBlog.body).toBe('Missing required field: blog.');
    expect(noBlog.headers['x-akismet-debug-help']).toBe('Empty "blog" value');
    const noKey = await suite.akismet('comment-check', { blog: BLOG, comment_content: HAM_COMMENT });
    expect(noKey.body).toBe('invalid');
    expect(noKey.headers['x-akismet-debug-help']).toMatch(/No API key/);
  });

  it('when comments are checked, each is in the client review list (hybrid with an author address), and its correction by check id is applied', async () => {
    const { id, key } = await suite.clientWithKey('review');
    await suite.akismet('comment-check', {
      key,
      blog: BLOG,
      comment_content: `${HAM_COMMENT} spam-check-test-ham`,
    });
    const spam = await suite.akismet('comment-check', {
      key,
      blog: BLOG,
      ...SPAM_WITH_AUTHOR,
    });
    expect(spam.body).toBe('true');
    const items = await wholeList(async (cursor) => {
      const query = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
      const answer = await suite.adminCall('GET', `/clients/${id}/checks${query}`);
      expect(answer.status).toBe(200);
      return checkListSchema.parse(answer.body);
    }, 2);
    expect(items.map((item) => [item.kind, item.verdict])).toEqual([
      ['hybrid', 'spam'],
      ['text', 'ham'],
    ]);
    expect(items[1]?.preview?.body).toContain('pruning apple trees');
    const corrected = await suite.adminCall('POST', `/clients/${id}/feedback`, {
      check_id: items[0]?.id,
      label: 'ham',
    });
    expect(corrected.status).toBe(200);
    expect((corrected.body as { applied_to: string[] }).applied_to.sort()).toEqual(['email', 'text']);
  });

  it('when a comment is checked, ham is false and a blatant spam is true with the discard pro-tip', async () => {
    const { key } = await suite.clientWithKey('check');
    const ham = await suite.akismet('comment-check', {
      key,
      blog: BLOG,
      user_ip: '192.0.2.10',
      comment_type: 'comment',
      comment_author: 'Maria',
      comment_content: `${HAM_COMMENT} spam-check-test-ham`,
    });
    expect(ham.body).toBe('false');
    expect(ham.headers['x-akismet-pro-tip']).toBeUndefined();
    const spam = await suite.akismet('comment-check', {
      key,
      blog: BLOG,
      ...SPAM_WITH_AUTHOR,
    });
    expect(spam.body).toBe('true');
    expect(spam.headers['x-akismet-pro-tip']).toBe('discard');
    expect(spam.headers['x-spam-check-verdict']).toBe('spam');
  });

  it('when the named honeypot field is filled, the comment is spam; when it is empty, it is not', async () => {
    const { key } = await suite.clientWithKey('honeypot');
    const form = { key, blog: BLOG, comment_content: HAM_COMMENT, honeypot_field_name: 'hp_website' };
    const filled = await suite.akismet('comment-check', { ...form, hp_website: 'http://cheap.example' });
    expect(filled.body).toBe('true');
    expect(filled.headers['x-akismet-pro-tip']).toBe('discard');
    const empty = await suite.akismet('comment-check', { ...form, hp_website: '' });
    expect(empty.headers['x-spam-check-verdict']).not.toBe('spam');
  });

  it('when a verdict is suspicious, the client setting suspicious_as decides between true and false', async () => {
    const { id, key } = await suite.clientWithKey('suspicious');
    const form = { key, blog: BLOG, comment_content: HAM_COMMENT, user_agent: 'python-requests/2.31.0' };
    const byDefault = await suite.akismet('comment-check', form);
    expect(byDefault.headers['x-spam-check-verdict']).toBe('suspicious');
    expect(byDefault.body).toBe('true');
    const put = await suite.adminCall('PUT', `/clients/${id}/settings`, {
      akismet: { suspicious_as: 'ham' },
    });
    expect(put.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const asHam = await suite.akismet('comment-check', form);
    expect(asHam.headers['x-spam-check-verdict']).toBe('suspicious');
    expect(asHam.body).toBe('false');
  });

  it('when a comment is submitted as spam, the next near-duplicate is judged spam for that client only', async () => {
    const reporter = await suite.clientWithKey('reporter');
    const bystander = await suite.clientWithKey('bystander');
    const comment = (n: number) =>
      `Great article about pruning apple trees, number ${n}. We tried it in our garden and the harvest improved.`;
    const send = (method: string, who: { key: string }, n: number) =>
      suite.akismet(method, { key: who.key, blog: BLOG, comment_content: comment(n) });
    expect((await send('comment-check', reporter, 1)).body).toBe('false');
    const thanks = await suite.akismet('submit-spam', {
      key: reporter.key,
      blog: BLOG,
      comment_content: comment(1),
      comment_author_email: 'pruner@example.org',
    });
    expect(thanks.status).toBe(200);
    expect(thanks.body).toBe('Thanks for making the web a better place.');
    expect((await send('comment-check', reporter, 7)).body).toBe('true');
    expect((await send('comment-check', bystander, 7)).body).toBe('false');
    expect((await send('submit-ham', reporter, 7)).body).toBe('Thanks for making the web a better place.');
    expect((await send('comment-check', reporter, 7)).body).toBe('false');
  });

  it('when a new key is issued the old one stops working, and a revoked key works no more', async () => {
    const { id, key: first } = await suite.clientWithKey('rotate');
    const second = await suite.adminCall('POST', `/clients/${id}/akismet-key`);
    expect(second.status).toBe(201);
    expect(second.headers.get('cache-control')).toBe('no-store');
    const key = (second.body as { key: string }).key;
    expect((await suite.akismet('verify-key', { key: first, blog: BLOG })).body).toBe('invalid');
    expect((await suite.akismet('verify-key', { key, blog: BLOG })).body).toBe('valid');
    expect((await suite.adminCall('DELETE', `/clients/${id}/akismet-key`)).status).toBe(204);
    expect((await suite.akismet('verify-key', { key, blog: BLOG })).body).toBe('invalid');
    expect((await suite.adminCall('POST', `/clients/nobody-${suite.run}/akismet-key`)).status).toBe(404);
  });

  it('when the key is issued, it is stored only as a hash, and user_ip is stored and logged nowhere', async () => {
    const { key } = await suite.clientWithKey('privacy');
    const ip = '203.0.113.197';
    const checked = await suite.akismet('comment-check', {
      key,
      blog: BLOG,
      user_ip: ip,
      comment_content: HAM_COMMENT,
      comment_author_email: 'privacy@example.org',
    });
    expect(checked.body).toBe('false');
    await suite.akismet('submit-spam', { key, blog: BLOG, user_ip: ip, comment_content: HAM_COMMENT });
    const stored = await suite.everythingStored();
    expect(stored).toContain('privacy-');
    expect(stored).not.toContain(ip);
    expect(stored).not.toContain(key);
    expect(suite.logs()).toContain('"path":"/comment-check"');
    expect(suite.logs()).not.toContain(ip);
  });

  it('when wrong keys keep coming from one address, that address is refused with 429 and others are not', async () => {
    const { key } = await suite.clientWithKey('guarded');
    const from = '198.51.100.66';
    const statuses: number[] = [];
    // Wrong keys for this very client: the right key then waits too, from that address only.
    const guess = () => `${key.split('-')[0]}-${randomBytes(16).toString('hex')}`;
    for (let i = 0; i < 8; i++)
      statuses.push((await suite.akismet('verify-key', { key: guess(), blog: BLOG }, { from })).status);
    expect(statuses).toContain(429);
    const refused = await suite.akismet('verify-key', { key, blog: BLOG }, { from });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await suite.akismet('verify-key', { key, blog: BLOG }, { from: '198.51.100.67' })).body).toBe(
      'valid',
    );
  });
});
