import type { DirectoryPageQuery } from '../../../shared/schemas/business';
import { SEARCH_MAX } from '../../../shared/schemas/comment-constants';

/** How many businesses the store chooser's list shows; more are a link to the directory away. */
export const CHOOSER_LIMIT = 20;

/**
 * The chooser asks the directory's own search (`business.directoryPage`: folded, ranked, title
 * matches first) for its list, so a keystroke fetches at most CHOOSER_LIMIT cards whatever the
 * number of businesses. One shape for the slot's first list and the chooser's, so they share a
 * cache entry.
 */
export function chooserQuery(text: string): DirectoryPageQuery {
  // The directory's search takes at most SEARCH_MAX characters (as its own field does).
  const search = text.trim().slice(0, SEARCH_MAX);
  return search ? { search, limit: CHOOSER_LIMIT } : { limit: CHOOSER_LIMIT };
}
