import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchSchemas, buildOpenApiDocument, feedbackSchemas, requestSchemas } from '@spam-check/contracts';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('when validated against the OpenAPI 3.1 schema, it is valid', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const script = join(__dirname, '..', '..', 'scripts', 'validate-openapi.mjs');
    const output = execFileSync(process.execPath, [script, file], { encoding: 'utf8' });
    expect(output).toContain('valid OpenAPI 3.1');
  });

  it('describes every public path and schema generated from zod', () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/api/v1/spam/feedback',
        '/api/v1/checks',
        '/api/v1/spam/hybrid-check',
        '/api/v1/spam/mail',
        '/api/v1/spam/mail/batch',
        '/api/v1/spam/text',
        '/api/v1/spam/text/batch',
        '/api/v1/settings/text-rules',
        '/oauth/revoke',
        '/oauth/token',
        '/api/v1/admin/clients',
        '/api/v1/admin/clients/{id}',
        '/api/v1/admin/clients/{id}/secret',
        '/api/v1/admin/clients/{id}/settings',
        '/api/v1/admin/clients/{id}/stats',
        '/api/v1/admin/clients/{id}/feedback',
        '/api/v1/admin/clients/{id}/checks',
        '/api/v1/admin/clients/{id}/try/mail',
        '/api/v1/admin/clients/{id}/try/text',
        '/api/v1/admin/clients/{id}/try/hybrid',
        '/api/v1/admin/erasure',
        '/api/v1/admin/clients/{id}/akismet-key',
        '/.well-known/oauth-authorization-server',
        '/1.1/verify-key',
        '/1.1/comment-check',
        '/1.1/submit-spam',
        '/1.1/submit-ham',
        '/api/v1/admin/clients/{id}/webhooks/{webhook_id}/secret',
        '/api/v1/admin/clients/{id}/webhooks/{webhook_id}/deliveries',
        '/api/v1/admin/clients/{id}/webhooks/{webhook_id}/test',
      ].sort(),
    );
    const mail = document.components.schemas.MailCheckRequest as { required: string[]; properties: object };
    expect(mail.required).toEqual(['email']);
    const hybrid = document.components.schemas.HybridResult as { properties: Record<string, unknown> };
    expect(hybrid.properties.email).toEqual({ $ref: '#/components/schemas/MailResult' });
    const batch = document.components.schemas.MailBatchRequest as any;
    expect(batch.properties.emails).toMatchObject({ minItems: 1, maxItems: 1000 });
    const texts = document.components.schemas.TextBatchRequest as any;
    expect(texts.properties.items).toMatchObject({ minItems: 1, maxItems: 100 });
    const list = document.paths['/api/v1/checks'] as any;
    expect(list.get.security).toEqual([{ oauth2: ['spam:check'] }]);
    expect(list.get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CheckList',
    });
    const item = document.components.schemas.ReviewItem as { required: string[] };
    expect([...item.required].sort()).toEqual([
      'content',
      'created_at',
      'id',
      'kind',
      'language',
      'preview',
      'reasons',
      'report',
      'score',
      'verdict',
    ]);
    const reports = document.components.schemas.FeedbackReports as any;
    expect(reports.properties.reports).toMatchObject({ minItems: 1, maxItems: 100 });
  });

  it('guards every admin operation with the spam:admin scope and describes the settings document', () => {
    const admin = Object.entries(document.paths).filter(([path]) => path.startsWith('/api/v1/admin/'));
    for (const [, item] of admin)
      for (const operation of Object.values(item as Record<string, { security: unknown }>))
        expect(operation.security).toEqual([{ oauth2: ['spam:admin'] }]);
    const settings = document.components.schemas.ClientSettings as { properties: Record<string, unknown> };
    expect(Object.keys(settings.properties).sort()).toEqual([
      'akismet',
      'campaigns',
      'hybrid',
      'mail',
      'review',
      'text',
      'text_rules',
      'webhooks',
    ]);
  });

  it('starts "try it" on every check from an example its own request schema accepts', () => {
    const schemas = {
      '/api/v1/spam/mail': requestSchemas.mail,
      '/api/v1/spam/text': requestSchemas.text,
      '/api/v1/spam/hybrid-check': requestSchemas.hybrid,
      '/api/v1/spam/feedback': feedbackSchemas.request,
      '/api/v1/spam/mail/batch': batchSchemas.mail.request,
      '/api/v1/spam/text/batch': batchSchemas.text.request,
    };
    for (const [path, schema] of Object.entries(schemas)) {
      const operation = (document.paths as Record<string, any>)[path].post;
      const example: unknown = operation.requestBody.content['application/json'].example;
      expect(example).toBeDefined();
      expect(schema.safeParse(example).success).toBe(true);
    }
  });

  it("declares the OAuth 2.0 password and client credentials flows at the gateway's token endpoint, which /docs uses to get a token", () => {
    expect(document.components.securitySchemes.oauth2.flows).toEqual({
      password: expect.objectContaining({ tokenUrl: '/oauth/token', refreshUrl: '/oauth/token' }),
      clientCredentials: expect.objectContaining({ tokenUrl: '/oauth/token' }),
    });
    expect(Object.keys(document.components.securitySchemes.oauth2.flows.password.scopes)).toEqual([
      'spam:check',
      'spam:admin',
    ]);
  });
});
