import { parseArgs } from 'node:util';
import type { TextFeedbackStore } from '../../data-access/text-feedback-store';

const USAGE = `usage: feedback export [--client <id>] [--out <file>]
  Writes the text reports of one client (or of every client) as JSON lines in the training format of
  ../shared/data/text/ ({id, source: "feedback/<client>", title, body, label, lang?}); the training script
  takes such a file with --extra <file>. Texts are in the model's canonical form (links, e-mail addresses and
  digits replaced by placeholders), as kept for reports.`;

/** `feedback export`: the lines to write, one report per line, oldest first. */
export async function exportLines(
  args: string[],
  store: Pick<TextFeedbackStore, 'clients' | 'reportedTexts'>,
): Promise<{ lines: string[]; out: string | undefined }> {
  const [command, subcommand, ...rest] = args;
  if (command !== 'feedback' || subcommand !== 'export') throw new Error(USAGE);
  const { values } = parseArgs({
    args: rest,
    options: { client: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const clients = values.client === undefined ? (await store.clients()).sort() : [values.client];
  const lines: string[] = [];
  for (const client of clients) {
    const texts = await store.reportedTexts(client);
    texts.forEach((text, index) =>
      lines.push(
        JSON.stringify({
          id: `feedback/${client}/${index}`,
          source: `feedback/${client}`,
          title: text.title,
          body: text.body,
          label: text.label,
          ...(text.language === null ? {} : { lang: text.language }),
        }),
      ),
    );
  }
  return { lines, out: values.out };
}
