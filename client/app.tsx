import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Layout } from './components/layout/layout';
import { AppToaster } from './components/ui/toast';
import { I18nProvider } from './i18n';
import { makeQueryClient, makeTrpcClient, TRPCProvider } from './lib/trpc';
import { AppRoutes } from './routes';

export function App() {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <I18nProvider>
          <Layout>
            <AppRoutes />
          </Layout>
          <AppToaster />
        </I18nProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
