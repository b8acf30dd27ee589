import { checkSubmission, type SpamCheckOptions } from '@spam-check/middleware';
import { outcomePage, refusedPage } from './pages';

/**
 * A Next.js-style route handler (`app/contact/route.ts` would export `POST`): a fetch `Request` in, a
 * `Response` out, with `checkSubmission()` and no Express.
 */
export function contactRoute(options: SpamCheckOptions) {
  return async function POST(request: Request): Promise<Response> {
    const fields = await request.formData();
    const outcome = await checkSubmission({ fields, userAgent: request.headers.get('user-agent') }, options);
    const html = outcome.allowed
      ? outcomePage('your message', outcome)
      : refusedPage('Your message', outcome);
    const status = outcome.allowed ? 200 : outcome.status === 'unavailable' ? 503 : 422;
    return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  };
}
