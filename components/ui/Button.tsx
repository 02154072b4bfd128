// The one button of the admin: primary/secondary/danger/ghost, an optional icon, and a busy state.
import { LoaderCircle } from 'lucide-react';
import { forwardRef, type ButtonHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
  /**
   * Shows a spinner instead of the icon, sets aria-busy and ignores clicks. The button stays
   * focusable (aria-disabled, not `disabled`): a disabled button drops keyboard focus to <body>,
   * so a dialog it opens would have nowhere to hand focus back to.
   */
  loading?: boolean;
  /** A lucide icon element; it is decorative, the children name the button. */
  icon?: ReactNode;
}

export function buttonClass(
  variant: ButtonVariant = 'secondary',
  size: 'md' | 'sm' = 'md',
): string {
  return [styles.button, styles[variant], size === 'sm' ? styles.sm : ''].join(' ').trim();
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant = 'secondary',
    size = 'md',
    loading = false,
    icon,
    type = 'button',
    className,
    disabled,
    children,
    onClick,
    ...rest
  },
  ref,
) {
  const busy = loading && !disabled;
  return (
    <button
      ref={ref}
      type={type}
      className={[buttonClass(variant, size), className ?? ''].join(' ').trim()}
      disabled={disabled}
      aria-disabled={busy || undefined}
      aria-busy={loading || undefined}
      {...rest}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (busy) {
          // Also keeps a submit button from submitting its form again.
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {loading ? (
        <LoaderCircle className={`${styles.icon} ${styles.spin}`} aria-hidden="true" />
      ) : icon ? (
        <span className={styles.icon} aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {children}
    </button>
  );
});
