export { requiredClientId } from './client-id';
export { checkRoutes, type CheckMeta } from './check-routes';
export { rpcCheckHandler } from './rpc-handler';
export { mountErasureRoute, type Eraser } from './erasure-route';
export { detectorConfigOf, detectorConfigShape } from './detector-config';
