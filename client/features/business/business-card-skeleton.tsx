import styles from './business-card.module.css';

/** Grey directory cards while the list loads, as tall as real ones, so the grid does not jump. */
export function BusinessCardSkeletons({ count, label, className }: { count: number; label: string; className: string }) {
  return (
    <div aria-busy="true">
      <p role="status" className="visually-hidden">
        {label}
      </p>
      <ul className={className} aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <li key={i}>
            <div className={`card ${styles.card}`}>
              <span className={`skeleton ${styles.skeletonPicture}`} />
              <div className={styles.body}>
                <span className={`skeleton ${styles.skeletonTitle}`} />
                <span className={`skeleton ${styles.skeletonText}`} />
                <span className={`skeleton ${styles.skeletonText}`} />
                <div className={styles.footer}>
                  <span className={`skeleton ${styles.skeletonStars}`} />
                  <span className={styles.skeletonHeart} />
                </div>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
