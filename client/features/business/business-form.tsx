import { useState } from 'react';
import { RatingGroup } from '@ark-ui/react/rating-group';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useFieldArray, useForm, type Resolver } from 'react-hook-form';
import { businessCreateSchema, businessUpdateSchema } from '../../../shared/schemas/business';
import { errorFieldsOf, useI18n } from '../../i18n';
import { useCreateBusiness, useUpdateBusiness } from './mutations';
import { useTRPC } from '../../lib/trpc';
import { describedBy, FieldMessages, FormField } from '../../components/ui/form-field';
import { notify } from '../../components/ui/toast';
import { ImageUpload } from '../../components/ui/image-upload';
import { StarItems } from './star-items';
import type { Business } from './types';
import styles from './business-form.module.css';

/** The fields both forms share; update leaves title, category and rate optional. */
type FormValues = {
  title: string;
  category: string;
  categoryEn: string;
  description: string;
  descriptionEn: string;
  /** The admin's own star rating (docs/product.md §4); none leaves the ratings as they are. */
  rate?: number;
  imageId?: string | null;
  iconId?: string | null;
  /** `id`: a branch the business has; sent back, it stays (with its comments' links) through a rename. */
  branches: { id?: string; location: string; address?: string }[];
};

type Props = { business?: undefined; onDone?: () => void } | { business: Business; onDone: () => void };

const emptyValues: FormValues = {
  title: '',
  category: '',
  categoryEn: '',
  description: '',
  descriptionEn: '',
  rate: undefined,
  branches: [{ location: '', address: '' }],
};

function valuesOf(business: Business): FormValues {
  return {
    title: business.title,
    category: business.category,
    categoryEn: '',
    description: business.description,
    descriptionEn: business.descriptionEn ?? '',
    rate: undefined,
    branches: business.branches.map((b) => ({ id: b.id, location: b.location, address: b.address ?? '' })),
  };
}

/**
 * Add Business, or (given a business) Update Business: every field and message of the
 * description, validated by the same zod schema the server uses. Pictures upload as soon as
 * they are chosen; the form sends only their ids.
 */
