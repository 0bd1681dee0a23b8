import { useEffect, useId, useRef, useState } from 'react';
import { MAX_UPLOAD_BYTES } from '../../../shared/schemas/common';
import { useI18n } from '../../i18n';
import { compressImage, isNotAnImage } from '../../lib/compress-image';
import { UploadError } from '../../lib/upload-image';
import { notify } from '../../components/ui/toast';
import styles from './avatar-picker.module.css';

export type PickedAvatar = { blob: Blob; name: string; previewUrl: string };

/** Types the server decodes itself when this browser cannot (an old one and AVIF, say). */
const SERVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

function PersonIcon() {
  return (
    <svg width="36" height="36" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4.4 3.6-8 8-8s8 3.6 8 8" />
    </svg>
  );
}

/**
 * The registration form's avatar: a visitor cannot upload on their own, so the picture is only
 * shrunk here (512 px, like every avatar) and travels with the form, whose upload shows progress.
 */
export function AvatarPicker({ value, onChange, disabled }: { value: PickedAvatar | null; onChange(avatar: PickedAvatar | null): void; disabled?: boolean }) {
  const { t, errorText } = useI18n();
  const r = t.accounts.registration;
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [preparing, setPreparing] = useState(false);

  useEffect(() => {
    if (!value) return;
    return () => URL.revokeObjectURL(value.previewUrl);
  }, [value]);

  async function pick(file: File | undefined) {
    if (!file) return;
    setPreparing(true);
    try {
      const blob = await compressImage(file, 'avatar').catch((error: unknown) => {
        if (isNotAnImage(error) && !SERVER_TYPES.has(file.type)) throw new UploadError('imageUnsupported', 415);
        return file;
      });
      if (blob.size > MAX_UPLOAD_BYTES) throw new UploadError('imageTooLarge', 413);
      const name = blob.type === 'image/jpeg' ? 'avatar.jpg' : blob.type === 'image/webp' ? 'avatar.webp' : file.name || 'avatar';
      onChange({ blob, name, previewUrl: URL.createObjectURL(blob) });
    } catch (error) {
      const tooLarge = error instanceof UploadError && error.key === 'imageTooLarge';
      notify(errorText(error), 'error', tooLarge ? 6000 : 3000);
    } finally {
      setPreparing(false);
      if (inputRef.current) inputRef.current.value = '';
    }
  }

  return (
    <div className={styles.root}>
      <div className={styles.avatar}>{value ? <img src={value.previewUrl} alt="" width={80} height={80} /> : <PersonIcon />}</div>
      <div className={styles.controls}>
        <div className={styles.buttons}>
          <label htmlFor={id} className="btn btn-outline btn-sm" aria-disabled={disabled || preparing || undefined}>
            {value ? r.changeAvatar : r.chooseAvatar}
          </label>
          <input
            ref={inputRef}
            id={id}
            className="visually-hidden"
            type="file"
            accept="image/*"
            disabled={disabled || preparing}
            aria-describedby={`${id}-hint`}
            onChange={(e) => void pick(e.target.files?.[0])}
          />
          {value && !preparing ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange(null)} disabled={disabled}>
              {r.removeAvatar}
            </button>
          ) : null}
        </div>
        <p id={`${id}-hint`} className={styles.hint} role={preparing ? 'status' : undefined}>
          {preparing ? r.preparingAvatar : r.avatarHint}
        </p>
      </div>
    </div>
  );
}
