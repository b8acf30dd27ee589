export { connectClientSettings, type ClientSettingsStore, type SettingsLocation } from './store';
