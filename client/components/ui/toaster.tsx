import { Toast, Toaster, createToaster } from '@ark-ui/react/toast';
import { Portal } from '@ark-ui/react/portal';
import { useI18n } from '../../i18n';
import type { ToastAction, ToastKind } from './toast';
import styles from './toast.module.css';

/** The one toaster of the app (loaded with the first notice; see toast.tsx). */
const toaster = createToaster({ placement: 'bottom', overlap: false, gap: 12, max: 4 });

export function show(message: string, kind: ToastKind, duration: number, action?: ToastAction) {
  toaster.create({ description: message, type: kind, duration, action });
}

export function dismissAll() {
  toaster.dismiss();
}

export default function RealToaster() {
  const { t } = useI18n();
  return (
    <Portal>
      <Toaster toaster={toaster}>
        {(toast) => (
          <Toast.Root className={styles.root} data-kind={toast.type}>
            <Toast.Description className={styles.text}>{toast.description}</Toast.Description>
            {toast.action ? <Toast.ActionTrigger className={styles.action}>{toast.action.label}</Toast.ActionTrigger> : null}
            <Toast.CloseTrigger className={styles.close} aria-label={t.common.close}>
              ×
            </Toast.CloseTrigger>
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
