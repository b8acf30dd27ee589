import { runService } from '@spam-check/service-kit';
import { loadServiceConfig } from './config';
import { startGateway } from './gateway';

runService({ name: 'gateway', loadConfig: () => loadServiceConfig(), start: startGateway });
