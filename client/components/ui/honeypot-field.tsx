import type { UseFormRegisterReturn } from 'react-hook-form';
import { useI18n } from '../../i18n';

/**
 * The spam trap of a form (docs/product.md §11): a text field off the screen, out of the keyboard's
 * path, hidden from screen readers and from autofill. People leave it empty; robots that fill
 * every field give themselves away, and the server answers them as usual without storing anything.
 */
export function HoneypotField({ id, registration }: { id: string; registration: UseFormRegisterReturn }) {
  const { t } = useI18n();
  return (
    <div className="visually-hidden" aria-hidden="true">
      <label htmlFor={id}>{t.common.honeypot}</label>
      <input id={id} type="text" tabIndex={-1} autoComplete="off" data-1p-ignore data-lpignore="true" {...registration} />
    </div>
  );
}
