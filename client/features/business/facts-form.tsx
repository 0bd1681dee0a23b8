import { useId, useMemo, useState } from 'react';
import { createListCollection } from '@ark-ui/react/select';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormRegister,
} from 'react-hook-form';
import { businessFactsSchema } from '../../../shared/schemas/business-facts';
import type { OpeningHours } from '../../../shared/schemas/opening-hours';
import { placesForm as enText } from '../../../shared/i18n/en/places-form';
import { placesForm as svText } from '../../../shared/i18n/sv/places-form';
import { errorFieldsOf, useI18n } from '../../i18n';
import { FieldMessages, FormField } from '../../components/ui/form-field';
import { ListSelect, type ListItem } from '../../components/ui/list-select';
import { notify } from '../../components/ui/toast';
import { useLocalized } from './localized';
import { useEditFacts } from './mutations';
import type { BusinessDetail } from './types';
import styles from './facts-form.module.css';

type Period = { opens: string; closes: string };
type Exception = { date: string; periods: Period[]; note: string };
type BranchValues = {
  id: string;
  address: string;
  postalCode: string;
  town: string;
  area: string;
  lat: number | null;
  lng: number | null;
  phone: string;
  openingHours: { weekly: Array<Period & { day: number }>; exceptions: Exception[] };
};
/** The form's values: the shape businessFactsSchema parses (hours always given; none is sent as null). */
type FormValues = { website: string; phone: string; branches: BranchValues[] };

const DAYS = [1, 2, 3, 4, 5, 6, 7];

// The form's texts come with its chunk, both languages (the first chunk carries only the button's).
const TEXT = { sv: svText, en: enText };
const useFormText = () => TEXT[useI18n().lang];
const NEW_PERIOD: Period = { opens: '09:00', closes: '17:00' };

function valuesOf(business: BusinessDetail): FormValues {
  return {
    website: business.website ?? '',
    phone: business.phone ?? '',
    branches: business.branches.map((b) => ({
      id: b.id,
      address: b.address ?? '',
      postalCode: b.postalCode ?? '',
      town: b.town,
      area: b.area ?? '',
      lat: b.lat,
      lng: b.lng,
      phone: b.phone ?? '',
      openingHours: {
        weekly: b.openingHours?.weekly.map((w) => ({ ...w })) ?? [],
        exceptions: b.openingHours?.exceptions.map((e) => ({ date: e.date, periods: e.periods.map((p) => ({ ...p })), note: e.note ?? '' })) ?? [],
      },
    })),
  };
}

/**
 * No periods and no exceptions is "no hours given" (null), as a branch without hours has. Sent in
 * the form's order (the page sorts them), so a server's verdict on `weekly.3` names the form's row.
 */
function hoursToSend(hours: BranchValues['openingHours']): OpeningHours | null {
  if (hours.weekly.length === 0 && hours.exceptions.length === 0) return null;
  return { weekly: hours.weekly, exceptions: hours.exceptions.map((e) => ({ date: e.date, periods: e.periods, ...(e.note ? { note: e.note } : {}) })) };
}

/** Latitude or longitude as typed (a decimal comma too); empty is none, anything else a number or NaN (the schema says which). */
const coordinate = (value: string | number | null | undefined) => {
  const text = `${value ?? ''}`.trim().replace(',', '.');
  return text === '' ? null : Number(text);
};

const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase('sv-SE') + text.slice(1);

/**
 * The owners' and admins' form for a business's facts (issue 31.1): its website and phone, and per
 * branch the address, town, position, phone, weekly opening hours and dated exceptions. Checked by
 * the schema the server parses; the server's verdicts land on their fields. Its own chunk: only
 * those who may edit ever load it.
 */
