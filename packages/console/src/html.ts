/** Markup that is already safe (built by `html`), inserted as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return (value as readonly Value[]).map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every interpolated value unless it is `Html` (built by this tag), so text from
 * the API, the user or a catalogue can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return new Html(
    strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]) : ''), ''),
  );
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no text can close the element. */
export function jsonBlock(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}
