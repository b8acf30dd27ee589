import type { Language, Messages } from './languages';
import pages from './console/pages.json';
import review from './console/review.json';
import webhooks from './console/webhooks.json';

/**
 * The words of the operator console (`/console`, docs/design.md, Console and API reference), beside the error
 * and reason catalogues it also shows, so that one place holds every message a person reads, in every
 * language. The words are data, one JSON file per part of the console (`console/*.json`); the keys stay
 * checked at compile time, and `satisfies` refuses a message that lacks a language.
 */
export const CONSOLE_MESSAGES = { ...pages, ...webhooks, ...review } satisfies Record<string, Messages>;

export type ConsoleMessageKey = keyof typeof CONSOLE_MESSAGES;
export const CONSOLE_MESSAGE_KEYS = Object.keys(CONSOLE_MESSAGES) as ConsoleMessageKey[];

export function consoleMessage(key: ConsoleMessageKey, language: Language): string {
  return CONSOLE_MESSAGES[key][language];
}
