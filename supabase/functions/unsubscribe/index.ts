// `unsubscribe` (SPEC §7, RFC 8058): the footer link's page data, the one-click POST and the undo.
import { serve } from '../_shared/http.ts';
import { handleUnsubscribe } from './handler.ts';

serve(['GET', 'POST'], handleUnsubscribe);
