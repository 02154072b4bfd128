// `track` (SPEC §7): the open pixel and click redirect of campaign messages, signed; events only while tracking is on.
import { serve } from '../_shared/http.ts';
import { handleTrack } from './handler.ts';

serve(['GET'], handleTrack);
