import type { SubmissionOutcome } from '@spam-check/middleware';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(title: string, content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>
<body><nav><a href="/comments">Comments</a> · <a href="/signup">Sign up</a> · <a href="/contact">Contact</a></nav>
<h1>${escape(title)}</h1>${content}</body></html>`;
}

/** A form with the given fields (each a text input or, for `body`, a textarea) and the spam check's hidden fields. */
export function formPage(title: string, action: string, fields: string[], hidden: string): string {
  const inputs = fields
    .map((name) =>
      name === 'body'
        ? `<p><label>${name} <textarea name="${name}" id="${name}"></textarea></label></p>`
        : `<p><label>${name} <input name="${name}" id="${name}"></label></p>`,
    )
    .join('');
  return page(title, `<form method="post" action="${action}">${inputs}${hidden}<button>Send</button></form>`);
}

/** What the person sees after posting: accepted (and, in dry-run or unchecked, why that matters) or refused. */
export function outcomePage(what: string, outcome: SubmissionOutcome | undefined): string {
  const notes: string[] = [];
  if (outcome?.status === 'unavailable')
    notes.push(
      outcome.allowed
        ? 'The spam check was unavailable: accepted without a check.'
        : 'The spam check is unavailable, so it was not accepted. Please try again later.',
    );
  else if (outcome?.mode === 'dry-run' && outcome.verdict !== 'ham')
    notes.push(`Dry run: the spam check says ${outcome.verdict}; it was logged, not refused.`);
  if (outcome?.verdict) notes.push(`Verdict: <span id="verdict">${outcome.verdict}</span>.`);
  const heading =
    outcome && !outcome.allowed ? `${what} was not accepted` : `Thank you: ${what} was accepted`;
  return page(heading, notes.map((note) => `<p class="note">${note}</p>`).join(''));
}

export function refusedPage(what: string, outcome: SubmissionOutcome): string {
  if (outcome.status === 'unavailable') return outcomePage(what, outcome);
  const codes = outcome.reasons.map((reason) => reason.code).join(', ');
  return page(`${what} was not accepted`, `<p class="note">It looks like spam (${escape(codes)}).</p>`);
}
