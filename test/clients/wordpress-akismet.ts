import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@spam-check/process-kit';
import { PERSON_AGENT } from '../wordpress/pages';
import { startSite, WORDPRESS, type WordPressSite } from '../wordpress/site';

/** The must-use plugin exactly as docs/akismet.md gives it (its only PHP block), so doc and test cannot drift. */
function documentedMuPlugin(): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'akismet.md'), 'utf8');
  const blocks = [...doc.matchAll(/```php\n([\s\S]*?)```/g)].map((match) => match[1]!);
  if (blocks.length !== 1 || !blocks[0]!.includes("'pre_http_request'"))
    throw new Error(`docs/akismet.md should hold one PHP block, the must-use plugin; found ${blocks.length}`);
  return blocks[0]!;
}

/**
 * A site of the WordPress harness with Debian's Akismet plugin (linked, unmodified, active) and the documented
 * must-use plugin, its URL set by a must-use plugin loaded before it (WordPress loads them by file name).
 */
export async function startAkismetSite(gateway: string, key: string): Promise<WordPressSite> {
  const site = await startSite({
    plugins: { akismet: join(WORDPRESS, 'wp-content', 'plugins', 'akismet') },
    muPlugins: {
      '0-spam-check-akismet-url.php': `<?php\ndefine( 'SPAM_CHECK_AKISMET_URL', ${JSON.stringify(gateway)} );\n`,
      'spam-check-akismet.php': documentedMuPlugin(),
    },
  });
  try {
    await site.php(
      'options',
      JSON.stringify({
        active_plugins: ['akismet/akismet.php'],
        wordpress_api_key: key,
        // Spam Akismet calls blatant stays in the spam folder for the test to read (no silent discard).
        akismet_strictness: '0',
        // A first comment of an address is approved when the check lets it through.
        comment_moderation: 0,
        comment_previously_approved: 0,
      }),
    );
    return site;
  } catch (error) {
    await site.remove();
    throw error;
  }
}

/** Posts a comment to the first post through wp-comments-post.php as a browser does; returns its id. */
export async function postComment(
  site: WordPressSite,
  author: { name: string; email: string },
  text: string,
): Promise<number> {
  const response = await fetch(`${site.url}/wp-comments-post.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'user-agent': PERSON_AGENT },
    body: new URLSearchParams({
      comment_post_ID: '1',
      comment_parent: '0',
      author: author.name,
      email: author.email,
      url: '',
      comment: text,
    }),
  });
  const id = /#comment-(\d+)/.exec(response.headers.get('location') ?? '')?.[1];
  if (id === undefined)
    throw new Error(
      `WordPress did not take the comment (${response.status}): ${(await response.text()).slice(0, 500)}`,
    );
  return Number(id);
}
