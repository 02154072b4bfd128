// The one button of the admin: primary/secondary/danger/ghost, an optional icon, and a busy state.
import { LoaderCircle } from 'lucide-react';
import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
  /** Shows a spinner instead of the icon, disables the button and sets aria-busy. */
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
    ...rest
  },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={[buttonClass(variant, size), className ?? ''].join(' ').trim()}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
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
