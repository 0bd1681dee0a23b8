import type { ReactNode } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { errorFieldsOf, useFieldError } from '../../i18n';

/** What the input slot spreads on its control, so its label, hint and error belong to it. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  required: true | undefined;
};

type MessagesProps = {
  id: string;
  /** The form's error for this field: a message key (translated here) or a text. */
  error?: string;
  hint?: ReactNode;
  /** Announce the error when it appears (role="alert"), for forms checked as the user goes. */
  announce?: boolean;
};

/** The ids a control's aria-describedby names: its error first, then its hint. */
export function describedBy(id: string, hasError: boolean, hasHint: boolean): string | undefined {
  const ids = [hasError ? `${id}-error` : null, hasHint ? `${id}-hint` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/**
 * A field's hint and error lines with the ids `describedBy` names. FormField uses them; a group
 * that has no single labelled input (radio buttons, a star rating) places them itself.
 */
export function FieldMessages({ id, error, hint, announce = false }: MessagesProps) {
  const fieldError = useFieldError();
  const message = fieldError(error);
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={`${id}-error`} className="field-error" role={announce ? 'alert' : undefined}>
          {message}
        </p>
      ) : null}
    </>
  );
}

type FormFieldProps = MessagesProps & {
  label: ReactNode;
  /** The label is read out but not shown (where the layout already says what the field is). */
  hideLabel?: boolean;
  /** Marks the label (the marker is not read out: the control says `required` itself). */
  required?: boolean;
  className?: string;
  /** The input slot: spread the given props on the control (with the form's registration). */
  children(control: FieldControlProps): ReactNode;
};

/**
 * One form field, for every form: the label, the control the slot renders, a hint and the
 * form's error, with aria-invalid and aria-describedby wired between them.
 */
export function FormField({ id, label, hideLabel = false, required = false, className, error, hint, announce, children }: FormFieldProps) {
  const hasError = Boolean(error);
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
        {required ? (
          <span className="field-required" aria-hidden="true">
            {' *'}
          </span>
        ) : null}
      </label>
      {children({
        id,
        'aria-invalid': hasError ? true : undefined,
        'aria-describedby': describedBy(id, hasError, Boolean(hint)),
        required: required ? true : undefined,
      })}
      <FieldMessages id={id} error={error} hint={hint} announce={announce} />
    </div>
  );
}

/**
 * Puts the server's verdict (it checks the same schema) on the fields of `names` it names, and
 * answers whether there was one, so the caller shows a toast only for other errors.
 */
export function showFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, names: readonly FieldPath<T>[]): boolean {
  const fields = errorFieldsOf(error);
  const named = names.filter((name) => fields[name]);
  for (const name of named) setError(name, { message: fields[name] });
  return named.length > 0;
}
