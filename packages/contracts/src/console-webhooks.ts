import type { Messages } from './languages';

/** The console's words for a client's webhooks (part of the console catalogue, `console.ts`). */
export const WEBHOOK_CONSOLE_MESSAGES = {
  webhooks: { en: 'Webhooks', de: 'Webhooks', fr: 'Webhooks' },
  webhooksHelp: {
    en: 'The site is told by a signed POST (Standard Webhooks) when a check is spam or suspicious, or a report arrives.',
    de: 'Die Website erfährt per signiertem POST (Standard Webhooks), wenn eine Prüfung Spam oder verdächtig ist oder eine Meldung eingeht.',
    fr: 'Le site est prévenu par un POST signé (Standard Webhooks) quand une vérification est du spam ou suspecte, ou qu’un signalement arrive.',
  },
  noWebhooks: { en: 'No webhooks yet.', de: 'Noch keine Webhooks.', fr: 'Aucun webhook pour l’instant.' },
  webhookId: { en: 'Id', de: 'Id', fr: 'Id' },
  webhookUrl: { en: 'URL', de: 'URL', fr: 'URL' },
  webhookEvents: { en: 'Events', de: 'Ereignisse', fr: 'Événements' },
  addWebhook: { en: 'Add webhook', de: 'Webhook hinzufügen', fr: 'Ajouter un webhook' },
  removeWebhook: { en: 'Remove', de: 'Entfernen', fr: 'Supprimer' },
  sendTestEvent: { en: 'Send test event', de: 'Testereignis senden', fr: 'Envoyer un événement de test' },
  testEventSent: {
    en: 'Test event queued; it appears below once attempted.',
    de: 'Testereignis eingereiht; es erscheint unten, sobald es versucht wurde.',
    fr: 'Événement de test mis en file ; il apparaît ci-dessous dès la tentative.',
  },
  rotateSecret: { en: 'Rotate secret', de: 'Geheimnis erneuern', fr: 'Renouveler le secret' },
  secretOnce: {
    en: 'The signing secret, shown this once: copy it to the receiving site now.',
    de: 'Das Signaturgeheimnis, nur dieses eine Mal angezeigt: kopieren Sie es jetzt auf die empfangende Website.',
    fr: 'Le secret de signature, affiché cette seule fois : copiez-le maintenant sur le site destinataire.',
  },
  previousSecretUntil: {
    en: 'The previous secret still signs until',
    de: 'Das vorige Geheimnis signiert noch bis',
    fr: 'L’ancien secret signe encore jusqu’au',
  },
  deliveries: { en: 'Last deliveries', de: 'Letzte Zustellungen', fr: 'Dernières livraisons' },
  noDeliveries: {
    en: 'No deliveries yet.',
    de: 'Noch keine Zustellungen.',
    fr: 'Aucune livraison pour l’instant.',
  },
  time: { en: 'Time', de: 'Zeit', fr: 'Heure' },
  event: { en: 'Event', de: 'Ereignis', fr: 'Événement' },
  status: { en: 'Status', de: 'Status', fr: 'Statut' },
  attempts: { en: 'Attempts', de: 'Versuche', fr: 'Tentatives' },
  pending: { en: 'pending', de: 'ausstehend', fr: 'en attente' },
  retrying: { en: 'retrying', de: 'wird wiederholt', fr: 'nouvelle tentative' },
  delivered: { en: 'delivered', de: 'zugestellt', fr: 'livré' },
  failed: { en: 'failed', de: 'fehlgeschlagen', fr: 'échoué' },
  disabled: { en: 'disabled', de: 'deaktiviert', fr: 'désactivé' },
} as const satisfies Record<string, Messages>;
