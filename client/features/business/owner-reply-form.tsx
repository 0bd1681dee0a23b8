import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ownerReplyTextSchema } from '../../../shared/schemas/owners';
import { useI18n } from '../../i18n';
import { usePutOwnerReply } from './owners-mutations';
import { FormField, showFieldErrors } from '../../components/ui/form-field';
import { notify } from '../../components/ui/toast';
import styles from './owners.module.css';

const formSchema = z.object({ text: ownerReplyTextSchema });

/** An owner writes or edits the business's answer to a review. */
export function OwnerReplyForm({ commentId, text, onDone }: { commentId: string; text: string; onDone(): void }) {
  const { t, errorText } = useI18n();
  const r = t.owners.reply;
  const id = useId();
  const form = useForm<{ text: string }>({ resolver: zodResolver(formSchema), defaultValues: { text }, mode: 'onTouched' });
  const { register, handleSubmit, formState, setError } = form;
  const save = usePutOwnerReply({
    onSuccess: () => {
      notify(r.saved, 'success');
      onDone();
    },
    onError: (error) => showFieldErrors(error, setError, ['text']) || notify(errorText(error), 'error'),
  });
  return (
    <form className={styles.form} onSubmit={handleSubmit((values) => save.mutate({ commentId, text: values.text }))} noValidate>
      <FormField id={id} label={r.text} hint={r.hint} error={formState.errors.text?.message} announce>
        {(control) => <textarea rows={3} {...control} {...register('text')} />}
      </FormField>
      <div className={styles.formActions}>
        <button type="button" className="btn btn-sm" onClick={onDone}>
          {r.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={save.isPending}>
          {r.save}
        </button>
      </div>
    </form>
  );
}
