import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { commentEditFormSchema, replyEditFormSchema } from '../../../server/schemas/comments';
import { useI18n } from '../../i18n';
import { useUpdatePost } from '../../lib/mutations/comments';
import { FormField, showFieldErrors } from '../ui/form-field';
import { ImageUpload } from '../ui/image-upload';
import { notify } from '../ui/toast';
import styles from './comments.module.css';

type Props = {
  kind: 'comment' | 'reply';
  id: string;
  text: string;
  image: string | null;
  onDone(): void;
};

/**
 * The author's edit of a comment or reply in place: the text, and the photo (replaced, removed
 * or kept). A reply's new photo is shrunk to 0.1 MB / 300 px (description section 9).
 */
export function PostEditForm({ kind, id, text, image, onDone }: Props) {
  const { t, errorText } = useI18n();
  const textId = useId();
  // undefined: keep the photo; null: remove it; a string: the newly uploaded one.
  const [imageId, setImageId] = useState<string | null | undefined>(undefined);
  const [uploading, setUploading] = useState(false);
  const form = useForm<{ text: string }>({
    resolver: zodResolver(kind === 'comment' ? commentEditFormSchema : replyEditFormSchema),
    defaultValues: { text },
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError } = form;

  const mutation = useUpdatePost(kind, {
    onSuccess: () => {
      notify(t.comments.card.saved, 'success');
      onDone();
    },
    onError: (error) => showFieldErrors(error, setError, ['text']) || notify(errorText(error), 'error'),
  });

  const submit = handleSubmit((values) => {
    if (uploading) return notify(t.comments.form.uploading, 'info');
    mutation.mutate({ id, text: values.text, imageId });
  });

  return (
    <form className={styles.editForm} onSubmit={submit} noValidate>
      <FormField
        id={textId}
        label={kind === 'comment' ? t.comments.form.text : t.comments.replies.text}
        hideLabel
        error={formState.errors.text?.message}
        announce
      >
        {(control) => <textarea rows={3} {...control} {...register('text')} />}
      </FormField>
      <ImageUpload
        kind={kind === 'comment' ? 'comment' : 'reply-edit'}
        label={image ? t.comments.form.changePhoto : t.comments.form.photo}
        currentUrl={image}
        onChange={(uploaded) => setImageId(uploaded ? uploaded.id : null)}
        onBusyChange={setUploading}
      />
      <div className={styles.formActions}>
        <button type="button" className="btn btn-sm" onClick={onDone}>
          {t.comments.card.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={mutation.isPending || uploading}>
          {t.comments.card.save}
        </button>
      </div>
    </form>
  );
}
