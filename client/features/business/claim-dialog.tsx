import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { claimNoteSchema } from '../../../shared/schemas/owners';
import { useI18n } from '../../i18n';
import { useClaimBusiness } from './owners-mutations';
import { FormField, showFieldErrors } from '../../components/ui/form-field';
import { Modal } from '../../components/ui/modal';
import { notify } from '../../components/ui/toast';
import styles from './owners.module.css';

const formSchema = z.object({ note: claimNoteSchema });

/** A member's claim of a business, with an optional note for the admin who decides it. */
export function ClaimDialog({ businessId, open, onOpenChange }: { businessId: string; open: boolean; onOpenChange(open: boolean): void }) {
  const { t, errorText } = useI18n();
  const c = t.owners.claim;
  const id = useId();
  const form = useForm<{ note: string }>({ resolver: zodResolver(formSchema), defaultValues: { note: '' }, mode: 'onTouched' });
  const { register, handleSubmit, formState, setError } = form;
  const claim = useClaimBusiness({
    onSuccess: (result) => {
      notify(result.approved ? t.messages.claimApprovedAtOnce : t.messages.claimSent, 'success');
      onOpenChange(false);
    },
    onError: (error) => showFieldErrors(error, setError, ['note']) || notify(errorText(error), 'error'),
  });
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={c.title} description={c.intro} size="md">
      <form className={styles.form} onSubmit={handleSubmit((values) => claim.mutate({ businessId, note: values.note }))} noValidate>
        <FormField id={id} label={c.note} hint={c.noteHint} error={formState.errors.note?.message} announce>
          {(control) => <textarea rows={3} {...control} {...register('note')} />}
        </FormField>
        <div className={styles.formActions}>
          <button type="button" className="btn btn-sm" onClick={() => onOpenChange(false)}>
            {c.cancel}
          </button>
          <button type="submit" className="btn btn-primary btn-sm" disabled={claim.isPending}>
            {c.submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}
