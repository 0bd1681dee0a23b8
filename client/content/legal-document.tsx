import { Blocks } from './prose';
import type { LegalDocument } from './types';
import styles from './prose.module.css';

/** A numbered legal text (terms, policy): title, date, table of contents, numbered sections. */
export function LegalDocumentView({ doc }: { doc: LegalDocument<readonly string[]> }) {
  const { sections } = doc;
  return (
    <article className={`container page ${styles.doc}`} aria-labelledby="doc-title">
      <header className={styles.header}>
        <h1 id="doc-title" className="page-title">
          {doc.title}
        </h1>
        <p className={styles.updated}>
          {doc.updatedLabel} <time dateTime={doc.isoDate}>{doc.updated}</time>
        </p>
        <div className={styles.intro}>
          <Blocks blocks={doc.intro} />
        </div>
      </header>
      <nav className={styles.toc} aria-labelledby="doc-toc">
        <h2 id="doc-toc" className={styles.tocTitle}>
          {doc.tocLabel}
        </h2>
        <ol>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.sections}>
        {sections.map((s, i) => (
          <section key={s.id} id={s.id} className={styles.section} aria-labelledby={`${s.id}-title`}>
            <h2 id={`${s.id}-title`}>
              <span className={styles.number}>{i + 1}.</span> {s.title}
            </h2>
            <Blocks blocks={s.blocks} />
          </section>
        ))}
      </div>
    </article>
  );
}
