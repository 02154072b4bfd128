// Shared UI primitives of the admin (and any page that wants them).
export { Badge, statusTone, type BadgeTone } from './Badge';
export { Button, buttonClass, type ButtonProps, type ButtonVariant } from './Button';
export { Card, type CardProps } from './Card';
export { ConfirmDialog, Dialog, type ConfirmDialogProps, type DialogProps } from './Dialog';
export { Checkbox, SelectField, TextArea, TextField } from './Field';
export { EmptyState, ErrorState, LoadingState } from './States';
export { ProgressBar, type ProgressBarProps, type ProgressTone } from './ProgressBar';
export { StatusMessage, type StatusTone } from './StatusMessage';
export { Table, tableStyles, type TableProps } from './Table';
