import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router';

type Outputs = inferRouterOutputs<AppRouter>['business'];

export type DirectoryCard = Outputs['directory'][number];
export type DirectoryPage = Outputs['directoryPage'];
export type Business = Outputs['list'][number];
export type BusinessDetail = Outputs['byId'];
