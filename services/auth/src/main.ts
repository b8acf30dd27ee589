import { runService } from '@spam-check/service-kit';
import { compose } from './compose';
import { loadServiceConfig } from './config';

runService({ name: 'auth', loadConfig: () => loadServiceConfig(), start: compose });
