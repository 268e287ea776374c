-- hand-written: the dashboard's metering moved from account_authorize(account) to
-- dashboard_authorize(user, client) (db/functions/metering.sql), which meters visitors without
-- an account too.
DROP FUNCTION IF EXISTS account_authorize(text);
