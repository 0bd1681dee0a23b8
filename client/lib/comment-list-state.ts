import { useCallback } from 'react';
import { commentSorts, STAR_LEVELS, type CommentSort } from '../../shared/schemas/comment-constants';
import { withParam } from '../../shared/schemas/page-state';
import { useSearchParam } from './url-state';

/** `?sort=highest&stars=1,2&photos=1` on a business page: how its comments are ordered and narrowed. */
export const SORT_PARAM = 'sort';
export const STARS_PARAM = 'stars';
export const PHOTOS_PARAM = 'photos';

export const asCommentSort = (value: string): CommentSort => ((commentSorts as readonly string[]).includes(value) ? (value as CommentSort) : 'newest');

/** `1,2` → [1, 2]: known levels only, each once, in order; anything else is ignored. */
export function starLevelsOf(value: string): number[] {
  const levels = new Set(value.split(',').map(Number));
  return STAR_LEVELS.filter((level) => levels.has(level));
}

/** The query string with only the star filter changed (the breakdown's bars link to it). */
export const withStars = (search: string, levels: readonly number[]) => withParam(search, STARS_PARAM, levels.join(','));

/**
 * A business's comment order and filters, kept in the query string like its search (?q=):
 * a reload, Back and a shared link show the same list. Defaults are not written.
 */
export function useCommentListState() {
  const [sortParam, setSortParam] = useSearchParam(SORT_PARAM);
  const [starsParam, setStarsParam] = useSearchParam(STARS_PARAM);
  const [photosParam, setPhotosParam] = useSearchParam(PHOTOS_PARAM);
  const sort = asCommentSort(sortParam);
  const stars = starLevelsOf(starsParam);
  const photos = photosParam === '1';
  return {
    sort,
    stars,
    photos,
    setSort: useCallback((next: CommentSort) => setSortParam(next === 'newest' ? '' : next), [setSortParam]),
    setStars: useCallback((levels: readonly number[]) => setStarsParam([...levels].sort().join(',')), [setStarsParam]),
    setPhotos: useCallback((on: boolean) => setPhotosParam(on ? '1' : ''), [setPhotosParam]),
    /** What the list query takes: undefined for the defaults. */
    input: { sort: sort === 'newest' ? undefined : sort, stars: stars.length > 0 ? stars : undefined, photos: photos || undefined },
  };
}
