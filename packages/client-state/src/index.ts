export { feedbackConfigShape } from './feedback-config';
export { memoryCheckMemory, redisCheckMemory, type CheckMemory } from './check-memory';
export { memoryClientMap, redisClientMap, type ClientMap } from './client-map';
export { memoryCampaignMemory, redisCampaignMemory, type CampaignMemory } from './campaign-memory';
export { keyedHash } from './keyed-hash';
export { privacyConfigShape, privacyOf, privacyKeyWarning } from './privacy';
export { tagClientKeysOnce } from './migrations/hash-tagged-keys';
export { migrateStoredAddresses } from './migrations/hashed-addresses';
