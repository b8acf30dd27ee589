import { goldenTexts } from '../../test/integration/golden/cases';

export interface BenchText {
  title: string;
  body: string;
  lang: 'de' | 'fr' | 'en';
}

const SIZE = 2048;

/**
 * 2 KB texts made of the repository's own made-up texts (the golden set): for each text, it and the texts
 * after it of the same language and label, joined until 2 KB, so every text is distinct and reads as one
 * language and one kind.
 */
export function benchTexts(): BenchText[] {
  const all = goldenTexts();
  return all.map((first, index) => {
    const kin = all.filter((text) => text.lang === first.lang && text.label === first.label);
    const start = kin.indexOf(all[index]!);
    let body = '';
    for (let i = 0; body.length < SIZE; i++) body += `${kin[(start + i) % kin.length]!.body}\n\n`;
    return { title: first.title, body: body.slice(0, body.lastIndexOf(' ', SIZE)), lang: first.lang };
  });
}

/** The text as a minimal mail, as Rspamd reads a message. */
export function asMail(text: BenchText, index: number): string {
  return [
    'From: sender@example.org',
    'To: site@example.net',
    `Subject: ${text.title}`,
    'Date: Sat, 28 Nov 2026 12:00:00 +0000',
    `Message-ID: <bench-${index}@example.org>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    text.body,
    '',
  ].join('\r\n');
}
