import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';

/** Id of the "Add New" suggestion-box business, or null while loading or when there is none. */
export function useSuggestionBoxId(): string | null {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.home.suggestionBox.queryOptions(), staleTime: 10 * 60_000 });
  return data?._id ?? null;
}
