import type { OpeningHours } from '../../../shared/schemas/opening-hours-status';
import { useI18n } from '../../i18n';
import { OpenStatus } from './open-status';
import styles from './places.module.css';

// "HH:MM" and "YYYY-MM-DD" sort as plain text; localeCompare would start the browser's collation
// (tens of ms on a phone's first call) for nothing.
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Facts = { address: string | null; postalCode: string | null; town: string; area: string | null; phone: string | null; openingHours: OpeningHours | null };

/** A branch's address, phone, open-now line and weekly hours with their exceptions (issue 31.1). */
export function BranchFacts({ branch }: { branch: Facts }) {
  const { t } = useI18n();
  const p = t.places;
  const town = [branch.postalCode, branch.town].filter(Boolean).join(' ');
  const hours = branch.openingHours;
  return (
    <div className={styles.facts}>
      {branch.address || town ? (
        <p>
          <span className="visually-hidden">{p.address}: </span>
          {[branch.address, town].filter(Boolean).join(', ')}
        </p>
      ) : null}
      {branch.phone ? (
        <p>
          <span className="visually-hidden">{p.phone}: </span>
          <a href={`tel:${branch.phone.replace(/[^+\d]/g, '')}`}>{branch.phone}</a>
        </p>
      ) : null}
      {hours ? (
        <>
          <OpenStatus hours={hours} />
          <details className={styles.hours}>
            <summary>
              {p.hours} <span className="muted">({p.timeZoneNote})</span>
            </summary>
            <dl>
              {[1, 2, 3, 4, 5, 6, 7].map((day) => {
                const periods = hours.weekly.filter((w) => w.day === day).sort((a, b) => byText(a.opens, b.opens));
                return (
                  <div key={day}>
                    <dt>{p.dayName(day)}</dt>
                    <dd>{periods.length ? periods.map((w) => p.period(w.opens, w.closes)).join(', ') : p.closedDay}</dd>
                  </div>
                );
              })}
            </dl>
            {hours.exceptions.length ? (
              <>
                <p className={styles.exceptionsTitle}>{p.exceptions}</p>
                <dl>
                  {[...hours.exceptions]
                    .sort((a, b) => byText(a.date, b.date))
                    .map((e) => (
                      <div key={e.date}>
                        <dt>
                          {e.date}
                          {e.note ? ` ${e.note}` : ''}
                        </dt>
                        <dd>{e.periods.length ? e.periods.map((w) => p.period(w.opens, w.closes)).join(', ') : p.closedDay}</dd>
                      </div>
                    ))}
                </dl>
              </>
            ) : null}
          </details>
        </>
      ) : null}
    </div>
  );
}
