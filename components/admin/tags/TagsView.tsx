// The body of /admin/subscribers/tags/: every tag with how many subscribers have it (a link to
// them), found by name and sorted; admins and owners create, rename and delete tags, members read.
import { ArrowLeft, Pencil, Plus, Tags as TagsIcon, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { countNoun, formatCount, formatDay } from '../../../lib/admin/format';
import { visibleTags, type Tag, type TagSort, type TagSummary } from '../../../lib/admin/tags';
import { useTags, useTagWrite } from '../../../lib/admin/use-tags';
import { useAdmin } from '../AdminContext';
import {
  Button,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  SelectField,
  StatusMessage,
  Table,
  tableStyles,
  TextField,
} from '../../ui';
import { DeleteTagDialog } from './DeleteTagDialog';
import { TagNameDialog } from './TagNameDialog';
import styles from './TagsView.module.css';

type Naming = { tag: Tag | null } | null;

function TagsTable({
  tags,
  editable,
  onRename,
  onDelete,
}: {
  tags: TagSummary[];
  editable: boolean;
  onRename: (tag: TagSummary) => void;
  onDelete: (tag: TagSummary) => void;
}) {
  return (
    <Table caption="Tags" captionHidden stack>
      <thead>
        <tr>
          <th scope="col">Tag</th>
          <th scope="col" className={tableStyles.num}>
            Subscribers
          </th>
          <th scope="col">Created</th>
          {editable ? (
            <th scope="col" className={tableStyles.actions}>
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {tags.map((tag) => (
          <tr key={tag.id}>
            <th scope="row" className={`${styles.nameCell} ${tableStyles.full}`}>
              <span className={styles.tagName}>{tag.name}</span>
            </th>
            <td className={tableStyles.num} data-label="Subscribers">
              {tag.subscribers > 0 ? (
                <Link
                  href={`/admin/subscribers/?tag=${tag.id}`}
                  aria-label={`${formatCount(tag.subscribers)} ${countNoun(tag.subscribers, 'subscriber', 'subscribers')} tagged ${tag.name}`}
                >
                  {formatCount(tag.subscribers)}
                </Link>
              ) : (
                <span className={tableStyles.muted}>0</span>
              )}
            </td>
            <td data-label="Created">{formatDay(tag.created_at)}</td>
            {editable ? (
              <td className={`${tableStyles.actions} ${tableStyles.full}`}>
                <span className={styles.rowActions}>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Pencil />}
                    aria-label={`Rename ${tag.name}`}
                    onClick={() => onRename(tag)}
                  >
                    Rename
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Trash2 />}
                    aria-label={`Delete ${tag.name}`}
                    onClick={() => onDelete(tag)}
                  >
                    Delete
                  </Button>
                </span>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function TagsView() {
  const { can } = useAdmin();
  const editable = can('manage-subscribers');
  const tags = useTags();
  const write = useTagWrite();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<TagSort>('name');
  const [naming, setNaming] = useState<Naming>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const openNaming = (tag: Tag | null) => {
    write.clearError();
    setNotice(null);
    setNaming({ tag });
  };
  const newButton = editable ? (
    <Button variant="primary" icon={<Plus />} onClick={() => openNaming(null)}>
      New tag
    </Button>
  ) : null;

  let body;
  if (tags.error && !tags.data) {
    body = (
      <ErrorState
        title="Tags could not be loaded."
        message={tags.error.message}
        onRetry={() => void tags.mutate()}
        retrying={tags.isValidating}
      />
    );
  } else if (!tags.data) {
    body = <LoadingState label="Loading tags…" />;
  } else if (tags.data.length === 0) {
    body = (
      <EmptyState icon={<TagsIcon />} title="No tags yet." action={newButton}>
        Tags are labels on subscribers that only the team sees. Add them here, on a
        subscriber&apos;s page, in bulk from the subscribers list, with an import&apos;s{' '}
        <code>tags</code> column or from an automation; then filter, segment and start automations
        by them.
      </EmptyState>
    );
  } else {
    const shown = visibleTags(tags.data, query, sort);
    body = (
      <>
        <div className={styles.toolbar}>
          <TextField
            label="Find a tag"
            type="search"
            value={query}
            autoComplete="off"
            onChange={(e) => setQuery(e.target.value)}
          />
          <SelectField
            label="Sort by"
            value={sort}
            onChange={(e) => setSort(e.target.value as TagSort)}
          >
            <option value="name">Name</option>
            <option value="subscribers">Most subscribers</option>
            <option value="newest">Newest</option>
          </SelectField>
        </div>
        {shown.length === 0 ? (
          <p className={styles.noMatch} role="status">
            No tag matches “{query.trim()}”.
          </p>
        ) : (
          <TagsTable
            tags={shown}
            editable={editable}
            onRename={(tag) => openNaming(tag)}
            onDelete={(tag) => {
              write.clearError();
              setNotice(null);
              setDeleting(tag);
            }}
          />
        )}
      </>
    );
  }

  return (
    <div className={styles.page}>
      <Link href="/admin/subscribers/" className={styles.back}>
        <ArrowLeft aria-hidden="true" width={18} height={18} />
        All subscribers
      </Link>
      {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
      {!editable ? (
        <StatusMessage tone="info">
          You can see tags and who has them. Admins and owners can create, rename and delete them.
        </StatusMessage>
      ) : null}
      <Card
        title={tags.data ? `All tags (${formatCount(tags.data.length)})` : 'All tags'}
        actions={tags.data && tags.data.length > 0 ? newButton : null}
        flush
      >
        {body}
      </Card>
      {editable ? (
        <>
          <TagNameDialog
            open={naming !== null}
            tag={naming?.tag ?? null}
            busy={write.pending}
            error={write.error}
            onClose={() => setNaming(null)}
            onSave={async (name) => {
              const was = naming?.tag ?? null;
              const saved = was ? await write.rename(was.id, name) : await write.create(name);
              if (!saved) return false;
              setNaming(null);
              setNotice(was ? `Tag “${was.name}” renamed to “${name}”.` : `Tag “${name}” created.`);
              return true;
            }}
          />
          <DeleteTagDialog
            tag={deleting}
            busy={write.pending}
            error={write.error}
            onCancel={() => setDeleting(null)}
            onConfirm={(tag) =>
              void write.destroy(tag.id).then((lost) => {
                if (lost === null) return;
                setDeleting(null);
                setNotice(
                  `Tag “${tag.name}” deleted${lost > 0 ? `; ${formatCount(lost)} ${countNoun(lost, 'subscriber', 'subscribers')} no longer ${lost === 1 ? 'has' : 'have'} it` : ''}.`,
                );
              })
            }
          />
        </>
      ) : null}
    </div>
  );
}
