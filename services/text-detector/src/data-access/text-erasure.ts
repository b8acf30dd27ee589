import type { CheckMemory, ClientMap, Eraser } from '@spam-check/service-kit';

/**
 * Erasure in the text detector (DESIGN.md §7.5): by client, its check records, its learnt state (reports and
 * adjustment weights) and its reported texts. It keeps no address (stored texts have them replaced by a
 * placeholder), so an address erases nothing here.
 */
export function textEraser(stores: { checks: CheckMemory; state: ClientMap; texts: ClientMap }): Eraser {
  return {
    async client(clientId) {
      const [records, state, texts] = await Promise.all([
        stores.checks.eraseClient(clientId),
        stores.state.eraseClient(clientId),
        stores.texts.eraseClient(clientId),
      ]);
      return { text_check_records: records, text_learnt_state: state, text_reported_texts: texts };
    },
  };
}
