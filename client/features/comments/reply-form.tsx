import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { replyFormSchema } from '../../../shared/schemas/comments';
import { useI18n } from '../../i18n';
import { useCreateReply } from './mutations';
import { FormField, showFieldErrors } from '../../components/ui/form-field';
import { ImageUpload } from '../../components/ui/image-upload';
import { notify } from '../../components/ui/toast';
import styles from './comments.module.css';

/** A reply to a comment: text and an optional photo shrunk to 1 MB / 300 px. */
export function ReplyForm({ commentId, onPosted, onCancel }: { commentId: string; onPosted(): void; onCancel(): void }) {
  const { t, errorText } = useI18n();
  const r = t.comments.replies;
  const textId = useId();
  const [imageId, setImageId] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const form = useForm<{ text: string }>({ resolver: zodResolver(replyFormSchema), defaultValues: { text: '' }, mode: 'onTouched' });
  const { register, handleSubmit, formState, setError } = form;

  const create = useCreateReply({
    onSuccess: () => {
      notify(r.posted, 'success');
      onPosted();
    },
    onError: (error) => showFieldErrors(error, setError, ['text']) || notify(errorText(error), 'error'),
  });

  const submit = handleSubmit((values) => {
    if (uploading) return notify(t.comments.form.uploading, 'info');
    create.mutate({ commentId, text: values.text, imageId });
  });

  return (
    <form className={styles.replyForm} onSubmit={submit} noValidate>
      <FormField id={textId} label={r.text} error={formState.errors.text?.message} announce>
        {(control) => <textarea rows={2} {...control} {...register('text')} />}
      </FormField>
      <ImageUpload kind="reply" label={r.photo} onChange={(image) => setImageId(image?.id ?? null)} onBusyChange={setUploading} />
      <div className={styles.formActions}>
        <button type="button" className="btn btn-sm" onClick={onCancel}>
          {t.comments.card.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={create.isPending || uploading}>
          {r.submit}
        </button>
      </div>
    </form>
  );
}
