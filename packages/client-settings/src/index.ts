export { connectClientSettings, SETTINGS_CACHE_MS, type ClientSettingsStore } from './store';
