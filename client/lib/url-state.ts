import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SEARCH_MAX } from '../../shared/schemas/comment-constants';
import { withParam } from '../../shared/schemas/page-state';

/**
 * One query-string parameter as state: reload, Back and a shared link show the page as it was.
 * Setting it replaces the history entry instead of adding one: a filter or a search is a view
 * of the same page, so Back still leaves the page (and typing adds no entry per key).
 */
export function useSearchParam(name: string): [string, (value: string) => void] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const value = new URLSearchParams(search).get(name) ?? '';
  const set = useCallback(
    (next: string) => {
      const { pathname, search: current, hash } = window.location;
      const query = withParam(current, name, next);
      if (query !== current) navigate(`${pathname}${query}${hash}`, { replace: true });
    },
    [name, navigate],
  );
  return [value, set];
}

/**
 * A search box kept in the query string: `text` follows every key, the URL (and `term`, what
 * to search for) follows `ms` after the typing stops. A change of the URL from elsewhere
 * (Back, a link to the page without a search) puts its text in the box.
 */
export function useSearchParamText(name: string, ms: number) {
  const [param, setParam] = useSearchParam(name);
  const term = param.slice(0, SEARCH_MAX);
  const [text, setText] = useState(term);
  // The last value this box wrote, and the URL's value at the last render.
  const [written, setWritten] = useState(term);
  const [seen, setSeen] = useState(term);
  const timer = useRef<number | undefined>(undefined);
  if (term !== seen) {
    setSeen(term);
    if (term !== written) setText(term);
  }
  useEffect(() => {
    // The URL moved without us: a pending write would undo that move.
    if (term !== written) window.clearTimeout(timer.current);
  }, [term, written]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const write = useCallback(
    (value: string) => {
      setWritten(value);
      setParam(value);
    },
    [setParam],
  );
  const change = useCallback(
    (next: string) => {
      setText(next);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => write(next.trim()), ms);
    },
    [ms, write],
  );
  /** Empties the box and the URL at once (e.g. after posting, to show the new comment). */
  const clear = useCallback(() => {
    window.clearTimeout(timer.current);
    setText('');
    write('');
  }, [write]);
  return { text, change, clear, term: term.trim() };
}
