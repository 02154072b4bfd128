// The chosen CSV before it is imported: size, rows and delimiter, which column becomes email, name
// or an attribute (changeable when the header does not say), and the first rows as parsed.
import {
  defaultMapping,
  delimiterName,
  describeColumns,
  formatBytes,
  type ColumnMapping,
  type CsvPreview,
} from '../../../lib/admin/import-csv';
import { SelectField, Table } from '../../ui';
import styles from './ImportExport.module.css';

export function ImportPreview({
  file,
  preview,
  rows,
  mapping,
  onMapping,
  emailError,
}: {
  file: File;
  preview: CsvPreview;
  rows: number;
  mapping: ColumnMapping;
  onMapping: (next: ColumnMapping) => void;
  emailError: string | null;
}) {
  const columns = describeColumns(preview.columns, mapping);
  // The header line is replaced when the mapping changes: only simple one-line headers qualify.
  const fixed = preview.headerLines !== 1;
  const label = (index: number) => preview.columns[index] || `Column ${index + 1}`;
  const plain = defaultMapping(preview.columns);
  const remapped = plain.email !== mapping.email || plain.name !== mapping.name;
  const hint = fixed
    ? 'The header row spans several lines, so the columns are used as it names them.'
    : remapped
      ? 'The uploaded copy’s first row names these columns email and name; your file is not changed.'
      : null;

  return (
    <div className={styles.preview}>
      <p className={styles.summary}>
        {file.name} · {formatBytes(file.size)} · {rows.toLocaleString('en-US')}{' '}
        {rows === 1 ? 'row' : 'rows'} · {delimiterName(preview.delimiter)}-separated ·{' '}
        {preview.columns.length} {preview.columns.length === 1 ? 'column' : 'columns'}
      </p>
      <div className={styles.mapping}>
        <SelectField
          label="Email column"
          value={mapping.email ?? ''}
          disabled={fixed}
          hint={hint}
          error={emailError}
          onChange={(e) => {
            const email = e.target.value === '' ? null : Number(e.target.value);
            onMapping({ email, name: mapping.name === email ? null : mapping.name });
          }}
        >
          {mapping.email === null ? <option value="">Choose a column</option> : null}
          {preview.columns.map((_, index) => (
            <option key={index} value={index}>
              {label(index)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Name column"
          value={mapping.name ?? ''}
          disabled={fixed}
          onChange={(e) =>
            onMapping({
              ...mapping,
              name: e.target.value === '' ? null : Number(e.target.value),
            })
          }
        >
          <option value="">No name column</option>
          {preview.columns.map((_, index) =>
            index === mapping.email ? null : (
              <option key={index} value={index}>
                {label(index)}
              </option>
            ),
          )}
        </SelectField>
      </div>
      <Table caption="How each column is imported">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Imported as</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => (
            <tr key={c.index}>
              <td className={styles.cell}>{label(c.index)}</td>
              <td className={styles.role}>
                {c.role === 'email'
                  ? 'Email address'
                  : c.role === 'name'
                    ? 'Name'
                    : `Attribute “${c.key}”`}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Table caption={`First ${Math.min(preview.rows.length, rows)} rows of the file`}>
        <thead>
          <tr>
            {preview.columns.map((_, index) => (
              <th key={index} scope="col" className={styles.cell}>
                {label(index)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row, r) => (
            <tr key={r}>
              {preview.columns.map((_, index) => (
                <td key={index} className={styles.cell} title={row[index] ?? ''}>
                  {row[index] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
