import { Readable } from 'node:stream';
import { formFields, spamCheck, type SpamCheckOptions, type SubmissionOutcome } from '@spam-check/middleware';
import express, { type Express, type Request, type Response } from 'express';
import { contactRoute } from './contact-route';
import { formPage, outcomePage, refusedPage } from './pages';

/** Runs a fetch-style handler (Next.js, Hono) for an Express route. */
function fetchHandler(handler: (request: Request_) => Promise<Response_>) {
  return async (req: Request, res: Response) => {
    const request = new globalThis.Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    });
    const answer = await handler(request);
    res
      .status(answer.status)
      .set(Object.fromEntries(answer.headers))
      .send(await answer.text());
  };
}
type Request_ = globalThis.Request;
type Response_ = globalThis.Response;

/**
 * The example site: a comment form (e-mail and text: a hybrid check) and a sign-up form (e-mail only) on
 * Express with the middleware, and a contact form whose route is a fetch-style handler with checkSubmission().
 */
export function createSite(options: SpamCheckOptions): Express {
  const app = express();
  const hidden = () => formFields({ secret: options.secret });
  // One guard per form: each says what kind of form it is, and the comment form who wrote the comment.
  const guard = (own: Pick<SpamCheckOptions, 'formType' | 'fields'>) =>
    spamCheck({
      ...options,
      ...own,
      onRefused: (_req, res, outcome) => {
        res.statusCode = outcome.status === 'unavailable' ? 503 : 422;
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(refusedPage('Your submission', outcome));
      },
    });
  const commentGuard = guard({
    formType: 'comment',
    fields: { ...options.fields, authorName: 'name', authorUrl: 'website' },
  });
  const form = express.urlencoded({ extended: false, limit: '200kb' });

  app.get('/', (_req, res) => res.redirect('/comments'));
  app.get('/comments', (_req, res) => {
    res.send(
      formPage('Leave a comment', '/comments', ['name', 'website', 'email', 'title', 'body'], hidden()),
    );
  });
  app.post('/comments', form, commentGuard, (_req, res) => {
    res.send(outcomePage('your comment', res.locals.spamCheck as SubmissionOutcome | undefined));
  });
  app.get('/signup', (_req, res) => res.send(formPage('Sign up', '/signup', ['email'], hidden())));
  app.post('/signup', form, guard({ formType: 'signup' }), (_req, res) => {
    res.send(outcomePage('your sign-up', res.locals.spamCheck as SubmissionOutcome | undefined));
  });
  app.get('/contact', (_req, res) => {
    res.send(formPage('Contact us', '/api/contact', ['email', 'body'], hidden()));
  });
  app.post('/api/contact', fetchHandler(contactRoute({ ...options, formType: 'contact' })));
  return app;
}
