import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { Link, useParams } from 'wouter';
import { useBusinessTitle } from '../features/business/business-card';
import { BusinessPicture } from '../features/business/business-picture';
import { FavoriteButton } from '../features/business/favorite-button';
import { useLocalized } from '../features/business/localized';
import { cut } from '../features/business/text';
import { useFavoriteToggle } from '../features/business/use-favorite';
import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../i18n';
import { useViewer } from '../lib/session';
import { useTRPC } from '../lib/trpc';
import styles from './favorites.module.css';

const FAVORITE_EXCERPT_CHARS = 50;

function codeOf(error: unknown): string | null {
  const code = error instanceof TRPCClientError ? (error.data as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' ? code : null;
}

function LoginNeeded() {
  const { t } = useI18n();
  return (
    <div className="notice">
      <p>{t.business.favorites.loginRequired}</p>
      <Link href="/login" className="btn btn-primary">
        {t.business.favorites.logIn}
      </Link>
    </div>
  );
}

export default function FavoritesPage() {
  const { userId = '' } = useParams<{ userId: string }>();
  const { t } = useI18n();
  const trpc = useTRPC();
  const me = useViewer();
  const query = useQuery({ ...trpc.business.favorites.queryOptions({ userId }), enabled: !!me });
  const toggleFavorite = useFavoriteToggle();
  const titleOf = useBusinessTitle();
  const localized = useLocalized();
  const f = t.business.favorites;
  const own = me?._id === userId;

  let content;
  if (!me || codeOf(query.error) === 'UNAUTHORIZED') {
    content = <LoginNeeded />;
  } else if (query.isPending) {
    content = <Spinner label={f.loading} showLabel />;
  } else if (query.isError) {
    content = (
      <p className="notice notice-error" role="alert">
        {codeOf(query.error) === 'FORBIDDEN' ? t.common.noAccess : f.fetchFailed}
      </p>
    );
  } else if (query.data.length === 0) {
    content = (
      <div className="notice">
        <p>{f.empty}</p>
        <Link href="/business" className="btn btn-outline">
          {f.backToProducts}
        </Link>
      </div>
    );
  } else {
    content = (
      <ul className={styles.grid}>
        {query.data.map((business) => {
          const title = titleOf(business);
          const description = localized.description(business);
          return (
            <li key={business.id} className={`card ${styles.card}`}>
              <BusinessPicture image={business.image} icon={business.icon} height={160} />
              <div className={styles.body}>
                <h2 className={styles.title}>
                  <Link href={`/business/${business.id}`} className={styles.link}>
                    {title}
                  </Link>
                </h2>
                <p className={styles.category}>{localized.category(business)}</p>
                <p className={styles.excerpt} lang={description.lang}>
                  {cut(description.text, FAVORITE_EXCERPT_CHARS)}
                </p>
              </div>
              {own ? (
                <div className={styles.heart}>
                  <FavoriteButton business={{ ...business, title }} onToggle={toggleFavorite} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="container page">
      <h1 className="page-title">{own || !me ? f.title : f.titleOf}</h1>
      <p className={styles.intro}>{f.intro}</p>
      {content}
    </div>
  );
}
