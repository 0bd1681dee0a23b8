import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Layout } from './components/layout/layout';
import { AppToaster } from './components/ui/toast';
import { I18nProvider, type Language } from './i18n';
import { makeQueryClient, makeTrpcClient, TRPCProvider } from './lib/trpc';
import { AppRoutes } from './routes';

/** `lang` is given only by the build-time prerender (client/prerender.tsx); the browser reads the cookie. */
export function App({ lang }: { lang?: Language } = {}) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <I18nProvider initial={lang}>
          <Layout>
            <AppRoutes />
          </Layout>
          <AppToaster />
        </I18nProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
