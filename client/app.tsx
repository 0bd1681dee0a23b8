import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Layout } from './components/layout/layout';
import { AppToaster } from './components/ui/toast';
import { I18nProvider, type Language } from './i18n';
import { makeQueryClient, makeTrpcClient, TRPCProvider } from './lib/trpc';
import { SessionQuery } from './lib/session';
import { SiteTextProvider } from './lib/site-text';
import { HydratedProvider } from './lib/hydrated';
import { AppRoutes } from './routes';
import type { SiteText } from '../shared/schemas/site-settings';

/**
 * `lang` and `site` are given only by the server's renders (client/prerender.tsx); the browser
 * reads the cookie and the page's <meta>. `rendersItself`: the browser renders the page itself
 * rather than hydrating the server's markup (client/start.tsx); false on the server.
 */
export function App({ lang, site, rendersItself = false }: { lang?: Language; site?: SiteText; rendersItself?: boolean } = {}) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <SessionQuery />
        <I18nProvider initial={lang}>
          <SiteTextProvider initial={site}>
            <HydratedProvider initially={rendersItself}>
              <Layout>
                <AppRoutes />
              </Layout>
              <AppToaster />
            </HydratedProvider>
          </SiteTextProvider>
        </I18nProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
