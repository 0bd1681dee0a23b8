import styles from './comment-feed.module.css';

/**
 * One row of cards on a wide screen, more than a phone's screen: the feed starts below the
 * fold, so this holds everything visible in place while keeping the first page's DOM small.
 */
const SKELETON_CARDS = 4;

/** Grey cards in the feed's grid while its first page loads, shaped like the real cards. */
export function FeedSkeletonGrid({ label }: { label: string }) {
  return (
    <div aria-busy="true">
      <p role="status" className="visually-hidden">
        {label}
      </p>
      <ul className={styles.grid} aria-hidden="true">
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <li key={i}>
            <div className={`card ${styles.card} ${styles.skeletonCard}`}>
              <div className={styles.business}>
                <span className={`skeleton ${styles.icon}`} />
                <span className={`skeleton ${styles.skeletonLine}`} />
              </div>
              <span className={`skeleton ${styles.photo}`} />
              <span className={`skeleton ${styles.text} ${styles.skeletonLine}`} />
              <span className={`skeleton ${styles.counts} ${styles.skeletonLine}`} />
              <span className={`skeleton ${styles.secondaryLink} ${styles.skeletonLine}`} />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