export function BusinessForm({ business, onDone }: Props) {
  const { t, errorText } = useI18n();
  const trpc = useTRPC();
  const editing = business !== undefined;
  const f = t.business.form;
  const [uploads, setUploads] = useState(0);
  const [generation, setGeneration] = useState(0);

  const form = useForm<FormValues>({
    // Both schemas accept FormValues; they differ only in which fields may be left empty.
    resolver: zodResolver(editing ? businessUpdateSchema : businessCreateSchema) as unknown as Resolver<FormValues>,
    defaultValues: business ? valuesOf(business) : emptyValues,
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setValue, setError, reset, control, watch } = form;
  const categories = useQuery(trpc.business.categories.queryOptions());
  const [categoryName, rate] = watch(['category', 'rate']);
  // The entry of the list the category field names (in either language), if any.
  const picked = categories.data?.find((c) =>
    [c.nameSv, c.nameEn].some((n) => n.toLocaleLowerCase('sv-SE') === categoryName.trim().toLocaleLowerCase('sv-SE')),
  );
  // keyName: the branches' own `id` is a value the form sends, not the field array's React key.
  const branches = useFieldArray({ control, name: 'branches', keyName: 'key' });
  const errors = formState.errors;

  // Each refreshes every view of businesses before it resolves.
  const create = useCreateBusiness();
  const update = useUpdateBusiness();

  const onSubmit = async (values: FormValues) => {
    try {
      if (business) {
        await update.mutateAsync({ ...values, id: business.id });
        notify(t.business.management.updated, 'success');
        onDone();
      } else {
        // The resolver ran the create schema: no image id is null.
        await create.mutateAsync({ ...values, imageId: values.imageId ?? undefined, iconId: values.iconId ?? undefined });
        notify(t.business.management.added, 'success');
        reset(emptyValues);
        setGeneration((g) => g + 1);
        onDone?.();
      }
    } catch (error) {
      const fields = Object.entries(errorFieldsOf(error));
      for (const [name, key] of fields) setError(name as keyof FormValues, { message: key });
      if (fields.length === 0) notify(errorText(error), 'error');
    }
  };

  const busy = formState.isSubmitting;
  const idPrefix = business ? `edit-${business.id}` : 'add';

  return (
    <form className={styles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
      <div className={styles.row}>
        <FormField id={`${idPrefix}-title`} label={f.title} error={errors.title?.message} hint={editing ? f.keepHint : undefined} announce>
          {(control) => <input {...control} {...register('title')} />}
        </FormField>
      </div>
      <div className={styles.row}>
        <FormField
          id={`${idPrefix}-category`}
          label={f.category}
          error={errors.category?.message}
          hint={editing ? `${f.categoryHint} ${f.keepHint}` : f.categoryHint}
          announce
        >
          {(control) => (
            <>
              <input list={`${idPrefix}-categories`} autoComplete="off" {...control} {...register('category')} />
              <datalist id={`${idPrefix}-categories`}>
                {(categories.data ?? []).map((c) => (
                  <option key={c.id} value={c.nameSv}>
                    {c.nameEn}
                  </option>
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <FormField id={`${idPrefix}-category-en`} label={f.categoryEn} error={errors.categoryEn?.message} hint={f.categoryEnHint} announce>
          {(control) => <input lang="en" placeholder={picked?.nameEn ?? ''} {...control} {...register('categoryEn')} />}
        </FormField>
      </div>

      <FormField id={`${idPrefix}-description`} label={f.description} error={errors.description?.message} announce>
        {(control) => <textarea rows={5} {...control} {...register('description')} />}
      </FormField>

      <FormField id={`${idPrefix}-description-en`} label={f.descriptionEn} error={errors.descriptionEn?.message} hint={f.descriptionEnHint} announce>
        {(control) => <textarea rows={3} lang="en" {...control} {...register('descriptionEn')} />}
      </FormField>

      {/* The suggestion box takes no rating (docs/product.md §4). */}
      {business?.isSuggestionBox ? null : (
        <div className={`field ${styles.rate}`}>
          <RatingGroup.Root
            count={5}
            value={rate ?? 0}
            onValueChange={(details) => setValue('rate', details.value >= 1 ? details.value : undefined, { shouldValidate: formState.isSubmitted })}
            translations={{ ratingValueText: t.business.rating.stars }}
            className={styles.rateGroup}
            aria-invalid={!!errors.rate || undefined}
            aria-describedby={describedBy(`${idPrefix}-rate`, Boolean(errors.rate), true)}
          >
            <RatingGroup.Label className={styles.rateLabel}>{f.rate}</RatingGroup.Label>
            <div className={styles.rateRow}>
              <RatingGroup.Control className={styles.rateControl}>
                <StarItems size={28} />
              </RatingGroup.Control>
              {rate !== undefined ? (
                <button type="button" className="btn btn-sm btn-outline" onClick={() => setValue('rate', undefined)}>
                  {f.clearRate}
                </button>
              ) : null}
            </div>
            <RatingGroup.HiddenInput />
          </RatingGroup.Root>
          <FieldMessages id={`${idPrefix}-rate`} error={errors.rate?.message} hint={editing ? `${f.rateHint} ${f.rateKeepHint}` : f.rateHint} announce />
        </div>
      )}

      <div className={styles.row} key={generation}>
        <ImageUpload
          kind="business"
          label={t.common.image.choose}
          fieldLabel={f.image}
          previewAlt={f.imageAlt}
          removeLabel={f.removeImage}
          currentUrl={business?.image ?? null}
          onChange={(image) => setValue('imageId', image ? image.id : editing ? null : undefined)}
          onBusyChange={(b) => setUploads((n) => n + (b ? 1 : -1))}
        />
        <ImageUpload
          kind="icon"
          label={t.common.image.choose}
          fieldLabel={f.icon}
          previewAlt={f.iconAlt}
          removeLabel={f.removeIcon}
          currentUrl={business?.icon ?? null}
          onChange={(image) => setValue('iconId', image ? image.id : editing ? null : undefined)}
          onBusyChange={(b) => setUploads((n) => n + (b ? 1 : -1))}
        />
      </div>

      <fieldset className={styles.branches}>
        <legend>{f.branches}</legend>
        {branches.fields.map((field, i) => {
          const branchErrors = errors.branches?.[i];
          const base = `${idPrefix}-branch-${i}`;
          return (
            <fieldset key={field.key} className={styles.branch}>
              <legend className={styles.branchLegend}>{f.branch(i + 1)}</legend>
              <FormField id={`${base}-location`} label={f.location} error={branchErrors?.location?.message} announce>
                {(control) => <input {...control} {...register(`branches.${i}.location`)} />}
              </FormField>
              <FormField id={`${base}-address`} label={f.address} error={branchErrors?.address?.message} announce>
                {(control) => <input {...control} {...register(`branches.${i}.address`)} />}
              </FormField>
              {branches.fields.length > 1 ? (
                <button type="button" className={`btn btn-sm btn-outline ${styles.removeBranch}`} onClick={() => branches.remove(i)}>
                  {f.removeBranch(i + 1)}
                </button>
              ) : null}
            </fieldset>
          );
        })}
        <FieldMessages id={`${idPrefix}-branches`} error={errors.branches?.message ?? errors.branches?.root?.message} announce />
        <button type="button" className="btn btn-sm" onClick={() => branches.append({ location: '', address: '' })}>
          + {f.addBranch}
        </button>
      </fieldset>

      <div className={styles.actions}>
        {uploads > 0 ? <span className="muted">{f.waitForUpload}</span> : null}
        <button type="submit" className="btn btn-primary" disabled={busy || uploads > 0}>
          {busy ? f.saving : editing ? f.submitUpdate : f.submitAdd}
        </button>
      </div>
    </form>
  );
}