export function FactsForm({ business, onDone }: { business: BusinessDetail; onDone: () => void }) {
  const { errorText } = useI18n();
  const f = useFormText();
  const localized = useLocalized();
  const form = useForm<FormValues>({
    resolver: zodResolver(businessFactsSchema) as unknown as Resolver<FormValues>,
    defaultValues: valuesOf(business),
    // Checked on saving, then as the user corrects: a day just added or opened has no error yet.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, formState, setError, control } = form;
  const edit = useEditFacts();
  const errors = formState.errors;
  const idPrefix = `facts-${useId().replace(/:/g, '')}`;

  // One branch's fields at a time (a chain has dozens of exceptions per branch); the others keep their values.
  const [shown, setShown] = useState(0);
  const branchChoices = useMemo(
    () => createListCollection<ListItem>({ items: business.branches.map((b, i) => ({ value: String(i), label: localized.place(b.location) })) }),
    [business.branches, localized],
  );
  /** Shows the first branch whose fields have an error (the schema's or the server's). */
  const showErrors = (names: string[]) => {
    const first = names.map((n) => /^branches\.(\d+)\./.exec(n)?.[1]).find((n) => n !== undefined);
    if (first !== undefined) setShown(Number(first));
  };

  const onSubmit = async (values: FormValues) => {
    try {
      const { changed } = await edit.mutateAsync({
        id: business.id,
        website: values.website,
        phone: values.phone,
        branches: values.branches.map((b) => ({ ...b, openingHours: hoursToSend(b.openingHours) })),
      });
      notify(changed.length > 0 ? f.saved : f.unchanged, 'success');
      onDone();
    } catch (error) {
      const fields = Object.entries(errorFieldsOf(error));
      for (const [name, key] of fields) setError(name as FieldPath<FormValues>, { message: key });
      showErrors(fields.map(([name]) => name));
      if (fields.length === 0) notify(errorText(error), 'error');
    }
  };

  const busy = formState.isSubmitting;
  return (
    <form
      className={styles.form}
      onSubmit={handleSubmit(onSubmit, (invalid) => showErrors(Object.keys(invalid.branches ?? {}).map((i) => `branches.${i}.`)))}
      noValidate
    >
      <p className="muted">{f.intro}</p>
      <fieldset className={styles.group}>
        <legend>{f.business}</legend>
        <div className={styles.row}>
          <FormField id={`${idPrefix}-website`} label={f.website} hint={f.websiteHint} error={errors.website?.message} announce>
            {(c) => <input type="url" inputMode="url" autoComplete="url" spellCheck={false} {...c} {...register('website')} />}
          </FormField>
          <FormField id={`${idPrefix}-phone`} label={f.phone} hint={f.phoneHint} error={errors.phone?.message} announce>
            {(c) => <input type="tel" autoComplete="tel" {...c} {...register('phone')} />}
          </FormField>
        </div>
      </fieldset>
      {business.branches.length > 1 ? (
        <ListSelect
          label={f.branchChoice}
          collection={branchChoices}
          value={String(shown)}
          onChange={(value) => setShown(Number(value))}
          className={styles.choice}
        />
      ) : null}
      {business.branches.map((branch, i) =>
        i === shown ? (
          <BranchFields
            key={branch.id}
            index={i}
            name={localized.place(branch.location)}
            idPrefix={`${idPrefix}-b${i}`}
            control={control}
            register={register}
            errors={errors.branches?.[i]}
          />
        ) : null,
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-outline" onClick={onDone} disabled={busy}>
          {f.cancel}
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? f.saving : f.save}
        </button>
      </div>
    </form>
  );
}

type BranchProps = {
  index: number;
  name: string;
  idPrefix: string;
  control: Control<FormValues>;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<BranchValues> | undefined;
};

function BranchFields({ index: i, name, idPrefix, control, register, errors }: BranchProps) {
  const f = useFormText();
  const hoursErrors = errors?.openingHours;
  return (
    <fieldset className={styles.group}>
      <legend>{f.branch(name)}</legend>
      <div className={styles.row}>
        <FormField id={`${idPrefix}-address`} label={f.address} error={errors?.address?.message} announce>
          {(c) => <input autoComplete="off" {...c} {...register(`branches.${i}.address`)} />}
        </FormField>
        <FormField id={`${idPrefix}-postal`} label={f.postalCode} error={errors?.postalCode?.message} announce>
          {(c) => <input inputMode="numeric" autoComplete="off" {...c} {...register(`branches.${i}.postalCode`)} />}
        </FormField>
        <FormField id={`${idPrefix}-town`} label={f.town} hint={f.townHint} error={errors?.town?.message} announce>
          {(c) => <input autoComplete="off" {...c} {...register(`branches.${i}.town`)} />}
        </FormField>
        <FormField id={`${idPrefix}-area`} label={f.area} hint={f.areaHint} error={errors?.area?.message} announce>
          {(c) => <input autoComplete="off" {...c} {...register(`branches.${i}.area`)} />}
        </FormField>
        <FormField id={`${idPrefix}-lat`} label={f.lat} hint={f.coordinatesHint} error={errors?.lat?.message} announce>
          {(c) => <input inputMode="decimal" autoComplete="off" {...c} {...register(`branches.${i}.lat`, { setValueAs: coordinate })} />}
        </FormField>
        <FormField id={`${idPrefix}-lng`} label={f.lng} error={errors?.lng?.message} announce>
          {(c) => <input inputMode="decimal" autoComplete="off" {...c} {...register(`branches.${i}.lng`, { setValueAs: coordinate })} />}
        </FormField>
        <FormField id={`${idPrefix}-phone`} label={f.branchPhone} error={errors?.phone?.message} announce>
          {(c) => <input type="tel" autoComplete="off" {...c} {...register(`branches.${i}.phone`)} />}
        </FormField>
      </div>
      <WeeklyHours index={i} idPrefix={idPrefix} control={control} register={register} errors={hoursErrors?.weekly} />
      <Exceptions index={i} idPrefix={idPrefix} control={control} register={register} errors={hoursErrors?.exceptions} />
      <FieldMessages id={`${idPrefix}-hours`} error={hoursErrors?.message ?? hoursErrors?.root?.message} announce />
    </fieldset>
  );
}

type ListErrors<T extends FieldValues> = { [n: number]: FieldErrors<T> | undefined; message?: string; root?: { message?: string } } | undefined;

type TimesProps = {
  idPrefix: string;
  /** Read out after each field's label: the day or date and the period's number. */
  context: (n: number) => string;
  opens: ReturnType<UseFormRegister<FormValues>>;
  closes: ReturnType<UseFormRegister<FormValues>>;
  errors: FieldErrors<Period> | undefined;
  onRemove?: () => void;
  n: number;
};

/** One period: opening and closing time, each with its day (or date) in its accessible name. */
function Times({ idPrefix, context, opens, closes, errors, onRemove, n }: TimesProps) {
  const f = useFormText();
  const hidden = <span className="visually-hidden">{context(n)}</span>;
  return (
    <div className={styles.period}>
      <FormField
        id={`${idPrefix}-opens`}
        label={
          <>
            {f.opens}
            {hidden}
          </>
        }
        error={errors?.opens?.message}
        announce
        className={styles.time}
      >
        {(c) => <input type="time" {...c} {...opens} />}
      </FormField>
      <FormField
        id={`${idPrefix}-closes`}
        label={
          <>
            {f.closes}
            {hidden}
          </>
        }
        error={errors?.closes?.message}
        announce
        className={styles.time}
      >
        {(c) => <input type="time" {...c} {...closes} />}
      </FormField>
      {onRemove ? (
        <button type="button" className={`btn btn-sm btn-outline ${styles.remove}`} onClick={onRemove}>
          {f.removePeriod}
          {hidden}
        </button>
      ) : null}
    </div>
  );
}

type HoursProps<T extends FieldValues> = {
  index: number;
  idPrefix: string;
  control: Control<FormValues>;
  register: UseFormRegister<FormValues>;
  errors: ListErrors<T>;
};

/** The week: per day closed, or one or more periods. */
function WeeklyHours({ index: i, idPrefix, control, register, errors }: HoursProps<Period & { day: number }>) {
  const { t } = useI18n();
  const f = useFormText();
  const p = t.places;
  const weekly = useFieldArray({ control, name: `branches.${i}.openingHours.weekly` });
  return (
    <fieldset className={styles.hours} aria-describedby={`${idPrefix}-weekly-hint`}>
      <legend>{f.weekly}</legend>
      <p id={`${idPrefix}-weekly-hint`} className="field-hint">
        {f.weeklyHint}
      </p>
      {DAYS.map((day) => {
        const dayName = p.dayName(day);
        const rows = weekly.fields.map((field, at) => ({ field, at })).filter((r) => r.field.day === day);
        const closedId = `${idPrefix}-d${day}-closed`;
        return (
          <div key={day} className={styles.day} role="group" aria-labelledby={`${idPrefix}-d${day}-name`}>
            <span id={`${idPrefix}-d${day}-name`} className={styles.dayName}>
              {capitalised(dayName)}
            </span>
            <label className={styles.check} htmlFor={closedId}>
              <input
                id={closedId}
                type="checkbox"
                checked={rows.length === 0}
                onChange={(e) => (e.target.checked ? weekly.remove(rows.map((r) => r.at)) : weekly.append({ day, ...NEW_PERIOD }))}
              />
              {f.closed}
              <span className="visually-hidden"> {dayName}</span>
            </label>
            <div className={styles.periods}>
              {rows.map(({ field, at }, n) => (
                <Times
                  key={field.id}
                  idPrefix={`${idPrefix}-w${field.id}`}
                  context={(k) => f.periodOf(dayName, rows.length > 1 ? k : 1)}
                  n={n + 1}
                  opens={register(`branches.${i}.openingHours.weekly.${at}.opens`)}
                  closes={register(`branches.${i}.openingHours.weekly.${at}.closes`)}
                  errors={errors?.[at]}
                  onRemove={rows.length > 1 ? () => weekly.remove(at) : undefined}
                />
              ))}
              {rows.length > 0 ? (
                <button type="button" className={`btn btn-sm btn-ghost ${styles.add}`} onClick={() => weekly.append({ day, ...NEW_PERIOD })}>
                  <span aria-hidden="true">+ </span>
                  {f.addPeriod}
                  <span className="visually-hidden"> {dayName}</span>
                </button>
              ) : null}
            </div>
          </div>
        );
      })}
      <FieldMessages id={`${idPrefix}-weekly`} error={errors?.message ?? errors?.root?.message} announce />
    </fieldset>
  );
}

/** Dated exceptions: a date, closed or its own periods, and what the day is. */
function Exceptions({ index: i, idPrefix, control, register, errors }: HoursProps<Exception>) {
  const f = useFormText();
  const exceptions = useFieldArray({ control, name: `branches.${i}.openingHours.exceptions` });
  return (
    <fieldset className={styles.hours} aria-describedby={`${idPrefix}-exceptions-hint`}>
      <legend>{f.exceptions}</legend>
      <p id={`${idPrefix}-exceptions-hint`} className="field-hint">
        {f.exceptionsHint}
      </p>
      {exceptions.fields.map((field, at) => (
        <ExceptionFields
          key={field.id}
          branch={i}
          at={at}
          idPrefix={`${idPrefix}-x${field.id}`}
          control={control}
          register={register}
          errors={errors?.[at]}
          onRemove={() => exceptions.remove(at)}
        />
      ))}
      <FieldMessages id={`${idPrefix}-exceptions`} error={errors?.message ?? errors?.root?.message} announce />
      <button type="button" className={`btn btn-sm btn-ghost ${styles.add}`} onClick={() => exceptions.append({ date: '', periods: [], note: '' })}>
        <span aria-hidden="true">+ </span>
        {f.addException}
      </button>
    </fieldset>
  );
}

type ExceptionProps = {
  branch: number;
  at: number;
  idPrefix: string;
  control: Control<FormValues>;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<Exception> | undefined;
  onRemove: () => void;
};

function ExceptionFields({ branch: i, at, idPrefix, control, register, errors, onRemove }: ExceptionProps) {
  const f = useFormText();
  const base = `branches.${i}.openingHours.exceptions.${at}` as const;
  const periods = useFieldArray({ control, name: `${base}.periods` });
  const date = useWatch({ control, name: `${base}.date` });
  const day = date || f.exception(at + 1);
  const periodErrors = errors?.periods as ListErrors<Period>;
  return (
    <fieldset className={styles.exception}>
      <legend className={styles.exceptionLegend}>{f.exception(at + 1)}</legend>
      <div className={styles.row}>
        <FormField id={`${idPrefix}-date`} label={f.date} error={errors?.date?.message} announce>
          {(c) => <input type="date" {...c} {...register(`${base}.date`)} />}
        </FormField>
        <FormField id={`${idPrefix}-note`} label={f.note} error={errors?.note?.message} announce>
          {(c) => <input placeholder={f.notePlaceholder} autoComplete="off" {...c} {...register(`${base}.note`)} />}
        </FormField>
      </div>
      <label className={styles.check} htmlFor={`${idPrefix}-closed`}>
        <input
          id={`${idPrefix}-closed`}
          type="checkbox"
          checked={periods.fields.length === 0}
          onChange={(e) => (e.target.checked ? periods.remove() : periods.append({ ...NEW_PERIOD }))}
        />
        {f.closedAllDay}
        <span className="visually-hidden"> {day}</span>
      </label>
      <div className={styles.periods}>
        {periods.fields.map((field, n) => (
          <Times
            key={field.id}
            idPrefix={`${idPrefix}-p${field.id}`}
            context={(k) => f.periodOf(day, periods.fields.length > 1 ? k : 1)}
            n={n + 1}
            opens={register(`${base}.periods.${n}.opens`)}
            closes={register(`${base}.periods.${n}.closes`)}
            errors={periodErrors?.[n]}
            onRemove={periods.fields.length > 1 ? () => periods.remove(n) : undefined}
          />
        ))}
        {periods.fields.length > 0 && periods.fields.length < 3 ? (
          <button type="button" className={`btn btn-sm btn-ghost ${styles.add}`} onClick={() => periods.append({ ...NEW_PERIOD })}>
            <span aria-hidden="true">+ </span>
            {f.addPeriod}
            <span className="visually-hidden"> {day}</span>
          </button>
        ) : null}
      </div>
      <FieldMessages id={`${idPrefix}-periods`} error={periodErrors?.message ?? periodErrors?.root?.message} announce />
      <button type="button" className={`btn btn-sm btn-outline ${styles.remove}`} onClick={onRemove}>
        {f.removeException}
        <span className="visually-hidden"> {day}</span>
      </button>
    </fieldset>
  );
}
