// An email address that wraps only between its words: after "@", ".", "-", "_" or "+", never inside
// a word (issue 23). Each break opportunity is a <wbr>; the CSS around it turns off breaking anywhere.
import { Fragment } from 'react';
import { emailParts } from '../../../lib/admin/email-wrap';
import styles from './Subscribers.module.css';

export function EmailText({ email, className }: { email: string; className?: string }) {
  return (
    <span className={`${styles.address} ${className ?? ''}`}>
      {emailParts(email).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
