// Plain numbers and lists without zod, so client code that needs only these (the home feed)
// does not pull the schema library into its chunk.
export const COMMENT_TEXT_MIN = 2;
export const COMMENT_TEXT_MAX = 2000;
export const REPLY_TEXT_MAX = 1000;
/**
 * Another place than the business's branches: a normal place name ("Uppsala Gottsunda
 * Centrum"), bounded. The description's 2 words and 20 characters refused real names (issue 29.4).
 */
export const LOCATION_MAX = 60;
export const LOCATION_MAX_WORDS = 6;
export const SEARCH_MAX = 100;
/**
 * Feed cards show two to three lines of the text, cut by CSS (issue 30 replaced the
 * description's 20 characters); this bounds what a card carries into the page and its link's name.
 */
export const FEED_EXCERPT_CHARS = 240;
/** All Comments: the first page, then each Load More (description section 9). */
export const FEED_FIRST_PAGE = 12;
export const FEED_MORE_PAGE = 9;
/** MOST REPLIED and TOP RATED show at most this many. */
export const FEED_TOP = 12;
export const BUSINESS_PAGE = 20;
export const REPLIES_PAGE = 20;
export const MODERATION_PAGE = 50;
export const EMOJI_RATES = [1, 2, 3, 4, 5] as const;

export const feedFilters = ['all', 'mostReplied', 'topRated'] as const;
export type FeedFilter = (typeof feedFilters)[number];

/** How a business's comments can be ordered (issue 19); `newest` is the default. */
export const commentSorts = ['newest', 'oldest', 'highest', 'lowest', 'helpful', 'replied'] as const;
export type CommentSort = (typeof commentSorts)[number];
export const STAR_LEVELS = [1, 2, 3, 4, 5] as const;
