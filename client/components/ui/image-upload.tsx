import { useId, useRef, useState } from 'react';
import type { ImageKind } from '../../../shared/schemas/common';
import { useI18n } from '../../i18n';
import { UploadError, uploadImage, type UploadedImage } from '../../lib/upload-image';
import { notify } from './toast';
import styles from './image-upload.module.css';

type Props = {
  kind: ImageKind;
  /** The button's text. */
  label: string;
  /** A visible field name above the button that also names the file input (forms with several). */
  fieldLabel?: string;
  previewAlt?: string;
  removeLabel?: string;
  /** The picture shown before a new one is chosen (e.g. the current avatar). */
  currentUrl?: string | null;
  /** Called with the stored image once the upload finished, or null when removed. */
  onChange(image: UploadedImage | null): void;
  /** Lets the form wait (disable submit) while an upload runs. */
  onBusyChange?(busy: boolean): void;
  removable?: boolean;
  round?: boolean;
};

/**
 * Picks one image, shrinks it in the browser to the bounds of its kind and uploads it with a
 * visible progress bar. Refusals (too large: 6 s, per the description) show as toasts.
 */
export function ImageUpload({
  kind,
  label,
  fieldLabel,
  previewAlt = '',
  removeLabel,
  currentUrl = null,
  onChange,
  onBusyChange,
  removable = true,
  round = false,
}: Props) {
  const { t, errorText } = useI18n();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [preview, setPreview] = useState<string | null>(currentUrl);
  const [progress, setProgress] = useState<number | null>(null);

  async function pick(file: File | undefined) {
    if (!file) return;
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress(0);
    onBusyChange?.(true);
    try {
      const image = await uploadImage(file, kind, setProgress, controller.signal);
      setPreview(image.url);
      onChange(image);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const tooLarge = error instanceof UploadError && (error.key === 'imageTooLarge' || error.key === 'imageTooManyPixels');
      notify(errorText(error), 'error', tooLarge ? 6000 : 3000);
    } finally {
      if (abortRef.current === controller) {
        abortRef.current = null;
        setProgress(null);
        onBusyChange?.(false);
      }
      if (inputRef.current) inputRef.current.value = '';
    }
  }

  function remove() {
    abortRef.current?.abort();
    setPreview(null);
    onChange(null);
  }

  const uploading = progress !== null;
  const fieldLabelId = `${inputId}-field`;
  return (
    <div className={styles.field}>
      {fieldLabel ? (
        <span id={fieldLabelId} className={styles.fieldLabel}>
          {fieldLabel}
        </span>
      ) : null}
      <div className={styles.root}>
        {preview ? <img className={styles.preview} data-round={round || undefined} src={preview} alt={previewAlt} width={72} height={72} /> : null}
        <div className={styles.controls}>
          <label htmlFor={inputId} className="btn btn-outline btn-sm">
            {label}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            className="visually-hidden"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            aria-labelledby={fieldLabel ? fieldLabelId : undefined}
            onChange={(e) => void pick(e.target.files?.[0])}
            disabled={uploading}
          />
          {preview && removable && !uploading ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={remove}>
              {removeLabel ?? t.common.image.remove}
            </button>
          ) : null}
          {uploading ? (
            <div className={styles.progressWrap}>
              <progress className={styles.progress} max={1} value={progress} aria-label={t.common.image.uploading} />
              <span className="muted">{Math.round(progress * 100)} %</span>
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
