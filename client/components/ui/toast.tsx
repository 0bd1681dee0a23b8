import { Toast, Toaster, createToaster } from '@ark-ui/react/toast';
import { Portal } from '@ark-ui/react/portal';
import { useI18n } from '../../i18n';
import styles from './toast.module.css';

/** The one toaster of the app; notices auto-hide after 3 s unless a duration is given. */
export const toaster = createToaster({ placement: 'bottom', overlap: false, gap: 12, max: 4 });

export type ToastKind = 'success' | 'error' | 'info';

export function notify(message: string, kind: ToastKind = 'info', duration = 3000) {
  toaster.create({ description: message, type: kind, duration });
}

export function AppToaster() {
  const { t } = useI18n();
  return (
    <Portal>
      <Toaster toaster={toaster}>
        {(toast) => (
          <Toast.Root className={styles.root} data-kind={toast.type}>
            <Toast.Description className={styles.text}>{toast.description}</Toast.Description>
            <Toast.CloseTrigger className={styles.close} aria-label={t.common.close}>
              ×
            </Toast.CloseTrigger>
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
