import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { PLUGIN_DIR } from './site';

// The plugin's files as WordPress.org would take them: every PHP file parses under the machine's PHP (8.2), and
// every string the plugin shows is translated into German and French, with the .mo files compiled from the .po
// files that are committed beside them (Debian's gettext: xgettext, msgfmt).

const run = promisify(execFile);
const LANGUAGES = join(PLUGIN_DIR, 'languages');
const LOCALES = ['de_DE', 'fr_FR'];
/** WordPress's translation functions that take the text first (xgettext's keywords). */
const KEYWORDS = ['__', '_e', 'esc_html__', 'esc_html_e', 'esc_attr__', 'esc_attr_e'];

function filesUnder(folder: string, extension: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path, extension);
    return path.endsWith(extension) ? [path] : [];
  });
}

/** The msgids of a .po or .pot file with their translations, as msgcat reads them (one entry per line). */
async function catalogue(path: string): Promise<Map<string, string>> {
  const { stdout } = await run('msgcat', ['--no-wrap', '--no-location', '--sort-output', path]);
  const entries = new Map<string, string>();
  for (const block of stdout.split('\n\n')) {
    const id = /^msgid "(.*)"$/m.exec(block)?.[1];
    const text = /^msgstr "(.*)"$/m.exec(block)?.[1];
    if (id) entries.set(id, text ?? '');
  }
  return entries;
}

/** The strings the plugin's code passes to WordPress's translation functions, and its header's description. */
async function pluginStrings(): Promise<string[]> {
  const files = filesUnder(PLUGIN_DIR, '.php').map((path) => relative(PLUGIN_DIR, path));
  const keywords = KEYWORDS.map((keyword) => `--keyword=${keyword}`);
  const { stdout } = await run(
    'xgettext',
    ['--language=PHP', '--from-code=UTF-8', ...keywords, '-o', '-', ...files],
    {
      cwd: PLUGIN_DIR,
    },
  );
  const ids = [...stdout.matchAll(/^msgid "(.+)"$/gm)].map((match) => match[1]!);
  const header = readFileSync(join(PLUGIN_DIR, 'spam-check.php'), 'utf8');
  const description = /Description:\s+(.+)/.exec(header)![1]!;
  return [...ids, description.replace(/"/g, '\\"')];
}

describe("the plugin's files", () => {
  it('parse under PHP (php -l on every file of the plugin and of this test)', async () => {
    const files = [...filesUnder(PLUGIN_DIR, '.php'), ...filesUnder(__dirname, '.php')];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const { stdout } = await run('php', ['-l', file]);
      expect(stdout).toContain('No syntax errors detected');
    }
  });

  it.each(LOCALES)('are translated into %s: every string the plugin shows', async (locale) => {
    const translations = await catalogue(join(LANGUAGES, `spam-check-${locale}.po`));
    const untranslated = (await pluginStrings()).filter((id) => !translations.get(id));
    expect(untranslated).toEqual([]);
  });

  it.each(LOCALES)('ship spam-check-%s.mo compiled from its .po', async (locale) => {
    const po = join(LANGUAGES, `spam-check-${locale}.po`);
    await run('msgfmt', ['--check', po, '-o', '/dev/null']);
    const { stdout } = await run('msgfmt', [po, '-o', '-'], { encoding: 'buffer' });
    expect(Buffer.compare(stdout, readFileSync(join(LANGUAGES, `spam-check-${locale}.mo`)))).toBe(0);
  });
});
