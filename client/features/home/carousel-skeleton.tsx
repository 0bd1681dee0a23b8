import styles from './business-carousel.module.css';

/**
 * The carousel's place while the list (or the carousel's own chunk) loads: the same slides,
 * cards and control row, in grey, so the sections below do not move when it arrives.
 */
export function CarouselSkeleton({ label }: { label: string }) {
  return (
    <div className={styles.carousel} aria-busy="true">
      <span role="status" className="visually-hidden">
        {label}
      </span>
      <div className={styles.viewport} aria-hidden="true">
        <div className={styles.container}>
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className={styles.slide}>
              <div className={styles.card}>
                <span className="skeleton" />
                <span className={`skeleton ${styles.titleSkeleton}`} />
              </div>
            </div>
          ))}
        </div>
      </div>
      <div className={styles.controls} aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <span key={i} className={`skeleton ${styles.controlSkeleton}`} />
        ))}
      </div>
    </div>
  );
}
