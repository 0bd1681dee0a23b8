import { useQuery } from '@tanstack/react-query';
import type { MyBusiness } from '../../../shared/schemas/owners';
import { useViewer } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';

const none: MyBusiness[] = [];

/** The signed-in user's owned and claimed businesses (empty for visitors), read once and shared by every card. */
export function useMyBusinesses(): MyBusiness[] {
  const trpc = useTRPC();
  const me = useViewer();
  const query = useQuery({ ...trpc.owners.mine.queryOptions(), enabled: !!me && !me.isBanned, staleTime: 60_000 });
  return me ? (query.data ?? none) : none;
}

/** Whether the signed-in user owns the business. */
export function useOwns(businessId: string): boolean {
  return useMyBusinesses().some((b) => b.businessId === businessId && b.status === 'approved');
}

/** Whether the signed-in user may edit the business's facts: admins and its owners (the server checks the same). */
export function useMayEditFacts(businessId: string): boolean {
  const me = useViewer();
  const owns = useOwns(businessId);
  return !!me && !me.isBanned && (me.isAdmin || owns);
}
