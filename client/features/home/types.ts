import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router';

export type BusinessSummary = inferRouterOutputs<AppRouter>['home']['summary']['carousel'][number];
