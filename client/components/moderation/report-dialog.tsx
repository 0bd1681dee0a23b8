import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { REPORT_NOTE_MAX, reportFormSchema, reportReasons, type ReportFormValues, type ReportKind } from '../../../server/schemas/moderation';
import { errorFieldsOf, useFieldError, useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { Modal } from '../ui/modal';
import { notify } from '../ui/toast';
import styles from './moderation.module.css';

type Props = { kind: ReportKind; id: string; open: boolean; onOpenChange(open: boolean): void; onSent(): void };

/** Reason (one of six) and an optional note of at most 500 characters; a toast confirms. */
export function ReportDialog({ kind, id, open, onOpenChange, onSent }: Props) {
  const { t, number, errorText } = useI18n();
  const fieldError = useFieldError();
  const r = t.moderation.report;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const noteId = useId();
  const reasonError = `${noteId}-reason-error`;
  const form = useForm<ReportFormValues>({ resolver: zodResolver(reportFormSchema), defaultValues: { note: '' } });
  const { register, handleSubmit, formState, watch, setError, reset } = form;
  const options = {
    onSuccess: () => {
      notify(t.messages.reportThanks, 'success');
      onOpenChange(false);
      onSent();
      reset();
      void queryClient.invalidateQueries(trpc.comments.pathFilter());
    },
    onError: (error: unknown) => {
      const fields = errorFieldsOf(error);
      if (fields.note) setError('note', { message: fields.note });
      else if (fields.reason) setError('reason', { message: fields.reason });
      else notify(errorText(error), 'error');
    },
  };
  const reportComment = useMutation(trpc.moderation.reportComment.mutationOptions(options));
  const reportReply = useMutation(trpc.moderation.reportReply.mutationOptions(options));
  const mutation = kind === 'comment' ? reportComment : reportReply;
  const submit = handleSubmit((values) => mutation.mutate({ id, reason: values.reason, note: values.note || undefined }));
  const left = REPORT_NOTE_MAX - (watch('note')?.length ?? 0);
  const reasonMessage = fieldError(formState.errors.reason?.message);
  const noteMessage = fieldError(formState.errors.note?.message);

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={r.title} description={r.intro} size="md">
      <form className={styles.reportForm} onSubmit={submit} noValidate>
        <fieldset className={styles.reasons} aria-describedby={reasonMessage ? reasonError : undefined}>
          <legend className={styles.legend}>{r.reasonLabel}</legend>
          {reportReasons.map((reason) => (
            <label key={reason} className={styles.reason}>
              <input type="radio" value={reason} {...register('reason')} />
              <span>{r.reasons[reason]}</span>
            </label>
          ))}
          {reasonMessage ? (
            <p id={reasonError} className="field-error" role="alert">
              {reasonMessage}
            </p>
          ) : null}
        </fieldset>
        <div className="field">
          <label htmlFor={noteId}>{r.noteLabel}</label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            {...register('note')}
            aria-invalid={noteMessage ? true : undefined}
            aria-describedby={`${noteId}-hint${noteMessage ? ` ${noteId}-error` : ''}`}
          />
          <p id={`${noteId}-hint`} className={styles.hint}>
            {r.noteHint(number(Math.max(left, 0)))}
          </p>
          {noteMessage ? (
            <p id={`${noteId}-error`} className="field-error" role="alert">
              {noteMessage}
            </p>
          ) : null}
        </div>
        <div className={styles.dialogActions}>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            {r.cancel}
          </button>
          <button type="submit" className="btn btn-danger" disabled={mutation.isPending}>
            {mutation.isPending ? r.sending : r.send}
          </button>
        </div>
      </form>
    </Modal>
  );
}
