import { problemResponse } from './schemas';

const AKISMET_FORM = {
  type: 'object',
  properties: {
    key: {
      type: 'string',
      description: "The client's Akismet key (or `api_key`, or the host name's first label).",
    },
    api_key: { type: 'string' },
    blog: { type: 'string', description: 'Required (as Akismet requires it); otherwise unused.' },
    comment_content: { type: 'string' },
    comment_author_email: { type: 'string', description: 'Present: a hybrid check.' },
    comment_author: { type: 'string' },
    comment_author_url: { type: 'string' },
    comment_type: { type: 'string' },
    user_agent: { type: 'string' },
    honeypot_field_name: { type: 'string' },
    blog_lang: { type: 'string' },
    user_ip: { type: 'string', description: 'Accepted for compatibility; used for nothing, stored nowhere.' },
  },
  required: ['blog'],
};

const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

function akismetOperation(summary: string, answers: string) {
  return {
    post: {
      tags: ['Akismet'],
      summary,
      requestBody: {
        required: true,
        content: { 'application/x-www-form-urlencoded': { schema: AKISMET_FORM } },
      },
      responses: {
        '200': {
          description: `${answers} A wrong or missing key is \`invalid\` and a missing \`blog\` is \`Missing required field: blog.\`, each with \`X-akismet-debug-help\`.`,
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        '429': problemResponse(['RATE_LIMITED']),
        '503': problemResponse(['SERVICE_UNAVAILABLE']),
      },
    },
  };
}

/** Akismet's REST API 1.1 (docs/akismet.md) and the admin endpoint that issues its keys. */
export function akismetPaths() {
  return {
    '/1.1/verify-key': akismetOperation('Verify an Akismet key', '`valid` or `invalid`.'),
    '/1.1/comment-check': akismetOperation(
      'Check a comment (Akismet)',
      '`true` (spam; `X-akismet-pro-tip: discard` at a score of at least 0.95) or `false`; `X-Spam-Check-Verdict` names the verdict.',
    ),
    '/1.1/submit-spam': akismetOperation(
      'Report a comment as spam (Akismet)',
      '`Thanks for making the web a better place.`',
    ),
    '/1.1/submit-ham': akismetOperation(
      'Report a comment as not spam (Akismet)',
      '`Thanks for making the web a better place.`',
    ),
    '/api/v1/admin/clients/{id}/akismet-key': {
      post: {
        parameters: [ID],
        tags: ['Administration'],
        summary: "Issue the client's Akismet key (replaces the old one)",
        security: [{ oauth2: ['spam:admin'] }],
        responses: {
          '201': {
            description: 'The key, shown this once; only its hash is kept.',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
              },
            },
          },
          '404': problemResponse(['CLIENT_NOT_FOUND']),
        },
      },
      delete: {
        parameters: [ID],
        tags: ['Administration'],
        summary: "Revoke the client's Akismet key",
        security: [{ oauth2: ['spam:admin'] }],
        responses: { '204': { description: 'Revoked.' }, '404': problemResponse(['CLIENT_NOT_FOUND']) },
      },
    },
  };
}
