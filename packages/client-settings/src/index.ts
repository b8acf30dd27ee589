export { connectClientSettings, type ClientSettingsStore } from './store';
