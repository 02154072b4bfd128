-- The local scheduler reaches process-queue through the stack's internal gateway name, as the
-- Supabase CLI's database container does (`http://kong:8000`), not through the host port 54321: the
-- emulator sends that name to its own gateway, so each emulator (dev, tests on other ports) kicks
-- its own functions and never another one's. Hosted projects use Vault and are not affected.
update private.scheduler_secrets
   set value = 'http://kong:8000'
 where name = 'postbox_project_url' and value = 'http://127.0.0.1:54321';
