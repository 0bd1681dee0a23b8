import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { commentFormCheckedSchema, type CommentFormValues } from '../../../shared/schemas/comments';
import { errorFieldsOf, useFieldError, useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { useLocalized } from '../business/localized';
import { useCreateComment } from './mutations';
import { FormField } from '../../components/ui/form-field';
import { ImageUpload } from '../../components/ui/image-upload';
import { BranchPicker, OTHER_PLACE } from './branch-picker';
import { notify } from '../../components/ui/toast';
import styles from './comments.module.css';
import { StarPicker } from './star-picker';

/**
 * A new comment on a business: text, the branch it is about (picked from the business's branches,
 * or "Annan plats…" and free text) and an optional photo, shrunk to 2 MB / 1920 px and uploaded
 * with progress before the comment is sent.
 */
export function CommentForm({ businessId, onPosted }: { businessId: string; onPosted(id: string): void }) {
  const { t, errorText } = useI18n();
  const f = t.comments.form;
  const fieldError = useFieldError();
  const trpc = useTRPC();
  const localized = useLocalized();
  const ids = { text: useId(), location: useId(), hint: useId(), branch: useId() };
  const [imageId, setImageId] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  // The author's optional stars for the business (0: none).
  const [stars, setStars] = useState(0);
  // A new key empties the photo picker after a post.
  const [generation, setGeneration] = useState(0);
  // The business page has loaded this already.
  const business = useQuery({ ...trpc.business.byId.queryOptions({ id: businessId }), staleTime: 5 * 60_000 });
  const branches = (business.data?.branches ?? []).map((b) => ({ id: b.id, location: localized.place(b.location) }));
  // A business without branches asks for the place as text straight away.
  const [choice, setChoice] = useState('');
  const freeText = branches.length === 0 || choice === OTHER_PLACE;
  // Text typed into the branch field and kept as another place ("Annan plats: Umeå") needs no
  // second field; picking "Annan plats…" opens one. Nothing appears as the field is left, so a
  // press on "Publicera" does not land on a button that moved.
  const [keptTyped, setKeptTyped] = useState(false);
  const freeField = branches.length === 0 || (choice === OTHER_PLACE && !keptTyped);

  const form = useForm<CommentFormValues>({
    resolver: zodResolver(commentFormCheckedSchema),
    defaultValues: { text: '', branchId: undefined, businessLocation: undefined },
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError, setValue, getValues, reset } = form;

  const choose = (value: string, typed: string, kept = false) => {
    setChoice(value);
    setKeptTyped(kept);
    const validate = { shouldValidate: formState.isSubmitted };
    if (value === OTHER_PLACE) {
      setValue('branchId', undefined);
      // What was typed into the list (a place it does not have) starts the free text.
      setValue('businessLocation', typed.trim(), validate);
    } else {
      setValue('businessLocation', undefined);
      setValue('branchId', value || undefined, validate);
    }
  };

  const create = useCreateComment({
    onSuccess: (comment) => {
      notify(f.posted, 'success');
      reset();
      setChoice('');
      setKeptTyped(false);
      setImageId(null);
      setStars(0);
      setGeneration((g) => g + 1);
      onPosted(comment._id);
    },
    onError: (error) => {
      const fields = errorFieldsOf(error);
      if (fields.text) setError('text', { message: fields.text });
      const place = fields.businessLocation ?? fields.branchId;
      if (place) setError('businessLocation', { message: place });
      if (!fields.text && !place) notify(errorText(error), 'error');
    },
  });

  const submit = handleSubmit(
    (values) => {
      if (uploading) return notify(f.uploading, 'info');
      const place = freeText ? { businessLocation: values.businessLocation ?? '' } : { branchId: values.branchId };
      create.mutate({ businessId, text: values.text, ...place, imageId, rate: stars > 0 ? stars : undefined });
    },
    (errors) => {
      // The schema checks the place only once the text is valid; an empty form names both at once.
      const { branchId, businessLocation } = getValues();
      if (!errors.businessLocation && !branchId && !businessLocation) setError('businessLocation', { message: 'commentLocationRequired' });
    },
  );

  const locationError = fieldError(formState.errors.businessLocation?.message);

  return (
    <form className={`card ${styles.commentForm}`} onSubmit={submit} noValidate aria-labelledby={`${ids.text}-heading`}>
      <h3 id={`${ids.text}-heading`} className={styles.formHeading}>
        {f.heading}
      </h3>
      <FormField id={ids.text} label={f.text} error={formState.errors.text?.message} announce>
        {(control) => <textarea rows={4} {...control} {...register('text')} />}
      </FormField>
      {branches.length > 0 ? (
        <div className="field">
          <BranchPicker
            id={ids.branch}
            branches={branches}
            value={choice}
            onChange={choose}
            otherText={choice === OTHER_PLACE ? (form.watch('businessLocation') ?? '') : undefined}
            invalid={Boolean(locationError) && !freeField}
            describedBy={locationError && !freeField ? `${ids.branch}-error` : undefined}
          />
          {locationError && !freeField ? (
            <p id={`${ids.branch}-error`} className="field-error" role="alert">
              {locationError}
            </p>
          ) : null}
        </div>
      ) : null}
      {freeField ? (
        <div className="field">
          <label htmlFor={ids.location}>{branches.length > 0 ? f.otherLocation : f.location}</label>
          <input
            id={ids.location}
            {...register('businessLocation')}
            autoComplete="off"
            aria-invalid={locationError ? true : undefined}
            aria-describedby={locationError ? `${ids.location}-error ${ids.hint}` : ids.hint}
          />
          <p id={ids.hint} className={styles.hint}>
            {f.locationHint}
          </p>
          {locationError ? (
            <p id={`${ids.location}-error`} className="field-error" role="alert">
              {locationError}
            </p>
          ) : null}
        </div>
      ) : null}
      {/* The suggestion box takes no rating (docs/product.md §4). */}
      {business.data?.isSuggestionBox ? null : <StarPicker value={stars} onChange={setStars} disabled={create.isPending} />}
      <ImageUpload key={generation} kind="comment" label={f.photo} onChange={(image) => setImageId(image?.id ?? null)} onBusyChange={setUploading} />
      <div className={styles.formActions}>
        <button type="submit" className="btn btn-primary" disabled={create.isPending || uploading}>
          {create.isPending ? f.posting : f.submit}
        </button>
      </div>
    </form>
  );
}
