import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { matchRoute, NOT_FOUND_PAGE, ROUTES, type PageName } from '../shared/schemas/routes';
import { RequireAuth } from './features/accounts/require-auth';
import { Spinner } from './components/ui/spinner';
import { loadPageNamespaces, useI18n } from './i18n';

// Every page is its own chunk, so the first visit loads only the shell and that page. The
// routes and their pages are listed once, in shared/schemas/routes.ts.
const modules = import.meta.glob<{ default: ComponentType }>('./pages/*.tsx');
type PageModule = { default: ComponentType };
const loaded = new Map<string, PageModule>();
function pageOf(name: PageName): LazyExoticComponent<ComponentType> {
  const load = modules[`./pages/${name}.tsx`];
  if (!load) throw new Error(`client/pages/${name}.tsx is missing`);
  // A page loaded before the first render (preloadPage) is handed over at once: a thenable that
  // answers synchronously lets React.lazy render it without suspending, so the first render
  // does not put the spinner where the server's first paint was. A page comes with the catalog
  // namespaces it uses that the first chunk lacks (client/i18n/catalogs.ts).
  return lazy(() => {
    const page = loaded.get(name);
    return page ? ({ then: (resolve: (m: PageModule) => void) => resolve(page) } as unknown as Promise<PageModule>) : withNamespaces(name, load);
  });
}

function withNamespaces(name: PageName, load: () => Promise<PageModule>): Promise<PageModule> {
  return Promise.all([load(), loadPageNamespaces(name)]).then(([page]) => page);
}

/** Loads the page of `path` and its catalog namespaces (client/start.tsx, before the first render); nothing for a path no page has. */
export async function preloadPage(path: string): Promise<void> {
  const name = matchRoute(path)?.route.page;
  const load = name ? modules[`./pages/${name}.tsx`] : undefined;
  if (name && load) loaded.set(name, await withNamespaces(name as PageName, load));
}
const NotFound = pageOf(NOT_FOUND_PAGE);
const routes = ROUTES.map((route) => ('redirect' in route ? route : { ...route, Page: pageOf(route.page) }));

function PageFallback() {
  const { t } = useI18n();
  return (
    <div className="container page" aria-busy="true">
      <Spinner label={t.common.loading} />
    </div>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        {routes.map((route) => {
          if ('redirect' in route) {
            return (
              <Route key={route.path} path={route.path}>
                <Redirect to={route.redirect} replace />
              </Route>
            );
          }
          const { Page } = route;
          return (
            <Route key={route.path} path={route.path}>
              {'auth' in route ? (
                <RequireAuth role={route.auth === 'admin' || route.auth === 'moderator' ? route.auth : undefined}>
                  <Page />
                </RequireAuth>
              ) : (
                <Page />
              )}
            </Route>
          );
        })}
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
