export {
  createClientSettingsStore,
  connectClientSettings,
  SETTINGS_CACHE_MS,
  type ClientSettingsStore,
  type SettingsLogger,
} from './store';
