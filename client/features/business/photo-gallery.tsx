import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import useEmblaCarousel from 'embla-carousel-react';
import { Link } from 'wouter';
import type { Photo } from '../../../shared/schemas/photos';
import { useI18n } from '../../i18n';
import { exactDateTime } from '../../../shared/i18n/number';
import { useTRPC } from '../../lib/trpc';
import { LoadMore } from '../../components/ui/load-more';
import { Modal } from '../../components/ui/modal';
import styles from './photo-gallery.module.css';

/**
 * "Bilder (n)" on a business page: every picture of its comments and replies in a grid, newest
 * first, more on request; a picture opens the lightbox. Nothing shows while there are none.
 */
export function PhotoGallery({ businessId }: { businessId: string }) {
  const { t, number } = useI18n();
  const g = t.business.gallery;
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.business.photos.infiniteQueryOptions({ id: businessId }, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const [opened, setOpened] = useState<number | null>(null);

  if (!query.data) return null;
  const total = query.data.pages[0]?.total ?? 0;
  if (total === 0) return null;
  const photos = query.data.pages.flatMap((page) => page.items);

  return (
    <section className={`card ${styles.gallery}`} aria-labelledby="photos-heading">
      <h2 id="photos-heading" className={styles.heading}>
        {g.heading(number(total))}
      </h2>
      <ul className={styles.grid}>
        {photos.map((photo, i) => (
          <li key={photo.id}>
            <button
              type="button"
              className={styles.thumb}
              onClick={() => setOpened(i)}
              aria-label={g.open(i + 1, total, `${photo.author.firstName} ${photo.author.lastName}`)}
            >
              <img src={photo.url} alt="" width={photo.width} height={photo.height} loading="lazy" decoding="async" />
            </button>
          </li>
        ))}
      </ul>
      <LoadMore query={query} label={g.more} busyLabel={g.loadingMore} />
      {opened !== null ? (
        <Lightbox
          photos={photos}
          total={total}
          start={opened}
          onClose={() => setOpened(null)}
          onNearEnd={() => {
            if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
          }}
        />
      ) : null}
    </section>
  );
}

/** One picture at a time in a dialog: arrows, buttons or a swipe move; Escape closes. */
function Lightbox({ photos, total, start, onClose, onNearEnd }: { photos: Photo[]; total: number; start: number; onClose(): void; onNearEnd(): void }) {
  const { t, relative } = useI18n();
  const g = t.business.gallery;
  const [viewportRef, embla] = useEmblaCarousel({ startIndex: start, loop: false });
  const [index, setIndex] = useState(start);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setIndex(embla.selectedScrollSnap());
    embla.on('select', onSelect);
    return () => {
      embla.off('select', onSelect);
    };
  }, [embla]);
  // New pictures arrive as the end comes near; the carousel learns of its new slides.
  useEffect(() => {
    embla?.reInit();
  }, [embla, photos.length]);
  useEffect(() => {
    if (index >= photos.length - 2) onNearEnd();
  }, [index, photos.length, onNearEnd]);

  const prev = useCallback(() => embla?.scrollPrev(), [embla]);
  const next = useCallback(() => embla?.scrollNext(), [embla]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') prev();
    else if (e.key === 'ArrowRight') next();
    else return;
    e.preventDefault();
  };

  const photo = photos[index] ?? photos[0];
  const name = `${photo.author.firstName} ${photo.author.lastName}`.trim();
  const when = new Date(photo.createdAt);
  const link = photo.kind === 'reply' ? `/comment/${photo.commentId}#reply-${photo.id}` : `/comment/${photo.commentId}`;

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={g.position(index + 1, total)} size="lg" closeOnOutside>
      <div className={styles.lightbox} onKeyDown={onKeyDown}>
        <div className={styles.viewport} ref={viewportRef}>
          <div className={styles.track}>
            {photos.map((p, i) => (
              <div className={styles.slide} key={p.id} aria-hidden={i !== index || undefined}>
                <img src={p.url} alt={g.alt(`${p.author.firstName} ${p.author.lastName}`.trim())} width={p.width} height={p.height} />
              </div>
            ))}
          </div>
        </div>
        <div className={styles.bar}>
          <button type="button" className={styles.nav} onClick={prev} disabled={index === 0} aria-label={g.previous}>
            ‹
          </button>
          <p className={styles.caption} aria-live="polite">
            <span className={styles.author}>{name}</span>
            <time dateTime={when.toISOString()} title={exactDateTime(when, t.comments.card.postedAt) ?? undefined}>
              {relative(photo.createdAt)}
            </time>
            <Link href={link} className={styles.link}>
              {photo.kind === 'reply' ? g.toReply : g.toComment}
            </Link>
          </p>
          <button type="button" className={styles.nav} onClick={next} disabled={index >= photos.length - 1} aria-label={g.next}>
            ›
          </button>
        </div>
      </div>
    </Modal>
  );
}
