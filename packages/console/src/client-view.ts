import type { ClientSettings, ClientStats, RecentFeedback } from '@spam-check/contracts';
import type { ApiCallMeta, ConsoleApi } from './api';
import { expectOk, panel } from './api-answers';
import { clientPage, type ClientPageState } from './client-page';
import type { FieldErrors, PageContext } from './pages';
import { formFromSettings, type SettingsFormValues } from './settings-form';

export interface ClientPageOptions {
  interval?: 'day' | 'hour';
  saved?: boolean;
  /** After a refused change: what was posted, shown again with the API's messages. */
  settingsForm?: SettingsFormValues;
  settingsErrors?: FieldErrors;
  tryIt?: ClientPageState['tryIt'];
}

/**
 * A client's page from three admin API calls made at once: its stats over the last 7 days by day or 48 hours
 * by hour, its recent feedback and its settings. An unknown client is 404; a Redis-backed panel that answers
 * 503 (embedded mode) is shown with a note.
 */
export async function renderClientPage(
  api: ConsoleApi,
  meta: ApiCallMeta,
  ctx: PageContext,
  id: string,
  options: ClientPageOptions,
): Promise<string> {
  const interval = options.interval ?? 'day';
  const path = `/api/v1/admin/clients/${encodeURIComponent(id)}`;
  const to = new Date();
  const from = new Date(to.getTime() - (interval === 'day' ? 7 * 24 : 48) * 3600_000);
  const range = new URLSearchParams({ interval, from: from.toISOString(), to: to.toISOString() });
  const [stats, feedback, settings] = await Promise.all([
    api('GET', `${path}/stats?${range.toString()}`, meta),
    api('GET', `${path}/feedback?limit=20`, meta),
    api('GET', `${path}/settings`, meta),
  ]);
  if (stats.status === 404) expectOk(stats);
  const feedbackPanel = panel<RecentFeedback>(feedback);
  const settingsPanel = panel<ClientSettings>(settings);
  return clientPage(ctx, {
    id,
    interval,
    stats: panel<ClientStats>(stats),
    feedback: feedbackPanel.ok ? { ok: true, value: feedbackPanel.value.feedback } : { ok: false },
    settings: settingsPanel.ok
      ? { ok: true, value: options.settingsForm ?? formFromSettings(settingsPanel.value) }
      : { ok: false },
    ...(options.settingsErrors ? { settingsErrors: options.settingsErrors } : {}),
    ...(options.saved ? { settingsSaved: true } : {}),
    tryIt: options.tryIt ?? { values: {} },
  });
}
