import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { commentFormSchema, LOCATION_MAX, type CommentFormValues } from '../../../server/schemas/comments';
import { errorFieldsOf, useFieldError, useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { ImageUpload } from '../ui/image-upload';
import { notify } from '../ui/toast';
import styles from './comments.module.css';
import { StarPicker } from './star-picker';

/**
 * A new comment on a business: text, branch location (the business's own branches are offered
 * as suggestions) and an optional photo, shrunk to 2 MB / 1920 px and uploaded with progress
 * before the comment is sent.
 */
export function CommentForm({ businessId, onPosted }: { businessId: string; onPosted(id: string): void }) {
  const { t, errorText } = useI18n();
  const f = t.comments.form;
  const fieldError = useFieldError();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { text: useId(), location: useId(), hint: useId(), branches: useId() };
  const [imageId, setImageId] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  // The author's optional stars for the business (0: none).
  const [stars, setStars] = useState(0);
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

  const create = useMutation(
    trpc.comments.create.mutationOptions({
      onSuccess: (comment) => {
        notify(f.posted, 'success');
        reset();
        setImageId(null);
        setStars(0);
        setGeneration((g) => g + 1);
        void queryClient.invalidateQueries(trpc.comments.pathFilter());
        // Stars moved the business's average and breakdown.
        if (stars > 0) void queryClient.invalidateQueries(trpc.business.pathFilter());
        onPosted(comment._id);
      },
      onError: (error) => {
        const fields = errorFieldsOf(error);
        if (fields.text) setError('text', { message: fields.text });
        if (fields.businessLocation) setError('businessLocation', { message: fields.businessLocation });
        if (!fields.text && !fields.businessLocation) notify(errorText(error), 'error');
      },
    }),
  );

  const submit = handleSubmit((values) => {
    if (uploading) return notify(f.uploading, 'info');
    create.mutate({ businessId, text: values.text, businessLocation: values.businessLocation, imageId, rate: stars > 0 ? stars : undefined });
  });

  const textError = fieldError(formState.errors.text?.message);
  const locationError = fieldError(formState.errors.businessLocation?.message);

  return (
    <form className={`card ${styles.commentForm}`} onSubmit={submit} noValidate aria-labelledby={`${ids.text}-heading`}>
      <h3 id={`${ids.text}-heading`} className={styles.formHeading}>
        {f.heading}
      </h3>
      <div className="field">
        <label htmlFor={ids.text}>{f.text}</label>
        <textarea
          id={ids.text}
          rows={4}
          {...register('text')}
          aria-invalid={textError ? true : undefined}
          aria-describedby={textError ? `${ids.text}-error` : undefined}
        />
        {textError ? (
          <p id={`${ids.text}-error`} className="field-error" role="alert">
            {textError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={ids.location}>{f.location}</label>
        <input
          id={ids.location}
          {...register('businessLocation')}
          list={branches.length > 0 ? ids.branches : undefined}
          autoComplete="off"
          aria-invalid={locationError ? true : undefined}
          aria-describedby={locationError ? `${ids.location}-error ${ids.hint}` : ids.hint}
        />
        {branches.length > 0 ? (
          <datalist id={ids.branches}>
            {branches.map((b) => (
              <option key={b} value={b} />
            ))}
          </datalist>
        ) : null}
        <p id={ids.hint} className={styles.hint}>
          {f.locationHint}
        </p>
        {locationError ? (
          <p id={`${ids.location}-error`} className="field-error" role="alert">
            {locationError}
          </p>
        ) : null}
      </div>
      {/* The suggestion box takes no rating (PRODUCT.md section 4). */}
      {business.data?.isSuggestionBox ? null : <StarPicker value={stars} onChange={setStars} disabled={create.isPending} />}
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
