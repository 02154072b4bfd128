// A public page that could not load its data: the error panel with the message and Try again.
// Its own module so the home page loads it (StatusPanel, RetryButton, their styles and icons) only
// when a read failed, which the exported HTML never shows.
import RetryButton from './RetryButton';
import StatusPanel from './StatusPanel';

export default function PageError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <StatusPanel
      tone="error"
      title="This page could not load"
      actions={<RetryButton onRetry={onRetry} />}
    >
      <p>{message}</p>
    </StatusPanel>
  );
}
