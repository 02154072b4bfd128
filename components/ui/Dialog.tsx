// Modal dialogs on the native <dialog>: showModal() makes the page inert (focus stays inside),
// Escape closes, and focus goes back to whatever opened it.
import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';
import styles from './Dialog.module.css';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom; omit for dialogs whose body holds its own form buttons. */
  footer?: ReactNode;
  /** Keeps Escape and the close button from dismissing while something is saving. */
  busy?: boolean;
  size?: 'sm' | 'md';
}

export function Dialog({ open, title, onClose, children, footer, busy, size = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const opener = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  const busyRef = useRef(busy);
  useEffect(() => {
    onCloseRef.current = onClose;
    busyRef.current = busy;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
      // showModal() focuses the first focusable element, which is the close button; start on the
      // first field instead (or the footer's first button, i.e. Cancel on a confirmation).
      const first = dialog.querySelector<HTMLElement>(
        '[data-autofocus], [data-dialog-body] :is(input, select, textarea), [data-dialog-footer] button',
      );
      first?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape fires `cancel`: hand it to the owner instead of letting the element close itself,
    // so React state stays the single source of truth.
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!busyRef.current) onCloseRef.current();
    };
    const onClosed = () => {
      const back = opener.current;
      opener.current = null;
      if (back && back.isConnected) back.focus();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClosed);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`${styles.dialog} ${size === 'sm' ? styles.sm : ''}`}
      aria-labelledby={titleId}
    >
      {open ? (
        <div className={styles.panel}>
          <div className={styles.head}>
            <h2 id={titleId} className={styles.title}>
              {title}
            </h2>
            <button
              type="button"
              className={styles.close}
              onClick={onClose}
              disabled={busy}
              aria-label="Close"
            >
              <X aria-hidden="true" />
            </button>
          </div>
          <div className={styles.body} data-dialog-body>
            {children}
          </div>
          {footer ? (
            <div className={styles.footer} data-dialog-footer>
              {footer}
            </div>
          ) : null}
        </div>
      ) : null}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** What the dismissing button says (default "Cancel"); name what it keeps, e.g. "Keep sending". */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
  /** An error from the last attempt, shown inside the dialog so the user can retry or cancel. */
  error?: string | null;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  busy,
  danger = true,
  error,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      busy={busy}
      size="sm"
      footer={
        <>
          <Button onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className={styles.text}>{children}</div>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
