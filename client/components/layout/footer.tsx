import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useMe } from '../../lib/session';
import { useLoginHref } from '../accounts/sign-in';
import { FacebookIcon, InstagramIcon, LinkedinIcon } from './icons';
import { Logo } from './logo';
import styles from './footer.module.css';

const socialLinks = [
  { key: 'facebook', href: 'https://www.facebook.com/', Icon: FacebookIcon },
  { key: 'instagram', href: 'https://www.instagram.com/', Icon: InstagramIcon },
  { key: 'linkedin', href: 'https://www.linkedin.com/', Icon: LinkedinIcon },
] as const;

export function Footer() {
  const { t } = useI18n();
  const f = t.common.footer;
  const { me, isLoading } = useMe();
  const loginHref = useLoginHref();
  return (
    <footer className={styles.footer}>
      <div className={styles.top}>
        <div className={`container ${styles.grid}`}>
          <div className={styles.brand}>
            <Logo className={styles.logo} />
            <p className={styles.tagline}>{f.tagline}</p>
            <p className={styles.followLabel}>{f.follow}</p>
            <ul className={styles.social}>
              {socialLinks.map(({ key, href, Icon }) => (
                <li key={key}>
                  <a href={href} target="_blank" rel="noopener noreferrer" aria-label={f.social[key]} className={styles.socialLink}>
                    <Icon />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <nav className={styles.columns} aria-label={f.footerNav}>
            <div>
              <h2 className={styles.heading}>{f.siteHeading}</h2>
              <ul className={styles.list}>
                <li>
                  <Link href="/about">{f.aboutUs}</Link>
                </li>
                <li>
                  <Link href="/contact">{f.contactUs}</Link>
                </li>
              </ul>
            </div>
            <div>
              <h2 className={styles.heading}>{f.exploreHeading}</h2>
              <ul className={styles.list}>
                <li>
                  <Link href="/business">{f.allStores}</Link>
                </li>
                {me ? (
                  <li>
                    <Link href="/user">{f.profile}</Link>
                  </li>
                ) : isLoading ? null : (
                  <>
                    <li>
                      <Link href="/registration">{f.register}</Link>
                    </li>
                    <li>
                      <Link href={loginHref}>{f.logIn}</Link>
                    </li>
                  </>
                )}
              </ul>
            </div>
            <div>
              <h2 className={styles.heading}>{f.legalHeading}</h2>
              <ul className={styles.list}>
                <li>
                  <Link href="/terms-of-use">{f.termsOfUse}</Link>
                </li>
                <li>
                  <Link href="/policy">{f.policy}</Link>
                </li>
                <li>
                  <Link href="/policy#cookies">{f.cookiePolicy}</Link>
                </li>
              </ul>
            </div>
          </nav>
        </div>
      </div>
      <div className={styles.bottom}>
        <p className="container">{f.rights(new Date().getFullYear())}</p>
      </div>
    </footer>
  );
}
