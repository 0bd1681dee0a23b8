import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { commentFormSchema, LOCATION_MAX, type CommentFormValues } from '../../../server/schemas/comments';
import { errorFieldsOf, useI18n } from '../../i18n';
import { useCreateComment } from '../../lib/mutations/comments';
import { useTRPC } from '../../lib/trpc';
import { FormField } from '../ui/form-field';
import { ImageUpload } from '../ui/image-upload';
import { notify } from '../ui/toast';
import styles from './comments.module.css';

/**
 * A new comment on a business: text, branch location (the business's own branches are offered
 * as suggestions) and an optional photo, shrunk to 2 MB / 1920 px and uploaded with progress
 * before the comment is sent.
 */
export function CommentForm({ businessId, onPosted }: { businessId: string; onPosted(id: string): void }) {
  const { t, errorText } = useI18n();
  const f = t.comments.form;
  const trpc = useTRPC();
  const ids = { text: useId(), location: useId(), branches: useId() };
  const [imageId, setImageId] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  // A new key empties the photo picker after a post.
  const [generation, setGeneration] = useState(0);
  // The business page has loaded this already; its branches make good suggestions.
  const business = useQuery({ ...trpc.business.byId.queryOptions({ id: businessId }), staleTime: 5 * 60_000 });
  const branches = [...new Set((business.data?.branches ?? []).map((b) => b.location).filter((l) => l.length <= LOCATION_MAX))];

  const form = useForm<CommentFormValues>({
    resolver: zodResolver(commentFormSchema),
    defaultValues: { text: '', businessLocation: '' },
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError, reset } = form;

  const create = useCreateComment({
    onSuccess: (comment) => {
      notify(f.posted, 'success');
      reset();
      setImageId(null);
      setGeneration((g) => g + 1);
      onPosted(comment._id);
    },
    onError: (error) => {
      const fields = errorFieldsOf(error);
      if (fields.text) setError('text', { message: fields.text });
      if (fields.businessLocation) setError('businessLocation', { message: fields.businessLocation });
      if (!fields.text && !fields.businessLocation) notify(errorText(error), 'error');
    },
  });

  const submit = handleSubmit((values) => {
    if (uploading) return notify(f.uploading, 'info');
    create.mutate({ businessId, text: values.text, businessLocation: values.businessLocation, imageId });
  });

  return (
    <form className={`card ${styles.commentForm}`} onSubmit={submit} noValidate aria-labelledby={`${ids.text}-heading`}>
      <h3 id={`${ids.text}-heading`} className={styles.formHeading}>
        {f.heading}
      </h3>
      <FormField id={ids.text} label={f.text} error={formState.errors.text?.message} announce>
        {(control) => <textarea rows={4} {...control} {...register('text')} />}
      </FormField>
      <FormField id={ids.location} label={f.location} hint={f.locationHint} error={formState.errors.businessLocation?.message} announce>
        {(control) => (
          <>
            <input list={branches.length > 0 ? ids.branches : undefined} autoComplete="off" {...control} {...register('businessLocation')} />
            {branches.length > 0 ? (
              <datalist id={ids.branches}>
                {branches.map((b) => (
                  <option key={b} value={b} />
                ))}
              </datalist>
            ) : null}
          </>
        )}
      </FormField>
      <ImageUpload
        key={generation}
        kind="comment"
        label={f.photo}
        onChange={(image) => setImageId(image?.id ?? null)}
        onBusyChange={setUploading}
      />
      <div className={styles.formActions}>
        <button type="submit" className="btn btn-primary" disabled={create.isPending || uploading}>
          {create.isPending ? f.posting : f.submit}
        </button>
      </div>
    </form>
  );
}
