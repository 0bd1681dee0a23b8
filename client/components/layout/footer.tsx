import { useSyncExternalStore } from 'react';
import { Link } from 'wouter';
import { parseSocialLinks, SOCIAL_META, SOCIAL_NETWORKS, type SocialLinks } from '../../../shared/schemas/site-settings';
import { useI18n } from '../../i18n';
import { useMe } from '../../lib/session';
import { useLoginHref } from '../../lib/login-href';
import { useSiteText } from '../../lib/site-text';
import { FacebookIcon, InstagramIcon, LinkedinIcon } from './icons';
import { Logo } from './logo';
import styles from './footer.module.css';

const icons = { facebook: FacebookIcon, instagram: InstagramIcon, linkedin: LinkedinIcon } as const;

const noSubscription = () => () => {};
let readLinks: SocialLinks | null = null;
/** The operator's links from the page's <meta> (read once); none on the server and while hydrating. */
function useSocialLinks(): SocialLinks {
  return useSyncExternalStore(
    noSubscription,
    () => (readLinks ??= parseSocialLinks(document.querySelector(`meta[name="${SOCIAL_META}"]`)?.getAttribute('content'))),
    () => NONE,
  );
}
const NONE: SocialLinks = {};

export function Footer() {
  const { t } = useI18n();
  const f = t.common.footer;
  const { me, isLoading } = useMe();
  const loginHref = useLoginHref();
  const social = useSocialLinks();
  const site = useSiteText();
  const networks = SOCIAL_NETWORKS.filter((network) => social[network]);
  return (
    <footer className={styles.footer}>
      <div className={styles.top}>
        <div className={`container ${styles.grid}`}>
          <div className={styles.brand}>
            <Logo className={styles.logo} />
            <p className={styles.tagline}>{f.tagline}</p>
            {networks.length > 0 ? (
              <>
                <p className={styles.followLabel}>{f.follow}</p>
                <ul className={styles.social}>
                  {networks.map((network) => {
                    const Icon = icons[network];
                    return (
                      <li key={network}>
                        <a href={social[network]} target="_blank" rel="noopener noreferrer" aria-label={f.social[network]} className={styles.socialLink}>
                          <Icon />
                        </a>
                      </li>
                    );
                  })}
                </ul>
              </>
            ) : null}
          </div>
          <nav className={styles.columns} aria-label={f.footerNav}>
            <div>
              <h2 className={styles.heading}>{site.name}</h2>
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
        {/* A kept server render may be from last year for the first hours of a new one. */}
        <p className="container" suppressHydrationWarning>
          {f.rights(new Date().getFullYear(), site.name)}
        </p>
      </div>
    </footer>
  );
}
