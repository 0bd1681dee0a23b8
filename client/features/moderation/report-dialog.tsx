import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { REPORT_NOTE_MAX, reportFormSchema, reportReasons, type ReportFormValues, type ReportKind } from '../../../shared/schemas/moderation';
import { useI18n } from '../../i18n';
import { useReportOwnerReply, useReportPost } from '../comments/mutations';
import { describedBy, FieldMessages, FormField, showFieldErrors } from '../../components/ui/form-field';
import { Modal } from '../../components/ui/modal';
import { notify } from '../../components/ui/toast';
import styles from './moderation.module.css';

type Props = { kind: ReportKind; id: string; open: boolean; onOpenChange(open: boolean): void; onSent(): void };

/** Reason (one of six) and an optional note of at most 500 characters; a toast confirms. */
export function ReportDialog({ kind, id, open, onOpenChange, onSent }: Props) {
  const { t, number, errorText } = useI18n();
  const r = t.moderation.report;
  const noteId = useId();
  const reasonId = `${noteId}-reason`;
  const form = useForm<ReportFormValues>({ resolver: zodResolver(reportFormSchema), defaultValues: { note: '' } });
  const { register, handleSubmit, formState, watch, setError, reset } = form;
  const callbacks = {
    onSuccess: () => {
      notify(t.messages.reportThanks, 'success');
      onOpenChange(false);
      onSent();
      reset();
    },
    onError: (error: unknown) => showFieldErrors(error, setError, ['note', 'reason']) || notify(errorText(error), 'error'),
  };
  // Hooks are not called on a condition: both are set up, the one for `kind` is used.
  const postReport = useReportPost(kind === 'reply' ? 'reply' : 'comment', callbacks);
  const answerReport = useReportOwnerReply(callbacks);
  const mutation = kind === 'ownerReply' ? answerReport : postReport;
  const submit = handleSubmit((values) => mutation.mutate({ id, reason: values.reason, note: values.note || undefined }));
  const left = REPORT_NOTE_MAX - (watch('note')?.length ?? 0);

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={r.title} description={r.intro} size="md">
      <form className={styles.reportForm} onSubmit={submit} noValidate>
        <fieldset className={styles.reasons} aria-describedby={describedBy(reasonId, Boolean(formState.errors.reason), false)}>
          <legend className={styles.legend}>{r.reasonLabel}</legend>
          {reportReasons.map((reason) => (
            <label key={reason} className={styles.reason}>
              <input type="radio" value={reason} {...register('reason')} />
              <span>{r.reasons[reason]}</span>
            </label>
          ))}
          <FieldMessages id={reasonId} error={formState.errors.reason?.message} announce />
        </fieldset>
        <FormField id={noteId} label={r.noteLabel} hint={r.noteHint(number(Math.max(left, 0)))} error={formState.errors.note?.message} announce>
          {(control) => <textarea rows={3} maxLength={REPORT_NOTE_MAX} {...control} {...register('note')} />}
        </FormField>
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
