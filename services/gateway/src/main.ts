import { runService } from '@spam-check/service-kit';
import { loadServiceConfig } from './config';
import { compose } from './compose';

runService({ name: 'gateway', loadConfig: () => loadServiceConfig(), start: compose });
