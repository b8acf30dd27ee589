export {
  feedbackConfigShape,
  memoryCheckMemory,
  redisCheckMemory,
  memoryClientMap,
  redisClientMap,
  tagClientKeys,
  type CheckMemory,
  type ClientMap,
} from './feedback-store';
export { memoryCampaignMemory, redisCampaignMemory, type CampaignMemory } from './campaign-memory';
export { keyedHash } from './keyed-hash';
export { privacyConfigShape, privacyOf, privacyKeyWarning } from './privacy';
