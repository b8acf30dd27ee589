import type { ClientSettings } from '@spam-check/contracts';
import { z } from 'zod';

/**
 * The settings form and the settings document (docs/design.md, Administration) of the
 * admin API, both ways. The form only reshapes: every value goes to the API as typed, so the API's validation
 * (and its messages) decides. Rules: an empty field is absent (the operator default, or no site rule); lists
 * take one entry per line, language codes may also be separated by commas or spaces; a number may be written
 * with a decimal comma; a value that is not a number is sent as the text it is, so the API names it.
 */
const SETTINGS_FIELDS = {
  'mail.spam_threshold': 'number',
  'mail.suspicious_threshold': 'number',
  'mail.allow': 'list',
  'mail.deny': 'list',
  'text.spam_threshold': 'number',
  'text.suspicious_threshold': 'number',
  'text.deny_terms': 'list',
  'text.llm_mode': 'choice',
  'hybrid.step_by_step': 'boolean',
  'campaigns.share': 'boolean',
  'campaigns.protect': 'boolean',
  'text_rules.allowed_languages': 'codes',
  'text_rules.max_links': 'number',
} as const;
export type SettingsField = keyof typeof SETTINGS_FIELDS;
export type SettingsFormValues = Partial<Record<SettingsField, string>>;

const MAX_FIELD = 200_000;
/** The posted form: text fields only (a repeated or missing field is a 400, not a guess). */
export const settingsFormSchema = z.object(
  Object.fromEntries(
    Object.keys(SETTINGS_FIELDS).map((name) => [name, z.string().max(MAX_FIELD).optional()]),
  ),
) as z.ZodType<SettingsFormValues>;

function valueOf(kind: (typeof SETTINGS_FIELDS)[SettingsField], raw: string): unknown {
  const text = raw.trim();
  if (text === '') return undefined;
  switch (kind) {
    case 'number': {
      const number = Number(text.replace(',', '.'));
      return Number.isFinite(number) ? number : text;
    }
    case 'list': {
      const entries = raw
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
      return entries.length > 0 ? entries : undefined;
    }
    case 'codes': {
      const codes = text.split(/[\s,;]+/).filter(Boolean);
      return codes.length > 0 ? codes : undefined;
    }
    case 'choice':
      return text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
  }
}

export function settingsFromForm(form: SettingsFormValues): Record<string, Record<string, unknown>> {
  const document: Record<string, Record<string, unknown>> = {};
  for (const [name, kind] of Object.entries(SETTINGS_FIELDS) as [
    SettingsField,
    (typeof SETTINGS_FIELDS)[SettingsField],
  ][]) {
    const value = valueOf(kind, form[name] ?? '');
    if (value === undefined) continue;
    const [group, field] = name.split('.') as [string, string];
    (document[group] ??= {})[field] = value;
  }
  return document;
}

export function formFromSettings(settings: ClientSettings): SettingsFormValues {
  const form: SettingsFormValues = {};
  for (const name of Object.keys(SETTINGS_FIELDS) as SettingsField[]) {
    const [group, field] = name.split('.') as [keyof ClientSettings, string];
    const value = (settings[group] as Record<string, unknown> | undefined)?.[field];
    if (value === undefined || value === null) continue;
    form[name] = Array.isArray(value)
      ? value.join(SETTINGS_FIELDS[name] === 'codes' ? ', ' : '\n')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  }
  return form;
}
