import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { RequireAuth } from './components/auth/require-auth';
import { Spinner } from './components/ui/spinner';
import { useI18n } from './i18n';

// Every page is its own chunk, so the first visit loads only the shell and that page.
const pages = {
  home: lazy(() => import('./pages/home')),
  about: lazy(() => import('./pages/about')),
  terms: lazy(() => import('./pages/terms')),
  policy: lazy(() => import('./pages/policy')),
  contact: lazy(() => import('./pages/contact')),
  notFound: lazy(() => import('./pages/not-found')),
  login: lazy(() => import('./pages/login')),
  registration: lazy(() => import('./pages/registration')),
  confirmEmail: lazy(() => import('./pages/confirm-email')),
  googleLogin: lazy(() => import('./pages/google-login')),
  forgotPassword: lazy(() => import('./pages/forgot-password')),
  resetPassword: lazy(() => import('./pages/reset-password')),
  profile: lazy(() => import('./pages/profile')),
  userManagement: lazy(() => import('./pages/user-management')),
  directory: lazy(() => import('./pages/directory')),
  businessDetail: lazy(() => import('./pages/business-detail')),
  favorites: lazy(() => import('./pages/favorites')),
  businessManagement: lazy(() => import('./pages/business-management')),
  comment: lazy(() => import('./pages/comment')),
  commentModeration: lazy(() => import('./pages/comment-moderation')),
  modQueue: lazy(() => import('./pages/mod-queue')),
  modLog: lazy(() => import('./pages/mod-log')),
} satisfies Record<string, LazyExoticComponent<ComponentType>>;

function PageFallback() {
  const { t } = useI18n();
  return (
    <div className="container page" aria-busy="true">
      <Spinner label={t.common.loading} />
    </div>
  );
}

export function AppRoutes() {
  const P = pages;
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        <Route path="/" component={P.home} />
        <Route path="/about" component={P.about} />
        <Route path="/terms-of-use" component={P.terms} />
        <Route path="/policy" component={P.policy} />
        <Route path="/contact" component={P.contact} />
        <Route path="/login" component={P.login} />
        <Route path="/logIn">
          <Redirect to="/login" replace />
        </Route>
        <Route path="/registration" component={P.registration} />
        <Route path="/users/confirm-email" component={P.confirmEmail} />
        <Route path="/google-logIn" component={P.googleLogin} />
        <Route path="/forgot-password" component={P.forgotPassword} />
        <Route path="/reset-password" component={P.resetPassword} />
        <Route path="/user">
          <RequireAuth>
            <P.profile />
          </RequireAuth>
        </Route>
        <Route path="/user-mng">
          <RequireAuth admin>
            <P.userManagement />
          </RequireAuth>
        </Route>
        <Route path="/business" component={P.directory} />
        <Route path="/products">
          <Redirect to="/business" replace />
        </Route>
        <Route path="/business/:id" component={P.businessDetail} />
        <Route path="/favorites/:userId">
          <RequireAuth>
            <P.favorites />
          </RequireAuth>
        </Route>
        <Route path="/business-mng">
          <RequireAuth admin>
            <P.businessManagement />
          </RequireAuth>
        </Route>
        <Route path="/comment/:id" component={P.comment} />
        <Route path="/cmt-mng">
          <RequireAuth admin>
            <P.commentModeration />
          </RequireAuth>
        </Route>
        <Route path="/mod-queue">
          <RequireAuth admin>
            <P.modQueue />
          </RequireAuth>
        </Route>
        <Route path="/mod-log">
          <RequireAuth admin>
            <P.modLog />
          </RequireAuth>
        </Route>
        <Route component={P.notFound} />
      </Switch>
    </Suspense>
  );
}
