// Labelled form fields: the label is always visible, hint and error are tied to the control
// with aria-describedby, and an error sets aria-invalid.
import { CircleAlert } from 'lucide-react';
import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import styles from './Field.module.css';

interface FieldBits {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** Marks the label "(optional)". */
  optional?: boolean;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function Frame({
  id,
  label,
  hint,
  error,
  optional,
  children,
}: FieldBits & { id: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        {optional ? <span className={styles.optional}> (optional)</span> : null}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          <CircleAlert aria-hidden="true" />
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type TextFieldProps = FieldBits & InputHTMLAttributes<HTMLInputElement>;

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hint, error, optional, id, className, ...rest },
  ref,
) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Frame id={fieldId} label={label} hint={hint} error={error} optional={optional}>
      <input
        ref={ref}
        id={fieldId}
        className={[styles.control, className ?? ''].join(' ').trim()}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, hint, error)}
        {...rest}
      />
    </Frame>
  );
});

export type TextAreaProps = FieldBits & TextareaHTMLAttributes<HTMLTextAreaElement>;

export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { label, hint, error, optional, id, className, ...rest },
  ref,
) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Frame id={fieldId} label={label} hint={hint} error={error} optional={optional}>
      <textarea
        ref={ref}
        id={fieldId}
        className={[styles.control, styles.textarea, className ?? ''].join(' ').trim()}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, hint, error)}
        {...rest}
      />
    </Frame>
  );
});

export type SelectFieldProps = FieldBits &
  SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode };

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, hint, error, optional, id, className, children, ...rest },
  ref,
) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <Frame id={fieldId} label={label} hint={hint} error={error} optional={optional}>
      <select
        ref={ref}
        id={fieldId}
        className={[styles.control, styles.select, className ?? ''].join(' ').trim()}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, hint, error)}
        {...rest}
      >
        {children}
      </select>
    </Frame>
  );
});

export type CheckboxProps = Omit<FieldBits, 'optional'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>;

export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(
  { label, hint, error, id, className, ...rest },
  ref,
) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className={[styles.check, className ?? ''].join(' ').trim()}>
      <input
        ref={ref}
        id={fieldId}
        type="checkbox"
        className={styles.box}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, hint, error)}
        {...rest}
      />
      <div className={styles.checkText}>
        <label htmlFor={fieldId} className={styles.checkLabel}>
          {label}
        </label>
        {hint ? (
          <p id={`${fieldId}-hint`} className={styles.hint}>
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${fieldId}-error`} className={styles.error}>
            <CircleAlert aria-hidden="true" />
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
});
