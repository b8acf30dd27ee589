export { connectClientSettings, type ClientSettingsStore } from './store';
export { campaignConfigShape, campaignPolicy, type CampaignPolicy } from './campaigns';
