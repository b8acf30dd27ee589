import { runService } from '@spam-check/service-kit';
import { compose } from './compose';
import { loadServiceConfig } from './config';

runService({ name: 'text-detector', loadConfig: () => loadServiceConfig(), start: compose });
