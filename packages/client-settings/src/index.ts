export { connectClientSettings, type ClientSettingsStore } from './store';
export { campaignConfigShape, campaignPolicy } from './campaigns';
