// The English catalog's first part (client/i18n/catalogs.ts): its own chunk, loaded only for
// English visitors; the lazy namespaces follow with their pages.
import { enGB } from 'date-fns/locale/en-GB';
import { messages } from '../../shared/schemas/messages';
import type { Catalog } from '../../shared/i18n/types';
import { business } from '../../shared/i18n/en/business';
import { comments } from '../../shared/i18n/en/comments';
import { common } from '../../shared/i18n/en/common';
import { home } from '../../shared/i18n/en/home';
import { moderation } from '../../shared/i18n/en/moderation';
import { notifications } from '../../shared/i18n/en/notifications';
import type { Loaded, LazyNamespace } from './catalogs';

export function enFirst(): Loaded {
  // The server's own texts are English already.
  const first: Omit<Catalog, LazyNamespace> = { common, home, business, comments, moderation, notifications, messages: { ...messages } };
  return { t: first as Catalog, locale: enGB };
}
