// /admin/share/: Share & embed. Pick a public list, then copy its link, QR code, iframe snippet
// or plain HTML form, and see the embed live with the chosen options.
import Link from 'next/link';
import { useState } from 'react';
import AdminLayout from '../../../components/admin/AdminLayout';
import SharePanel from '../../../components/admin/share/SharePanel';
import styles from '../../../components/admin/share/Share.module.css';
import {
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  SelectField,
  buttonClass,
} from '../../../components/ui';
import { useLists } from '../../../lib/admin/use-lists';

function ShareContent() {
  const { data, error, isValidating, mutate } = useLists();
  const [picked, setPicked] = useState<string | null>(null);

  if (error) {
    return (
      <Card>
        <ErrorState
          title="The lists could not be loaded."
          message={error.message}
          onRetry={() => void mutate()}
          retrying={isValidating}
        />
      </Card>
    );
  }
  if (!data) {
    return (
      <Card>
        <LoadingState label="Loading lists…" />
      </Card>
    );
  }
  // Only public lists take signups from a form (SPEC §2); private ones are never offered here.
  const lists = data.filter((list) => list.visibility === 'public');
  if (lists.length === 0) {
    return (
      <Card>
        <EmptyState
          title="No public lists to share."
          action={
            <Link href="/admin/lists/" className={buttonClass('primary')}>
              Go to Lists
            </Link>
          }
        >
          Only public lists can be joined from a link or an embedded form. Create a list, or make
          one public, on the Lists page.
        </EmptyState>
      </Card>
    );
  }
  const list = lists.find((l) => l.slug === picked) ?? lists[0]!;
  return (
    <div className={styles.page}>
      <Card>
        <div className={styles.picker}>
          <SelectField
            label="List to share"
            value={list.slug}
            onChange={(e) => setPicked(e.target.value)}
            hint="Each public list has its own link, QR code and embed."
          >
            {lists.map((l) => (
              <option key={l.slug} value={l.slug}>
                {l.name}
              </option>
            ))}
          </SelectField>
        </div>
      </Card>
      <SharePanel key={list.slug} list={list} />
    </div>
  );
}

export default function SharePage() {
  return (
    <AdminLayout title="Share & embed">
      <ShareContent />
    </AdminLayout>
  );
}
