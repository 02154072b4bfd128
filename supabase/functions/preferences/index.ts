// `preferences` (SPEC §7): a subscriber's own name and lists, unsubscribe from all, and their data
// (download or delete), all authorised by the signed link from their emails.
import { serve } from '../_shared/http.ts';
import { handlePreferences } from './handler.ts';

serve(['GET', 'POST'], handlePreferences);
