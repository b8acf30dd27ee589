export * from './languages';
export * from './errors';
export * from './reasons';
export * from './requests';
export * from './results';
export * from './problem';
export * from './oauth';
export { buildOpenApiDocument } from './openapi';
export { renderApiReferenceMarkdown } from './reference';
