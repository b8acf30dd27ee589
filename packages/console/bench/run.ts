import { runBenches } from '@spam-check/process-kit';
import { benchPages } from './pages';

/**
 * Console bench (127.0.0.1 only, with Redis): `pnpm --filter @spam-check/console bench [pages]`.
 * - `pages`: each operator console page's answer time, one request at a time, through the gateway that
 *   mounts the console.
 */
void runBenches({ pages: benchPages });
