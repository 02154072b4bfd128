// juice's client build (no file or network access; the full build adds both), typed as the shared
// renderer uses it: its type declarations cover only the package's main entry. Imported only where
// emails are rendered, not through deps.ts, so other functions do not load cheerio and postcss.
import type { Juice } from '../../../lib/email-render/inline-css.ts';
// @ts-types="npm:juice@12.2.0"
import client from 'npm:juice@12.2.0/client';

const juice: Juice = client;
export default juice;
