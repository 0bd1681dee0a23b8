import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../services/deps';
import { isAppError } from '../lib/errors';
import type { Language } from '../../shared/schemas/common';
import { mailCategories, type MailCategory } from '../../shared/schemas/notifications';
import { checkUnsubscribe, unsubscribe, type UnsubscribeTarget } from '../services/notifications/notification-mails';

const targetSchema = z.object({ user: z.string().min(1).max(64), kind: z.enum(mailCategories), token: z.string().min(1).max(100) });

const pageText = {
  sv: {
    title: 'E-post från Recensera',
    kinds: { replies: 'svar', reactions: 'reaktioner', reviews: 'nya recensioner av dina favoriter', moderation: 'moderering' },
    ask: (kind: string) => `Vill du sluta få e-post om ${kind}?`,
    button: 'Ja, sluta skicka',
    done: (kind: string) => `Klart: du får inte längre e-post om ${kind}. Notiserna på webbplatsen finns kvar.`,
    settings: 'Ändra dina val på din profil',
    invalid: 'Länken gäller inte. Ändra dina val för e-post på din profil.',
  },
  en: {
    title: 'E-mail from Recensera',
    kinds: { replies: 'replies', reactions: 'reactions', reviews: 'new reviews of your favourites', moderation: 'moderation' },
    ask: (kind: string) => `Do you want to stop e-mail about ${kind}?`,
    button: 'Yes, stop sending',
    done: (kind: string) => `Done: you no longer get e-mail about ${kind}. The notifications on the site stay.`,
    settings: 'Change your choices on your profile',
    invalid: 'This link is not valid. Change your e-mail choices on your profile.',
  },
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, lang: Language, status: number, body: string) {
  const t = pageText[lang];
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('X-Robots-Tag', 'noindex')
    .send(
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escape(t.title)}</title></head><body><main><h1>${escape(t.title)}</h1>${body}` +
        `<p><a href="/user?lang=${lang}">${escape(t.settings)}</a></p></main></body></html>`,
    );
}

/**
 * The List-Unsubscribe link of notification mails (RFC 8058), outside /api because browsers open
 * it: GET shows what it will do and a button; POST, with no cookie needed (mail providers send
 * `List-Unsubscribe=One-Click` as a form body), turns that kind of mail off, idempotently, and
 * says so. The token proves the link came in the user's mail; the log never shows it (log-redact).
 */
export function unsubscribeRoutes(deps: Deps) {
  return async function routes(app: FastifyInstance) {
    // Mail providers' one-click POST is a form body; nothing here needs its fields.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    const handle = (turnOff: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      const parsed = targetSchema.safeParse(request.query);
      const fallback: Language = (request.headers['accept-language'] ?? '').startsWith('en') ? 'en' : 'sv';
      if (!parsed.success) return page(reply, fallback, 400, `<p>${escape(pageText[fallback].invalid)}</p>`);
      const target: UnsubscribeTarget = parsed.data;
      const kind: MailCategory = target.kind;
      try {
        const { language } = turnOff ? unsubscribe(deps.db, target) : checkUnsubscribe(deps.db, target);
        const t = pageText[language];
        if (turnOff) return page(reply, language, 200, `<p role="status">${escape(t.done(t.kinds[kind]))}</p>`);
        const action = `/unsubscribe?${new URLSearchParams(target).toString()}`;
        return page(
          reply,
          language,
          200,
          `<p>${escape(t.ask(t.kinds[kind]))}</p><form method="post" action="${escape(action)}"><button type="submit">${escape(t.button)}</button></form>`,
        );
      } catch (err) {
        if (isAppError(err) && err.code === 'NOT_FOUND') return page(reply, fallback, 404, `<p>${escape(pageText[fallback].invalid)}</p>`);
        throw err;
      }
    };

    app.get('/unsubscribe', handle(false));
    app.post('/unsubscribe', handle(true));
  };
}
