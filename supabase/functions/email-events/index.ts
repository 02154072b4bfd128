// `email-events` (SPEC §7): the mail provider's webhook for bounces and complaints, behind a shared secret.
import { serve } from '../_shared/http.ts';
import { handleEmailEvents } from './handler.ts';

serve(['POST'], handleEmailEvents);
