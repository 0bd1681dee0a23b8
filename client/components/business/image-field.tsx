import { useId, useRef, useState } from 'react';
import { errorKeyOf, useI18n } from '../../i18n';
import { isMessageKey } from '../../../server/schemas/messages';
import { uploadImage } from '../../lib/upload-image';
import { notify } from '../ui/toast';
import styles from './business-form.module.css';

/** How long an image error stays up (description section 4: 6 seconds). */
const IMAGE_ERROR_MS = 6000;

/**
 * A labelled file input that shrinks and uploads the picture at once, with a progress bar, and
 * hands the stored image's id to the form. Shows the current picture, and (when allowed) a
 * button that removes it.
 */
export function ImageField({
  kind,
  label,
  previewAlt,
  removeLabel,
  currentUrl,
  onUploaded,
  onRemove,
  onBusyChange,
}: {
  kind: 'business' | 'icon';
  label: string;
  previewAlt: string;
  removeLabel: string;
  currentUrl: string | null;
  onUploaded(id: string): void;
  onRemove?: () => void;
  onBusyChange(busy: boolean): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState(currentUrl);
  const [progress, setProgress] = useState<number | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setProgress(0);
    onBusyChange(true);
    try {
      const stored = await uploadImage(file, kind, setProgress);
      setPreview(stored.url);
      onUploaded(stored.id);
    } catch (error) {
      const key = errorKeyOf(error);
      notify(key && isMessageKey(key) ? t.messages[key] : t.common.genericError, 'error', IMAGE_ERROR_MS);
      if (input.current) input.current.value = '';
    } finally {
      setProgress(null);
      onBusyChange(false);
    }
  };

  const percent = progress === null ? null : Math.round(progress * 100);
  return (
    <div className={`field ${styles.imageField}`}>
      <label htmlFor={id}>{label}</label>
      <div className={styles.imageRow}>
        {preview ? (
          <img className={kind === 'icon' ? styles.iconPreview : styles.imagePreview} src={preview} alt={previewAlt} />
        ) : null}
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/*"
          className={styles.file}
          disabled={progress !== null}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </div>
      {percent !== null ? (
        <div className={styles.progress}>
          <progress max={100} value={percent} aria-labelledby={`${id}-progress`} />
          <span id={`${id}-progress`}>{t.business.form.uploadProgress(percent)}</span>
        </div>
      ) : null}
      {preview && onRemove && progress === null ? (
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={() => {
            setPreview(null);
            if (input.current) input.current.value = '';
            onRemove();
          }}
        >
          {removeLabel}
        </button>
      ) : null}
    </div>
  );
}
