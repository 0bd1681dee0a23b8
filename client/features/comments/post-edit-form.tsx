import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { businessLocationSchema, commentEditFormSchema, replyEditFormSchema } from '../../../shared/schemas/comments';
import { errorFieldsOf, useFieldError, useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { useLocalized } from '../business/localized';
import { useUpdateComment, useUpdateReply } from './mutations';
import { FormField } from '../../components/ui/form-field';
import { ImageUpload } from '../../components/ui/image-upload';
import { BranchPicker, OTHER_PLACE } from './branch-picker';
import { notify } from '../../components/ui/toast';
import styles from './comments.module.css';
import { StarPicker } from './star-picker';

type Props = {
  kind: 'comment' | 'reply';
  id: string;
  text: string;
  image: string | null;
  /** A comment's author's current stars for the business; undefined: the post takes none (replies, the suggestion box). */
  stars?: number | null;
  /** A comment's place: its business's branch, or the free text of another place. */
  place?: { businessId: string; branchId: string | null; location: string };
  onDone(): void;
};

/**
 * The author's edit of a comment or reply in place: the text, the photo (replaced, removed or
 * kept) and a comment's branch. A reply's new photo is shrunk to 0.1 MB / 300 px (description
 * section 9).
 */
export function PostEditForm({ kind, id, text, image, stars, place, onDone }: Props) {
  const { t, errorText } = useI18n();
  const fieldError = useFieldError();
  const trpc = useTRPC();
  const textId = useId();
  const placeIds = { branch: useId(), other: useId() };
  const localized = useLocalized();
  const business = useQuery({ ...trpc.business.byId.queryOptions({ id: place?.businessId ?? '' }), enabled: Boolean(place), staleTime: 5 * 60_000 });
  const branches = (business.data?.branches ?? []).map((b) => ({ id: b.id, location: localized.place(b.location) }));
  const [choice, setChoice] = useState(place?.branchId ?? OTHER_PLACE);
  const [otherText, setOtherText] = useState(place && !place.branchId ? place.location : '');
  const [placeError, setPlaceError] = useState<string | undefined>(undefined);
  // undefined: keep the photo; null: remove it; a string: the newly uploaded one.
  const [imageId, setImageId] = useState<string | null | undefined>(undefined);
  const [uploading, setUploading] = useState(false);
  const [chosenStars, setChosenStars] = useState(stars ?? 0);
  const form = useForm<{ text: string }>({
    resolver: zodResolver(kind === 'comment' ? commentEditFormSchema : replyEditFormSchema),
    defaultValues: { text },
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError } = form;

  const options = {
    onSuccess: () => {
      notify(t.comments.card.saved, 'success');
      onDone();
    },
    onError: (error: unknown) => {
      const fields = errorFieldsOf(error);
      if (fields.text) setError('text', { message: fields.text });
      const placeField = fields.businessLocation ?? fields.branchId;
      if (placeField) setPlaceError(placeField);
      if (!fields.text && !placeField) notify(errorText(error), 'error');
    },
  };
  const updateComment = useUpdateComment(options);
  const updateReply = useUpdateReply(options);
  const mutation = kind === 'comment' ? updateComment : updateReply;

  // Stars are sent only when chosen anew; taking a rating back is the rating widget's.
  const newStars = stars !== undefined && chosenStars > 0 && chosenStars !== stars ? chosenStars : undefined;
  const submit = handleSubmit((values) => {
    if (uploading) return notify(t.comments.form.uploading, 'info');
    if (kind === 'reply') return updateReply.mutate({ id, text: values.text, imageId });
    if (!place) return updateComment.mutate({ id, text: values.text, imageId, rate: newStars });
    // The place is sent only when it changed: unchanged, the comment keeps it.
    let moved = {};
    if (choice === OTHER_PLACE) {
      const typed = businessLocationSchema.safeParse(otherText);
      if (!typed.success) return setPlaceError(typed.error.issues[0]?.message);
      if (place.branchId || typed.data !== place.location) moved = { businessLocation: typed.data };
    } else if (choice !== place.branchId) moved = { branchId: choice };
    setPlaceError(undefined);
    updateComment.mutate({ id, text: values.text, imageId, rate: newStars, ...moved });
  });
  const placeMessage = fieldError(placeError);

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
      {stars !== undefined ? <StarPicker value={chosenStars} onChange={setChosenStars} disabled={mutation.isPending} /> : null}
      {place && branches.length > 0 ? (
        <div className="field">
          <BranchPicker
            id={placeIds.branch}
            branches={branches}
            value={choice}
            onChange={(value, typed) => {
              setChoice(value || OTHER_PLACE);
              if (value === OTHER_PLACE && typed.trim()) setOtherText(typed.trim());
            }}
            invalid={false}
          />
        </div>
      ) : null}
      {place && (choice === OTHER_PLACE || branches.length === 0) ? (
        <div className="field">
          <label htmlFor={placeIds.other}>{branches.length > 0 ? t.comments.form.otherLocation : t.comments.form.location}</label>
          <input
            id={placeIds.other}
            value={otherText}
            onChange={(e) => setOtherText(e.target.value)}
            autoComplete="off"
            aria-invalid={placeMessage ? true : undefined}
            aria-describedby={placeMessage ? `${placeIds.other}-error` : undefined}
          />
        </div>
      ) : null}
      {place && placeMessage ? (
        <p id={`${placeIds.other}-error`} className="field-error" role="alert">
          {placeMessage}
        </p>
      ) : null}
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
