import { lazy, Suspense, useDeferredValue, useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { CommentFeed } from '../features/comments/comment-feed';
import { CarouselSkeleton } from '../features/home/carousel-skeleton';
import { FaqSlot } from '../features/home/faq-slot';

import { Features } from '../features/home/features';
import { StoreChooserSlot } from '../features/home/store-chooser-slot';
import { useI18n } from '../i18n';
import { useMe } from '../lib/session';
import { useSiteText } from '../lib/site-text';
import { inSiteName } from '../../shared/schemas/site-settings';
import { useTRPC } from '../lib/trpc';
import styles from '../features/home/home-page.module.css';

// Only an admin of an empty site sees it: its code loads then.
const FirstRunPrompt = lazy(() => import('../features/business/first-run-prompt').then((m) => ({ default: m.FirstRunPrompt })));

// The carousel (embla, ~12 KB of gzip) is not needed for the first paint: its chunk is fetched
// alongside the page's data, and a same-sized skeleton holds its place until both are there.
const loadCarousel = () => import('../features/home/business-carousel');
const BusinessCarousel = lazy(loadCarousel);

export default function HomePage() {
  const { t, number, lang } = useI18n();
  const trpc = useTRPC();
  const { me, isLoading: meLoading } = useMe();
  // The carousel's few businesses and the count: the same size however many businesses there are.
  const businesses = useQuery({ ...trpc.home.summary.queryOptions(), staleTime: 5 * 60_000 });
  const carouselItems = useMemo(() => businesses.data?.carousel ?? [], [businesses.data]);
  // The slides render in a deferred pass that yields to input; the skeleton stays until then.
  const slides = useDeferredValue(carouselItems);
  /** Real businesses (the suggestion box is none); null until known. */
  const businessCount = businesses.data ? businesses.data.count : null;
  useEffect(() => {
    loadCarousel().catch(() => {});
  }, []);
  const w = t.home.welcome;
  const site = useSiteText();
  const trust = t.home.trust;

  return (
    <div className={styles.home}>
      <section className={styles.hero} aria-labelledby="home-title">
        <div className="container">
          <div className={styles.heroGrid}>
            <div>
              <p className={styles.eyebrow}>{w.eyebrow}</p>
              <h1 id="home-title" className={styles.title}>
                {inSiteName(w.title, site.name)}
              </h1>
              <p className={styles.lead}>{site.welcome[lang]}</p>
              <div className={styles.actions}>
                <Link href="/business" className="btn btn-primary">
                  {w.browseAll}
                </Link>
                {/* Held in place (hidden) while the session loads, so the row does not reflow. */}
                {!me ? (
                  <Link href="/registration" className="btn btn-outline" style={meLoading ? { visibility: 'hidden' } : undefined}>
                    {w.join}
                  </Link>
                ) : null}
              </div>
            </div>
            <div className={styles.finder}>
              <StoreChooserSlot />
              <p className={styles.finderHint}>{inSiteName(t.home.chooser.hint, site.name)}</p>
            </div>
          </div>
        </div>
      </section>

      {businessCount === 0 && me?.isAdmin ? (
        <div className={styles.section}>
          <div className="container">
            <Suspense fallback={null}>
              <FirstRunPrompt />
            </Suspense>
          </div>
        </div>
      ) : null}

      {businesses.isError ? null : (
        <section className={styles.section} aria-labelledby="home-carousel-title">
          <div className="container">
            <h2 id="home-carousel-title" className={styles.sectionTitle}>
              {inSiteName(t.home.carousel.heading, site.name)}
            </h2>
            {businesses.isPending || (slides.length === 0 && carouselItems.length > 0) ? (
              <CarouselSkeleton label={t.common.loading} />
            ) : slides.length > 0 ? (
              <Suspense fallback={<CarouselSkeleton label={t.common.loading} />}>
                <BusinessCarousel businesses={slides} headingId="home-carousel-title" />
              </Suspense>
            ) : (
              <p className="muted">{t.home.carousel.empty}</p>
            )}
          </div>
        </section>
      )}

      <div className={styles.section}>
        <div className="container">
          <CommentFeed />
        </div>
      </div>

      <section className={styles.band} aria-labelledby="home-trust-title">
        <div className="container">
          <h2 id="home-trust-title" className={styles.sectionTitle}>
            {trust.heading}
          </h2>
          <p className={styles.mission}>{trust.mission}</p>
          <div className={styles.trustGrid}>
            {(['realFeedback', 'dailyInsights', 'communityPicks'] as const).map((key) => (
              <div key={key} className={styles.trustCard}>
                <h3 className={styles.cardTitle}>{trust[key].title}</h3>
                <p className={styles.cardText}>{trust[key].text}</p>
              </div>
            ))}
            {/* The real count of businesses, never a made-up one; none yet on a fresh install. */}
            <div className={styles.claim}>
              {businessCount === null ? (
                <p className={styles.claimText} aria-busy="true">
                  {businesses.isError ? inSiteName(trust.claimNone, site.name) : trust.claimLoading}
                </p>
              ) : businessCount === 0 ? (
                <p className={styles.claimText}>{inSiteName(trust.claimNone, site.name)}</p>
              ) : (
                <>
                  <p className={styles.claimNumber}>{number(businessCount)}</p>
                  <p className={styles.claimText}>{trust.claimText(businessCount)}</p>
                </>
              )}
            </div>
          </div>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="home-features-title">
        <div className="container">
          <h2 id="home-features-title" className={styles.sectionTitle}>
            {t.home.features.heading}
          </h2>
          <Features />
        </div>
      </section>

      <section className={styles.section} aria-labelledby="home-faq-title">
        <div className="container">
          <div className={styles.faq}>
            <h2 id="home-faq-title" className={styles.sectionTitle}>
              {t.home.faq.heading}
            </h2>
            <FaqSlot />
          </div>
        </div>
      </section>
    </div>
  );
}
