import styles from './account-page.module.css';

/**
 * The primary button of an account form, with a spinner while busy. Pressing it does not take
 * focus from the field being typed in: that blur would show the field's error message (errors
 * appear once a field is touched), move the button down, and the click would miss it.
 */
export function SubmitButton(props: { busy: boolean; label: string; busyLabel: string; className?: string; wide?: boolean; disabled?: boolean }) {
  const { busy, label, busyLabel, className = 'btn btn-primary', wide = true, disabled = false } = props;
  return (
    <button
      type="submit"
      className={wide ? `${className} ${styles.wide}` : className}
      aria-disabled={busy || disabled || undefined}
      onMouseDown={(e) => e.preventDefault()}
    >
      {busy ? <span className={styles.busy} aria-hidden="true" /> : null}
      {busy ? busyLabel : label}
    </button>
  );
}
