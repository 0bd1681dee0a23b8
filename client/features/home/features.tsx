import type { ReactNode } from 'react';
import { useI18n } from '../../i18n';
import styles from './home-page.module.css';

const paths: Record<'stars' | 'photos' | 'reactions' | 'replies' | 'favorites' | 'search', ReactNode> = {
  stars: <path d="M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z" />,
  photos: (
    <>
      <rect x="3" y="6" width="18" height="14" rx="2" />
      <circle cx="12" cy="13" r="3.5" />
      <path d="M8 6l1.5-2h5L16 6" />
    </>
  ),
  reactions: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M8 14.5c1 1.3 2.3 2 4 2s3-.7 4-2M9 9.5h.01M15 9.5h.01" />
    </>
  ),
  replies: <path d="M4 5h16v11H9l-5 4z" />,
  favorites: <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.4 4.5 7 4.5c2.1 0 3.5 1.2 5 3 1.5-1.8 2.9-3 5-3 3.6 0 5.5 3.7 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />,
  search: (
    <>
      <path d="M12 21s-6-5.4-6-10.5a6 6 0 0 1 12 0C18 15.6 12 21 12 21z" />
      <circle cx="12" cy="10.5" r="2.2" />
    </>
  ),
};

const order = ['stars', 'photos', 'reactions', 'replies', 'favorites', 'search'] as const;

/** What a member can do on the site, one card per feature. */
export function Features() {
  const { t } = useI18n();
  const f = t.home.features;
  return (
    <ul className={styles.featureGrid}>
      {order.map((key) => (
        <li key={key} className={styles.feature}>
          <span className={styles.featureIcon}>
            <svg
              viewBox="0 0 24 24"
              width="26"
              height="26"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
              focusable="false"
            >
              {paths[key]}
            </svg>
          </span>
          <h3 className={styles.cardTitle}>{f[key].title}</h3>
          <p className={styles.cardText}>{f[key].text}</p>
        </li>
      ))}
    </ul>
  );
}
