import { useCallback, useEffect, useRef, useState } from 'react';
import useEmblaCarousel from 'embla-carousel-react';
import Autoplay from 'embla-carousel-autoplay';
import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { prefersReducedMotion } from '../../components/layout/motion';
import { BusinessIcon } from './business-icon';
import type { BusinessSummary } from './types';
import styles from './business-carousel.module.css';

const AUTOPLAY_DELAY_MS = 2000;
/** Embla's duration unit (not ms); ~30 gives the slow glide the description's 3000 ms speed asks for. */
const SCROLL_DURATION = 30;

/**
 * The sliding row of business icons: 3 at a time on small screens, 5 from 768 px, looping and
 * playing by itself unless the visitor prefers reduced motion. It pauses while pointed at or
 * focused (so nothing moves under a keyboard user) and has pause/play, previous and next buttons.
 */
export default function BusinessCarousel({ businesses, headingId }: { businesses: BusinessSummary[]; headingId: string }) {
  const { t } = useI18n();
  const c = t.home.carousel;
  const [autoplay] = useState(() =>
    Autoplay({ delay: AUTOPLAY_DELAY_MS, playOnInit: false, stopOnInteraction: false, stopOnFocusIn: false, stopOnMouseEnter: false }),
  );
  const [viewportRef, emblaApi] = useEmblaCarousel(
    // A slide counts as shown when at least half of it is in view (for `inert` below). Focus
    // does not scroll: Tab would otherwise pull every next slide into view and walk all of them.
    { loop: true, align: 'start', duration: SCROLL_DURATION, inViewThreshold: 0.5, watchFocus: false },
    [autoplay],
  );
  const [userPaused, setUserPaused] = useState(prefersReducedMotion);
  const [canScroll, setCanScroll] = useState(false);
  // The slides on screen; null until embla knows. The others are inert, so Tab goes through
  // the 3 or 5 shown and then on to the controls, not through all ~30 businesses.
  const [inView, setInView] = useState<number[] | null>(null);
  const hold = useRef({ userPaused, hovered: false, focused: false });

  const apply = useCallback(() => {
    if (!emblaApi) return;
    const { userPaused: paused, hovered, focused } = hold.current;
    const plugin = emblaApi.plugins().autoplay;
    if (!plugin) return;
    if (paused || hovered || focused || !emblaApi.canScrollNext()) plugin.stop();
    else plugin.play();
  }, [emblaApi]);

  useEffect(() => {
    hold.current.userPaused = userPaused;
    apply();
  }, [userPaused, apply]);

  useEffect(() => {
    if (!emblaApi) return;
    const onUpdate = () => setCanScroll(emblaApi.canScrollNext() || emblaApi.canScrollPrev());
    onUpdate();
    // Empty only before embla's first look (it may have looked before this listener was on).
    const onInView = () => {
      const shown = emblaApi.slidesInView();
      setInView(shown.length > 0 ? shown : null);
    };
    onInView();
    // The plugin restarts itself after a drag; a paused carousel must stay paused.
    emblaApi.on('pointerUp', apply).on('reInit', onUpdate).on('reInit', apply).on('slidesInView', onInView);
    return () => {
      emblaApi.off('pointerUp', apply).off('reInit', onUpdate).off('reInit', apply).off('slidesInView', onInView);
    };
  }, [emblaApi, apply]);

  const setHold = (key: 'hovered' | 'focused', value: boolean) => {
    hold.current[key] = value;
    apply();
  };

  const total = businesses.length;
  return (
    <div
      className={styles.carousel}
      role="region"
      aria-roledescription={c.roleDescription}
      aria-labelledby={headingId}
      onMouseEnter={() => setHold('hovered', true)}
      onMouseLeave={() => setHold('hovered', false)}
    >
      <div
        className={styles.viewport}
        ref={viewportRef}
        onFocus={() => setHold('focused', true)}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget)) setHold('focused', false);
        }}
      >
        <div className={styles.container}>
          {businesses.map((business, index) => (
            <div
              key={business._id}
              className={styles.slide}
              role="group"
              aria-roledescription={c.slideRoleDescription}
              aria-label={c.slideLabel(index + 1, total)}
              inert={inView !== null && !inView.includes(index)}
            >
              <Link href={`/business/${business._id}`} className={styles.card}>
                <BusinessIcon src={business.icon} title={business.title} size={88} lazy={index >= 5} />
                <span className={styles.title}>{business.title}</span>
              </Link>
            </div>
          ))}
        </div>
      </div>
      {/* The row keeps its place while hidden, so the page does not move when embla reports
          that the slides can scroll. */}
      <div className={styles.controls} hidden={!canScroll}>
        <button type="button" className={styles.control} onClick={() => emblaApi?.scrollPrev()} aria-label={c.previous}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <button type="button" className={styles.control} onClick={() => setUserPaused((p) => !p)} aria-label={userPaused ? c.play : c.pause}>
          {userPaused ? (
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path d="M8 5v14l11-7z" fill="currentColor" />
            </svg>
          ) : (
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor" />
            </svg>
          )}
        </button>
        <button type="button" className={styles.control} onClick={() => emblaApi?.scrollNext()} aria-label={c.next}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </div>
    </div>
  );
}
