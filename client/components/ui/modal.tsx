import type { ReactNode } from 'react';
import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useI18n } from '../../i18n';
import styles from './modal.module.css';

type ModalProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Dialogs that ask for a decision close only by their buttons or Escape. */
  closeOnOutside?: boolean;
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg';
};

/** Ark UI dialog with our look: focus trap, Escape, labelled title and description. */
export function Modal({ open, onOpenChange, title, description, children, closeOnOutside = false, role = 'dialog', size = 'sm' }: ModalProps) {
  const { t } = useI18n();
  return (
    <Dialog.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} closeOnInteractOutside={closeOnOutside} role={role} lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop className={styles.backdrop} />
        <Dialog.Positioner className={styles.positioner}>
          <Dialog.Content className={styles.content} data-size={size}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            {description ? <Dialog.Description className={styles.description}>{description}</Dialog.Description> : null}
            {children}
            <Dialog.CloseTrigger className={styles.close} aria-label={t.common.close}>
              ×
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

type ConfirmProps = {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  text: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm(): void;
  busy?: boolean;
};

/** "Are you sure?" with Cancel and a danger button. */
export function ConfirmDialog({ open, onOpenChange, title, text, confirmLabel, cancelLabel, onConfirm, busy }: ConfirmProps) {
  const { t } = useI18n();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} description={text} role="alertdialog">
      <div className={styles.actions}>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>
          {cancelLabel ?? t.common.cancel}
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
