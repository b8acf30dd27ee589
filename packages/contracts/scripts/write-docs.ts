import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument, renderApiReferenceMarkdown } from '@spam-check/contracts';

const docs = join(__dirname, '..', '..', '..', 'docs');
writeFileSync(join(docs, 'api-reference.md'), renderApiReferenceMarkdown());
writeFileSync(join(docs, 'openapi.json'), `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${docs}/api-reference.md and openapi.json`);
