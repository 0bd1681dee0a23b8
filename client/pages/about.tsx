import { Link } from 'wouter';
import { about } from '../content/about';
import { useI18n } from '../i18n';
import styles from './about.module.css';

export default function AboutPage() {
  const { lang } = useI18n();
  const c = about[lang];
  return (
    <div className={`container page ${styles.page}`}>
      <header className={styles.hero}>
        <p className={styles.eyebrow}>{c.eyebrow}</p>
        <h1 className="page-title">{c.title}</h1>
        <p className={styles.lead}>{c.lead}</p>
      </header>

      <section aria-labelledby="about-how">
        <h2 id="about-how">{c.how.title}</h2>
        <ol className={styles.steps}>
          {c.how.steps.map((step) => (
            <li key={step.title} className={`card ${styles.step}`}>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="about-community" className={styles.community}>
        <h2 id="about-community">{c.community.title}</h2>
        {c.community.paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </section>

      <section aria-labelledby="about-promises">
        <h2 id="about-promises">{c.promises.title}</h2>
        <ul className={styles.promises}>
          {c.promises.items.map((item) => (
            <li key={item.title}>
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="about-cta" className={styles.cta}>
        <h2 id="about-cta">{c.cta.title}</h2>
        <p>{c.cta.text}</p>
        <div className={styles.actions}>
          <Link href="/business" className="btn btn-primary">
            {c.cta.browse}
          </Link>
          <Link href="/registration" className="btn btn-outline">
            {c.cta.register}
          </Link>
          <Link href="/contact" className="btn btn-ghost">
            {c.cta.contact}
          </Link>
        </div>
      </section>
    </div>
  );
}
